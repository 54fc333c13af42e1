from attention_ui.frame import state
from attention_ui.views import stage_views as views
from attention_ui.walkthrough.page import stage_page

with stage_page("softmax"):
    views.softmax_view(state.labels(), state.get_trace(), "softmax", share_row=True)
