from attention_ui.frame import state
from attention_ui.frame.widgets import link
from attention_ui.i18n import _
from attention_ui.views import stage_views as views
from attention_ui.walkthrough import editor
from attention_ui.walkthrough.page import stage_page

with stage_page("scaling"):
    editor.scaling_toggle()
    views.scaling(state.labels(), state.get_trace(), "scaling")
    link(
        "app_pages/labs/scaling_lab.py",
        _("See why on the scaling lab: sweep d_k and watch softmax saturate"),
    )
