import streamlit as st

from attention_ui.draw.text import md_escape
from attention_ui.frame import look, state
from attention_ui.frame.widgets import link, page_header
from attention_ui.live import views as live_views
from attention_ui.stages.registry import formula
from attention_ui.start import intro

page_header("start")
st.markdown(
    "#### How does a Transformer decide which words matter to each other?\n"
    "Attention lets every token look at the other tokens and take in what it needs. "
    "This app computes **scaled dot-product attention** on your own tokens and numbers and "
    "shows every step."
)
st.latex(formula(stacked=look.phone()))
live_views.join_box()  # a student in class: the code on the teacher's screen

left, right = st.columns([3, 2])
with left:
    st.subheader("The intuition")
    intro.intuition()
with right:
    intro.diagram()

st.subheader("The recipe: click a step to open it")
intro.pipeline()

st.subheader("Start from an example")
st.caption(f"Current scenario: {md_escape(state.get_scenario().name or 'your own')}")
intro.preset_cards()

st.subheader("How to use it")
c1, c2 = st.columns(2)
with c1:
    st.markdown("**Learning on your own**")
    link("app_pages/walkthrough/inputs.py", "Walk through the steps from 1. Inputs")
    link("app_pages/practice/exercises.py", "Check your own answers: Exercises")
    link("app_pages/labs/scaling_lab.py", "Why 1/√d_k? The scaling lab")
with c2:
    st.markdown("**Teaching a class**")
    link("app_pages/practice/present.py", "Presentation mode: one step per screen")
    st.caption(
        "Every page's address holds the whole scenario: copy it (or use *Share and export* in "
        "the sidebar) and your students open the same numbers on the same page."
    )
