import streamlit as st

from attention_ui.draw.text import md_escape
from attention_ui.frame import lang, look, state
from attention_ui.frame.sidebar import shown_name
from attention_ui.frame.widgets import link, page_header
from attention_ui.i18n import _
from attention_ui.live import phone
from attention_ui.stages.registry import formula
from attention_ui.start import intro

page_header("start")
lang.picker("lang_start")
st.markdown(
    "#### "
    + _("How does a Transformer decide which words matter to each other?")
    + "\n"
    + _(
        "Attention lets every token look at the other tokens and take in what it needs. "
        "This app computes **scaled dot-product attention** on your own tokens and numbers "
        "and shows every step."
    )
)
st.latex(formula(stacked=look.phone()))
phone.join_box()  # a student in class: the code on the teacher's screen

left, right = st.columns([3, 2])
with left:
    st.subheader(_("The intuition"))
    intro.intuition()
with right:
    intro.diagram()

st.subheader(_("The recipe: click a step to open it"))
intro.pipeline()

st.subheader(_("Start from an example"))
st.caption(
    _("Current scenario: {name}").format(name=md_escape(shown_name(state.get_scenario().name)))
)
intro.preset_cards()

st.subheader(_("How to use it"))
c1, c2 = st.columns(2)
with c1:
    st.markdown(_("**Learning on your own**"))
    link("app_pages/walkthrough/inputs.py", _("Walk through the steps from 1. Inputs"))
    link("app_pages/practice/exercises.py", _("Check your own answers: Exercises"))
    link("app_pages/labs/scaling_lab.py", _("Why 1/√d_k? The scaling lab"))
with c2:
    st.markdown(_("**Teaching a class**"))
    link("app_pages/practice/present.py", _("Presentation mode: one step per screen"))
    st.caption(
        _(
            "Every page's address holds the whole scenario: copy it (or use *Share and "
            "export* in the sidebar) and your students open the same numbers on the same page."
        )
    )
