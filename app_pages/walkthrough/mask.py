from attention_ui.frame import state
from attention_ui.views import stage_views as views
from attention_ui.walkthrough import editor
from attention_ui.walkthrough.page import stage_page

with stage_page("mask", stale=("mask",)):
    editor.mask_controls()
    views.mask(state.labels(), state.get_trace(), "mask")
