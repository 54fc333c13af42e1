import streamlit as st

from attention_ui import editor, state, views
from attention_ui.stages import BY_KEY
from attention_ui.widgets import prev_next, stage_header

stage_header(BY_KEY["inputs"])
editor.render()

st.subheader("Live preview: the attention weights these inputs give")
views.summary("inputs", state.labels(), state.get_trace(), key="inputs")
if state.input_error() is not None:
    st.caption("The preview shows the last valid scenario until the problem above is fixed.")
prev_next("inputs")
