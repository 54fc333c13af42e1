from attention_ui import state, views
from attention_ui.stages import BY_KEY
from attention_ui.widgets import prev_next, stage_header, stale_notice

stage_header(BY_KEY["scores"])
stale_notice()
views.scores(state.labels(), state.get_trace(), "scores")
prev_next("scores")
