from attention_ui import explanations, state, views
from attention_ui.widgets import page_header, prev_next, stale_notice

page_header("softmax", "softmax", explanations.LONG["softmax"])
stale_notice()
views.softmax_view(state.get_scenario(), state.get_trace())
prev_next("softmax")
