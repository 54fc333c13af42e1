from attention_ui import state, views
from attention_ui.stages import BY_KEY
from attention_ui.widgets import prev_next, stage_header, stale_notice

stage_header(BY_KEY["softmax"])
stale_notice()
views.softmax_view(state.labels(), state.get_trace(), "softmax")
prev_next("softmax")
