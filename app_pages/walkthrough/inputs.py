import streamlit as st

from attention_ui import editor, explanations, state, views
from attention_ui.widgets import page_header, prev_next

page_header("inputs", lead=explanations.LONG["inputs"])
editor.render()

st.subheader("Live preview: the attention weights these inputs give")
views.plot(
    views.stage_figure("softmax", state.get_scenario(), state.get_trace()), key="inputs_preview"
)
if state.input_error() is not None:
    st.caption("The preview shows the last valid scenario until the problem above is fixed.")
prev_next("inputs")
