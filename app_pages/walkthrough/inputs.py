import streamlit as st

from attention_ui.frame import state
from attention_ui.i18n import _
from attention_ui.views import stage_views as views
from attention_ui.walkthrough import editor
from attention_ui.walkthrough.page import stage_page

with stage_page("inputs", stale=None):  # each problem is shown at its own input
    editor.render()
    st.subheader(_("Live preview: the attention weights these inputs give"))
    views.summary("inputs", state.labels(), state.get_trace(), key="inputs")
    if state.input_error() is not None:
        st.caption(_("The preview shows the last valid scenario until the problem above is fixed."))
