from attention_ui import explanations, state, views
from attention_ui.widgets import page_header, prev_next, stale_notice

page_header("projections", "proj", explanations.LONG["projections"])
stale_notice()
views.projections(state.get_scenario(), state.get_trace())
prev_next("projections")
