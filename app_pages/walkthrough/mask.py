from attention_ui import explanations, state, views
from attention_ui.widgets import page_header, prev_next, stale_notice

page_header("mask", "mask", explanations.LONG["mask"])
stale_notice(shown_here=("mask",))
views.mask(state.get_scenario(), state.get_trace())
prev_next("mask")
