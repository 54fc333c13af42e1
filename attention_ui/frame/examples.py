"""Loading an example: the preset becomes the scenario, and the learner is told so.

Below the guard and the sidebar, so both can load one: the guard's "start again" and the
sidebar's, Start's and the labs' buttons (``sidebar.load_example``, the guarded callback).
"""

from __future__ import annotations

import streamlit as st

from attention_core import PRESETS
from attention_ui.draw.text import md_escape, sentence
from attention_ui.frame import state
from attention_ui.i18n import _


def load(key: str) -> None:
    """Make a preset the current scenario and say so (a toast, since the page may not change)."""
    state.load_preset(key)
    undo = " " + _("Undo brings back the one it replaced.") if state.previous_scenario() else ""
    title = sentence(md_escape(_(PRESETS[key].title)))
    st.toast(_("Loaded the example: {title}").format(title=title) + undo)
