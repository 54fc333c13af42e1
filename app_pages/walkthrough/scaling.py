from attention_ui import editor, state, views
from attention_ui.stages import BY_KEY
from attention_ui.widgets import link, prev_next, stage_header, stale_notice

stage_header(BY_KEY["scaling"])
stale_notice()
editor.scaling_toggle()
views.scaling(state.labels(), state.get_trace(), "scaling")
link(
    "app_pages/labs/scaling_lab.py",
    "See why on the scaling lab: sweep d_k and watch softmax saturate",
)
prev_next("scaling")
