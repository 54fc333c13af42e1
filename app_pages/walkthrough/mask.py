from attention_ui import editor, state, views
from attention_ui.stages import BY_KEY
from attention_ui.widgets import prev_next, stage_header, stale_notice

stage_header(BY_KEY["mask"])
stale_notice(shown_here=("mask",))
editor.mask_controls()
views.mask(state.labels(), state.get_trace(), "mask")
prev_next("mask")
