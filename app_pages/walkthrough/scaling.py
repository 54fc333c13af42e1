from attention_ui import explanations, state, views
from attention_ui.widgets import page_header, prev_next, stale_notice

page_header("scaling", "scaling", explanations.LONG["scaling"])
stale_notice()
views.scaling(state.get_scenario(), state.get_trace())
prev_next("scaling")
