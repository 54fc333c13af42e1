"""The multi-head lab's controls: the head count, and the fix that makes a scenario ready.

Both change the scenario itself (the head count travels in ``?s=``), through ``edits``.
"""

from __future__ import annotations

import streamlit as st

from attention_core import shapes
from attention_ui.frame import edits, guard, keys, state
from attention_ui.i18n import _

MAX_HEADS = 8  # the lab draws one heatmap per head: more than 8 stop being readable


def head_count_control() -> None:
    """The number of heads, among the divisors of the width d_k = d_v (it travels in ?s=)."""
    draft = state.get_draft()
    choices = [n for n in shapes.head_choices(draft) if n <= MAX_HEADS]
    if draft.n_heads not in choices:  # a link or file may hold more heads than offered
        choices.append(draft.n_heads)
    key = keys.N_HEADS_WIDGET
    edits.seed(key, draft.n_heads)
    if st.session_state.get(key) not in choices:
        st.session_state[key] = draft.n_heads
    st.segmented_control(
        _("Number of heads (they split d_k = {d_k})").format(d_k=shapes.dims(draft)["d_k"]),
        choices,
        key=key,
        required=True,
        on_change=_on_heads,
        help=_("Only counts that divide the width evenly: every head gets d_head = d_k / heads."),
    )


@guard.callback
def _on_heads() -> None:
    n = st.session_state.get(keys.N_HEADS_WIDGET)
    if n is not None:
        edits.commit(shapes.with_heads(state.get_draft(), int(n)))


def heads_fix_button(label: str) -> None:
    """The one-click fix: embeddings, d_v = d_k and a W_O (shapes.ready_for_heads), undoable."""
    st.button(label, key="heads_fix", on_click=_on_heads_fix, type="primary")


@guard.callback
def _on_heads_fix() -> None:
    """The fix replaces the scenario as a load does, so Undo brings back the one it replaced."""
    seed = int(st.session_state.get(keys.FILL_SEED, 0))
    state.replace_scenario(shapes.ready_for_heads(state.get_scenario(), seed))
    st.toast(
        _(
            "Ready for heads: the other pages use the same scenario. Undo in the sidebar brings "
            "back the one it replaced."
        )
    )
