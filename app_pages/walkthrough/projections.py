from attention_ui.frame import state
from attention_ui.views import stage_views as views
from attention_ui.walkthrough.page import stage_page

with stage_page("projections"):
    s = state.get_scenario()
    W = {"Q": s.W_q, "K": s.W_k, "V": s.W_v} if s.mode == "embeddings" else None
    views.projections(state.labels(), state.get_trace(), "proj", X=s.X if W else None, W=W)
