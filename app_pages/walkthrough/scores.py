from attention_ui import explanations, state, views
from attention_ui.widgets import page_header, prev_next, stale_notice

page_header("scores", "scores", explanations.LONG["scores"])
stale_notice()
views.scores(state.get_scenario(), state.get_trace())
prev_next("scores")
