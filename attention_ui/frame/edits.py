"""A control's edit of the scenario, from any page: the draft is taken and the inputs follow.

The Inputs page's editor and the multi-head lab's head controls both change the scenario;
this is the one way they do it (``state`` keeps the draft and validates it), and ``seed`` is
how each of their widgets shows the draft again after it was replaced.
"""

from __future__ import annotations

import streamlit as st

from attention_core import Scenario
from attention_ui.frame import state
from attention_ui.frame.keys import EDITORS_STALE


def commit(draft: Scenario, field: str | None = None) -> None:
    """Take ``draft``; ``field``'s old "could not read" message goes with the edit."""
    if field is not None:
        state.clear_field(field)
    state.update_draft(draft)
    state.reset_editors()  # every input shows the new draft


def seed(key: str, value: object) -> None:
    """Just before an editor widget is drawn: give it ``value`` (the draft's) when the draft
    was replaced since it was last drawn, or when it has none. Written, not popped and
    defaulted: the key keeps its widget, so a callback reads it even in a batch of edits
    (``state.reset_editors`` says why), and the browser is sent the draft's value."""
    ss = st.session_state
    stale = ss.get(EDITORS_STALE)
    if key not in ss or (stale is not None and key in stale):
        ss[key] = value
        if stale is not None:
            stale.discard(key)
