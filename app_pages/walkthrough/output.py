from attention_ui import state, views
from attention_ui.stages import BY_KEY
from attention_ui.widgets import prev_next, stage_header, stale_notice

stage_header(BY_KEY["output"])
stale_notice()
s = state.get_scenario()
views.output(state.labels(), state.get_trace(), "output", X=s.X if s.mode == "embeddings" else None)
prev_next("output")
