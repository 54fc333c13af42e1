"""The grid editors' bookkeeping: the frame each grid was given, its key, the cells put back.

A grid editor (st.data_editor) holds its edits relative to the frame it was given, so when
the draft is replaced (a fill, new tokens, an undo) a grid must be given the new draft under
a fresh key. Only a grid whose numbers, row labels or pending edits changed gets one: the
browser keeps the others as they are (a Random fill of X used to mount all four grids
anew: browser CPU 696 -> 549 ms a fill, bench/RESULTS.md).
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import Scenario
from attention_core.i18n import Text
from attention_core.types import FloatArray
from attention_ui.frame.keys import DROPPED, EDITOR_BASE, EDITOR_GEN, EDITOR_LABELS, GRID_GENS


def reseed(draft: Scenario) -> None:
    """Give every grid the draft's matrix; a grid that changed gets a new generation."""
    ss = st.session_state
    gen = ss[EDITOR_GEN] = ss.get(EDITOR_GEN, 0) + 1
    old, gens = ss.get(EDITOR_BASE) or {}, ss.get(GRID_GENS) or {}
    new = {n: getattr(draft, n) for n in draft.grid_names}
    labels = (draft.query_labels, draft.key_labels)  # X, Q, K and V's rows; W's follow shape
    same_labels = ss.get(EDITOR_LABELS) == labels

    def kept(n: str) -> bool:
        return (n in gens and n in old and same_numbers(old[n], new[n])
                and (same_labels or n.startswith("W_"))
                and not _touched(f"grid_{n}_{gens[n]}"))  # fmt: skip

    ss[GRID_GENS] = {n: gens[n] if kept(n) else gen for n in new}
    ss[EDITOR_BASE], ss[EDITOR_LABELS] = new, labels


def editor_gen() -> int:
    """Bumped at every reseed: the key suffix of editors re-seeded every time (the mask grid)."""
    return st.session_state.get(EDITOR_GEN, 0)


def grid_key(name: str) -> str:
    """The key of grid ``name``'s editor (``grid_<name>_<generation>``)."""
    gens = st.session_state.get(GRID_GENS) or {}
    return f"grid_{name}_{gens.get(name, editor_gen())}"


def same_numbers(A: FloatArray | None, B: FloatArray | None) -> bool:
    """The same shape and numbers (NaN as NaN); None matches only None."""
    return (A is None and B is None) or (
        A is not None and B is not None and np.shape(A) == np.shape(B)
        and bool(np.array_equal(A, B, equal_nan=True))
    )  # fmt: skip


def _touched(key: str) -> bool:
    """Whether the grid editor ``key`` holds edits (its widget state is relative to its base)."""
    value = st.session_state.get(key)
    return bool(value) and any(value.get(part) for part in ("edited_rows", "added_rows",
                                                            "deleted_rows"))  # fmt: skip


def note_dropped(errors: dict[str, Text]) -> None:
    """A grid cell that could not be read is not kept when the grids are re-seeded: say so."""
    for field in [f for f in errors if f.startswith("grid_")]:
        st.session_state.setdefault(DROPPED, {})[field] = errors.pop(field)


def dropped_cells() -> list[Text]:
    """Why cells were put back to their last number, for the pages other than Inputs (which
    reads each one at its grid, once: ``dropped_cell``)."""
    return list(st.session_state.get(DROPPED, {}).values())


def dropped_cell(field: str) -> Text | None:
    """Why a cell of grid ``field`` was put back to its last number, if it was (read once)."""
    return st.session_state.get(DROPPED, {}).pop(field, None)
