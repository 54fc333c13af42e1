"""A control's edit of the scenario, from any page: the draft is taken and the inputs follow.

The Inputs page's editor and the multi-head lab's head controls both change the scenario;
this is the one way they do it (``state`` keeps the draft and validates it).
"""

from __future__ import annotations

from attention_core import Scenario
from attention_ui.frame import state


def commit(draft: Scenario, field: str | None = None) -> None:
    """Take ``draft``; ``field``'s old "could not read" message goes with the edit."""
    if field is not None:
        state.clear_field(field)
    state.update_draft(draft)
    state.reset_editors()  # every input shows the new draft
