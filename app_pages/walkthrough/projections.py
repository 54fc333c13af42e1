from attention_ui import state, views
from attention_ui.stages import BY_KEY
from attention_ui.widgets import prev_next, stage_header, stale_notice

stage_header(BY_KEY["projections"])
stale_notice()
s = state.get_scenario()
W = {"Q": s.W_q, "K": s.W_k, "V": s.W_v} if s.mode == "embeddings" else None
views.projections(state.labels(), state.get_trace(), "proj", X=s.X if W else None, W=W)
prev_next("projections")
