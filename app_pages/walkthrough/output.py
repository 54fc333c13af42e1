from attention_ui import explanations, state, views
from attention_ui.widgets import page_header, prev_next, stale_notice

page_header("output", "output", explanations.LONG["output"])
stale_notice()
views.output(state.get_scenario(), state.get_trace())
prev_next("output")
