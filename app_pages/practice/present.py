"""Presentation mode: one stage per screen for a projector; ``?step=k`` is the position.

The heading (BY_KEY["present"].title) is rendered by ``present.render`` at the top of every
step, small, beside the "Exit presentation" link; the sidebar is hidden on this page.
"""

from attention_ui.frame import state
from attention_ui.practice import present

present.render(state.get_scenario(), state.get_trace())
