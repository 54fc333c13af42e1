"""The scenario editor on the Inputs page: tokens, mode, sizes and one grid per matrix.

Every control edits the *draft* scenario (attention_ui.state). A draft that validates
becomes the current scenario at once; one that does not is kept, with its message shown
next to the input that caused it, while the other pages keep the last valid scenario.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import (
    MAX_DIM,
    InputError,
    Scenario,
    parse_matrix,
    parse_number,
    parse_tokens,
    resize,
)
from attention_core.parsing import EMPTY
from attention_core.types import FloatArray
from attention_ui import state
from attention_ui.widgets import error, md_escape, shape

MATRIX_HELP = {
    "X": "one row per token: its embedding (d_model numbers)",
    "W_q": "learned projection: embedding → query (d_model × d_k)",
    "W_k": "learned projection: embedding → key (d_model × d_k)",
    "W_v": "learned projection: embedding → value (d_model × d_v)",
    "Q": "one row per query token (d_k numbers)",
    "K": "one row per key token (d_k numbers)",
    "V": "one row per key token: the value it passes on (d_v numbers)",
}


# ---- labels and sizes ---------------------------------------------------------------
def row_labels(s: Scenario, name: str) -> list[str]:
    n = _dims(s)
    if name in ("W_q", "W_k", "W_v"):
        return [f"e{m + 1}" for m in range(n["d_model"])]
    return s.query_labels if name == "Q" else s.key_labels


def col_labels(name: str, n_cols: int) -> list[str]:
    prefix = {"X": "e", "V": "v", "W_v": "v"}.get(name, "d")
    return [f"{prefix}{m + 1}" for m in range(n_cols)]


def _dims(s: Scenario) -> dict[str, int]:
    """d_model, d_k, d_v as the draft's matrices have them."""
    if s.mode == "embeddings":
        return {"d_model": _cols(s.X), "d_k": _cols(s.W_q), "d_v": _cols(s.W_v)}
    return {"d_model": 0, "d_k": _cols(s.Q), "d_v": _cols(s.V)}


def _cols(M: FloatArray | None) -> int:
    return 1 if M is None else int(np.atleast_2d(M).shape[1])


def target_shape(s: Scenario, name: str, d: dict[str, int]) -> tuple[int, int]:
    """The (rows, cols) a matrix must have for the draft's tokens and sizes."""
    n_q, n_k = len(s.queries), len(s.tokens)
    return {
        "X": (n_k, d["d_model"]),
        "W_q": (d["d_model"], d["d_k"]),
        "W_k": (d["d_model"], d["d_k"]),
        "W_v": (d["d_model"], d["d_v"]),
        "Q": (n_q, d["d_k"]),
        "K": (n_k, d["d_k"]),
        "V": (n_k, d["d_v"]),
    }[name]


def conform(s: Scenario, d: dict[str, int] | None = None) -> Scenario:
    """Resize every matrix (and a custom mask) to the draft's tokens and sizes, keeping numbers."""
    d = d or _dims(s)
    changes = {n: resize(getattr(s, n), *target_shape(s, n, d)) for n in s.matrix_names}
    if s.custom_mask is not None:
        m = np.ones((len(s.queries), len(s.tokens)), dtype=bool)
        old = np.asarray(s.custom_mask, dtype=bool)
        r, c = min(m.shape[0], old.shape[0]), min(m.shape[1], old.shape[1])
        m[:r, :c] = old[:r, :c]
        changes["custom_mask"] = m
    if s.n_valid is not None:
        changes["n_valid"] = min(s.n_valid, len(s.tokens))
    return s.replace(**changes)


# ---- callbacks: each edits the draft, then re-seeds the widgets ---------------------------
def _commit(draft: Scenario, field: str | None = None) -> None:
    if field is not None:
        state.field_errors().pop(field, None)
    state.update_draft(draft)
    state.reset_editors()


def _on_tokens(field: str) -> None:
    text = st.session_state.get(f"{field}_text", "")
    draft = state.get_draft()
    if field == "query_tokens" and not text.strip():
        _commit(conform(draft.replace(query_tokens=None)), field)
        return
    try:
        tokens = tuple(parse_tokens(text))
    except InputError as exc:
        state.field_errors()[field] = exc.message
        return
    _commit(conform(draft.replace(**{field: tokens})), field)


def _on_mode() -> None:
    """Switch embeddings <-> direct, carrying over what the learner already has."""
    draft = state.get_draft()
    if st.session_state["input_mode"] == draft.mode:
        return
    if draft.mode == "embeddings":
        new = draft.replace(mode="direct")
        if state.input_error() is None:  # the draft is the current scenario: keep its Q, K, V
            trace = state.get_trace()
            new = new.replace(Q=trace.Q, K=trace.K, V=trace.V)
        d = {
            "d_model": 0,
            "d_k": _cols(new.Q) if new.Q is not None else 3,
            "d_v": _cols(new.V) if new.V is not None else 3,
        }
    else:
        new = draft.replace(mode="embeddings", query_tokens=None)
        d = {
            "d_model": _cols(new.X) if new.X is not None else 4,
            "d_k": _dims(draft)["d_k"],
            "d_v": _dims(draft)["d_v"],
        }
    new = new.replace(**_missing_filled(new, d))
    _commit(conform(new, d))


def _missing_filled(s: Scenario, d: dict[str, int]) -> dict[str, FloatArray]:
    """Random numbers for matrices the other mode never had (so the switch shows something)."""
    return {
        n: _fill("random", target_shape(s, n, d), seed=i, name=n)
        for i, n in enumerate(s.matrix_names)
        if getattr(s, n) is None
    }


def _on_size(dim: str) -> None:
    draft = state.get_draft()
    d = _dims(draft)
    d[dim] = int(st.session_state[f"size_{dim}"])
    _commit(conform(draft, d))


def _on_fill(name: str, how: str) -> None:
    draft = state.get_draft()
    seed = int(st.session_state.get("fill_seed", 0))
    M = _fill(how, target_shape(draft, name, _dims(draft)), seed=seed, name=name)
    _commit(draft.replace(**{name: M}))


# Which sizes a matrix's (rows, cols) fix; None: the rows follow the tokens instead.
SIZES_OF = {
    "X": (None, "d_model"),
    "W_q": ("d_model", "d_k"),
    "W_k": ("d_model", "d_k"),
    "W_v": ("d_model", "d_v"),
    "Q": (None, "d_k"),
    "K": (None, "d_k"),
    "V": (None, "d_v"),
}


def _on_paste(name: str) -> None:
    """Use a pasted matrix; its shape sets d_model, d_k or d_v, and the others follow."""
    field = f"paste_{name}"
    try:
        M = parse_matrix(st.session_state.get(field, ""), name)
    except InputError as exc:
        state.field_errors()[field] = exc.message
        return
    draft = state.get_draft()
    d = _dims(draft)
    implied = {dim: n for dim, n in zip(SIZES_OF[name], M.shape, strict=True) if dim}
    changed = {dim: n for dim, n in implied.items() if d.get(dim) != n}
    d.update(implied)
    # Resize the other matrices to fit; the pasted one stays exactly as typed (its rows
    # may still disagree with the tokens, which then gets its own message).
    _commit(conform(draft.replace(**{name: M}), d).replace(**{name: M}), field)
    if changed:
        sizes = ", ".join(f"{dim} = {n}" for dim, n in changed.items())
        st.toast(f"{name} set {sizes}: the other matrices were resized to fit.")


def _fill(how: str, shp: tuple[int, int], seed: int = 0, name: str = "") -> FloatArray:
    """Fresh numbers for a grid: N(0, 1) rounded to 2 decimals, identity or zeros."""
    if how == "identity":
        return np.eye(*shp)
    if how == "zeros":
        return np.zeros(shp)
    rng = np.random.default_rng([seed, sum(map(ord, name))])  # a different stream per matrix
    M = rng.normal(size=shp)
    if name.startswith("W_"):
        M /= np.sqrt(shp[0])  # keep projected vectors about unit size
    return np.round(M, 2) + 0.0


# ---- rendering ------------------------------------------------------------------------------
def render() -> None:
    """The whole editor: tokens, mode and sizes, then one grid per matrix."""
    draft = state.get_draft()
    _token_inputs(draft)
    _mode_and_sizes(draft)
    for message in state.dropped_cells():
        st.warning(f"Not kept: {md_escape(message)}. The cell shows its last number again.")
    err = state.draft_error()
    if err is not None and err.where not in draft.matrix_names:  # grids show their own
        where = " (set on the Mask page)" if err.where == "mask" else ""
        error(f"{err.message}{where}")
    seed_col, _ = st.columns([1, 3])
    seed_col.number_input("Seed for the random fills", 0, 2**31 - 1, 0, key="fill_seed")
    grids = {}
    for row in _grid_rows(draft):
        for col, name in zip(st.columns(len(row)), row, strict=True):
            with col:
                grids[name] = _matrix_editor(draft, name)
    changed = {n: M for n, M in grids.items() if M is not None and not _same(M, getattr(draft, n))}
    if changed:
        state.update_draft(draft.replace(**changed))


def _grid_rows(s: Scenario) -> list[tuple[str, ...]]:
    return [("X",), ("W_q", "W_k", "W_v")] if s.mode == "embeddings" else [("Q", "K"), ("V",)]


def _same(A: FloatArray, B: FloatArray | None) -> bool:
    return B is not None and A.shape == np.shape(B) and np.array_equal(A, B, equal_nan=True)


def _token_inputs(draft: Scenario) -> None:
    ss = st.session_state
    ss.setdefault("tokens_text", " ".join(draft.tokens))
    label = "Key tokens (the sequence)" if draft.query_tokens is not None else "Tokens"
    st.text_input(
        label,
        key="tokens_text",
        on_change=_on_tokens,
        args=("tokens",),
        help="Words separated by spaces or commas; repeats are fine.",
    )
    _field_error("tokens")
    if draft.mode == "direct":
        ss.setdefault("query_tokens_text", " ".join(draft.query_tokens or ()))
        st.text_input(
            "Query tokens (leave empty for self-attention: queries = tokens)",
            key="query_tokens_text",
            on_change=_on_tokens,
            args=("query_tokens",),
        )
        _field_error("query_tokens")


def _mode_and_sizes(draft: Scenario) -> None:
    ss = st.session_state
    ss.setdefault("input_mode", draft.mode)
    st.radio(
        "What do you want to type?",
        ["embeddings", "direct"],
        key="input_mode",
        on_change=_on_mode,
        horizontal=True,
        format_func={
            "embeddings": "Embeddings X and projections W_Q, W_K, W_V",
            "direct": "Q, K and V directly",
        }.get,
    )
    d = _dims(draft)
    dims = ("d_model", "d_k", "d_v") if draft.mode == "embeddings" else ("d_k", "d_v")
    for col, dim in zip(st.columns(3), dims, strict=False):
        ss.setdefault(f"size_{dim}", d[dim])
        col.number_input(dim, 1, MAX_DIM, key=f"size_{dim}", on_change=_on_size, args=(dim,))


def _matrix_editor(draft: Scenario, name: str) -> FloatArray | None:
    """One editable grid; returns its numbers, or None while a cell cannot be read.

    Cells are text, read with the core's number parser: a number column would silently
    drop what it does not understand ('1e3' became 13, '−2' became 2).
    """
    base = state.editor_base(name)
    if base is None or np.shape(base) != np.shape(getattr(draft, name)):
        state.reset_editors()
        base = state.editor_base(name)
    base = np.atleast_2d(base)
    st.markdown(f"**{name}** ({shape(base)}): {MATRIX_HELP[name]}")
    shown = cell_strings(base)  # (rows, cols) of str
    rows = fitting_labels(row_labels(draft, name), base.shape[0])
    frame = pd.DataFrame(shown, index=rows, columns=col_labels(name, base.shape[1]))
    edited = st.data_editor(
        frame,
        key=f"grid_{name}_{state.editor_gen()}",
        num_rows="fixed",
        column_config={c: st.column_config.TextColumn(c) for c in frame.columns},
    )
    M, message = read_cells(name, base, shown, edited.to_numpy(dtype=object))
    field = f"grid_{name}"
    if message:
        state.field_errors()[field] = message
    else:
        state.field_errors().pop(field, None)
    _field_error(field)
    err = state.input_error()
    if err is not None and err.where == name:
        error(err.message)
    _fill_buttons(name)
    _paste_box(name)
    return None if message else M


def cell_strings(M: FloatArray) -> np.ndarray:
    """How a grid shows numbers: 6 significant digits (the exact value is kept aside)."""
    return np.array([[f"{x:.6g}" for x in row] for row in M], dtype=object)


def fitting_labels(labels: list[str], n: int) -> list[str]:
    """The draft's labels when they fit; numbered rows while a pasted matrix does not."""
    return labels if len(labels) == n else [f"row {i + 1}" for i in range(n)]


def read_cells(
    name: str, base: FloatArray, shown: np.ndarray, typed: np.ndarray
) -> tuple[FloatArray, str | None]:
    """The grid's numbers: untouched cells keep their exact value, edited ones are parsed.

    base (rows, cols) floats; shown and typed (rows, cols) what the grid showed and holds.
    Returns the numbers and the message for the first cell that is not a number.
    """
    M = np.array(base, dtype=np.float64)  # (rows, cols)
    for i, j in np.argwhere(typed != shown):
        cell = typed[i, j]
        text = "" if cell is None or (isinstance(cell, float) and np.isnan(cell)) else cell
        try:
            M[i, j] = parse_number(text)
        except InputError as exc:
            where = f"{name} row {i + 1}, column {j + 1}"
            if exc.message == EMPTY:
                return M, f"{where} is empty: type a number"
            return M, f"{where}: {exc.message}"
    return M, None


def _fill_buttons(name: str) -> None:
    cols = st.columns(3)
    for col, how in zip(cols, ("random", "identity", "zeros"), strict=True):
        col.button(
            how.capitalize(),
            key=f"fill_{name}_{how}",
            on_click=_on_fill,
            args=(name, how),
            help=f"Fill {name} with {how}",
            width="stretch",
        )


def _paste_box(name: str) -> None:
    field = f"paste_{name}"
    with st.expander(f"Paste {name} as text"):
        st.text_area(
            "Rows on lines or separated by ';', numbers by commas or spaces; "
            "[[1, 2], [3, 4]] works too.",
            key=field,
        )
        st.button(f"Use this {name}", key=f"paste_btn_{name}", on_click=_on_paste, args=(name,))
    _field_error(field)


def _field_error(field: str) -> None:
    message = state.field_errors().get(field)
    if message:
        error(message)
