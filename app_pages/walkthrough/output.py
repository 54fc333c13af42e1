from attention_ui.frame import state
from attention_ui.views import stage_views as views
from attention_ui.walkthrough.page import stage_page

with stage_page("output"):
    s = state.get_scenario()
    X = s.X if s.mode == "embeddings" else None
    views.output(state.labels(), state.get_trace(), "output", X=X, share_row=True)
