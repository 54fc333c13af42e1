"""The scenario editor on the Inputs page: tokens, mode, sizes and one grid per matrix.

Every control edits the *draft* scenario (attention_ui.frame.state). A draft that validates
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
    shapes,
)
from attention_core.i18n import Text
from attention_core.parsing import EMPTY
from attention_core.resize import FILLS
from attention_core.types import FloatArray
from attention_ui.draw.text import md_escape, shape, titled, vector_columns
from attention_ui.frame import edits, grids, guard, keys, state
from attention_ui.frame.language import picked_id, relabelled
from attention_ui.frame.widgets import error
from attention_ui.i18n import N_, _
from attention_ui.i18n.texts import tr
from attention_ui.stages.data import MASK_LABELS

MATRIX_HELP = {  # English msgids, shown with _()
    "X": N_("one row per token: its embedding (d_model numbers)"),
    "W_q": N_("learned projection: embedding → query (d_model × d_k)"),
    "W_k": N_("learned projection: embedding → key (d_model × d_k)"),
    "W_v": N_("learned projection: embedding → value (d_model × d_v)"),
    "Q": N_("one row per query token (d_k numbers)"),
    "K": N_("one row per key token (d_k numbers)"),
    "V": N_("one row per key token: the value it passes on (d_v numbers)"),
    "W_o": N_("multi-head output projection: the heads' concatenation → d_model (d_v × d_model)"),
}
# Each fill of attention_core.resize.FILLS: its button and its help ({name}: the matrix).
FILL_NAMES = {"random": N_("Random"), "identity": N_("Identity"), "zeros": N_("Zeros")}
FILL_HELP = {"random": N_("Fill {name} with random numbers"),
             "identity": N_("Fill {name} with the identity (ones on the diagonal)"),
             "zeros": N_("Fill {name} with zeros")}  # fmt: skip


# ---- labels ------------------------------------------------------------------------------
def row_labels(s: Scenario, name: str) -> list[str]:
    if name in ("W_q", "W_k", "W_v"):
        return vector_columns(shapes.dims(s)["d_model"], "e")
    if name == "W_o":
        return vector_columns(shapes.dims(s)["d_v"], "v")
    return s.query_labels if name == "Q" else s.key_labels


def col_labels(name: str, n_cols: int) -> list[str]:
    return vector_columns(n_cols, {"X": "e", "V": "v", "W_v": "v", "W_o": "e"}.get(name, "d"))


# ---- callbacks: each edits the draft, then re-seeds the widgets ---------------------------
@guard.callback
def _on_tokens(field: str) -> None:
    text = st.session_state.get(f"{field}_text", "")
    draft = state.get_draft()
    if field == "query_tokens" and not text.strip():
        edits.commit(shapes.conform(draft.replace(query_tokens=None)), field)
        return
    try:
        tokens = tuple(parse_tokens(text))
    except InputError as exc:
        _reject(field, exc.text, text)
        return
    edits.commit(shapes.conform(draft.replace(**{field: tokens})), field)


@guard.callback
def _on_mode() -> None:
    """Switch embeddings <-> direct, carrying over what the learner already has."""
    draft = state.get_draft()
    mode = picked_id("input_mode", ("embeddings", "direct"))  # an id, never a stale label
    if mode is None or mode == draft.mode:
        return
    trace = state.get_trace() if state.input_error() is None else None  # draft is current
    qkv = None if trace is None else (trace.Q, trace.K, trace.V)
    edits.commit(shapes.switch_mode(draft, mode, qkv))


@guard.callback
def _on_size(dim: str) -> None:
    edits.commit(shapes.with_size(state.get_draft(), dim, int(st.session_state[f"size_{dim}"])))


@guard.callback
def _on_fill(name: str, how: str) -> None:
    seed = int(st.session_state.get(keys.FILL_SEED, 0))
    edits.commit(shapes.with_fill(state.get_draft(), name, how, seed))


@guard.callback
def _on_paste(name: str) -> None:
    """Use a pasted matrix; its shape sets d_model, d_k or d_v, and the others follow."""
    field = f"paste_{name}"
    text = st.session_state.get(field, "")
    try:
        M = parse_matrix(text, name)
    except InputError as exc:
        _reject(field, exc.text, text)
        return
    new, changed = shapes.with_matrix(state.get_draft(), name, M)
    edits.commit(new, field)
    if changed:
        sizes = ", ".join(f"{dim} = {n}" for dim, n in changed.items())
        st.toast(_("{name} set {sizes}: the other matrices were resized to fit.").format(
            name=name, sizes=sizes))  # fmt: skip


def _reject(field: str, message: Text, text: str) -> None:
    """Text that cannot be read: its message, and the text itself so that its box keeps
    showing it (on any later visit) until it is fixed. Box and message always agree."""
    state.field_errors()[field] = message
    state.rejected_text(field, text)


def _seed_text(key: str, field: str, good: str) -> None:
    """A text box shows the text it could not use, if any, else the draft's."""
    rejected = state.rejected_text(field)
    edits.seed(key, good if rejected is None else rejected)


# ---- rendering ------------------------------------------------------------------------------
def render() -> None:
    """The whole editor: tokens, mode and sizes, then one grid per matrix."""
    draft = state.get_draft()
    _token_inputs(draft)
    _mode_and_sizes(draft)
    err = state.draft_error()
    if err is not None and err.where not in draft.grid_names:  # grids show their own
        where = " " + _("(set on the Mask page)") if err.where == "mask" else ""
        error(f"{tr(err)}{where}")
    seed_col, _rest = st.columns([1, 3])
    seed_col.number_input(_("Seed for the random fills"), 0, 2**31 - 1, 0, key=keys.FILL_SEED)
    typed = {}
    for row in _grid_rows(draft):
        for col, name in zip(st.columns(len(row)), row, strict=True):
            with col:
                typed[name] = _matrix_editor(draft, name)
    changed = {n: M for n, M in typed.items()
               if M is not None and not grids.same_numbers(M, getattr(draft, n))}  # fmt: skip
    if changed and (not state.update_draft(draft.replace(**changed)) or err is not None):
        st.rerun()  # an error's message appears or goes above the grids, drawn before it


def _grid_rows(s: Scenario) -> list[tuple[str, ...]]:
    if s.mode == "direct":
        return [("Q", "K"), ("V",)]
    return [("X",), ("W_q", "W_k", "W_v")] + ([("W_o",)] if s.W_o is not None else [])


def _token_inputs(draft: Scenario) -> None:
    _seed_text("tokens_text", "tokens", " ".join(draft.tokens))
    label = _("Key tokens (the sequence)") if draft.query_tokens is not None else _("Tokens")
    st.text_input(
        label,
        key="tokens_text",
        on_change=_on_tokens,
        args=("tokens",),
        help=_("Words separated by spaces or commas; repeats are fine."),
    )
    _field_error("tokens")
    if draft.mode == "direct":
        _seed_text("query_tokens_text", "query_tokens", " ".join(draft.query_tokens or ()))
        st.text_input(
            _("Query tokens (leave empty for self-attention: queries = tokens)"),
            key="query_tokens_text",
            on_change=_on_tokens,
            args=("query_tokens",),
        )
        _field_error("query_tokens")


def _mode_and_sizes(draft: Scenario) -> None:
    edits.seed("input_mode", draft.mode)
    st.radio(
        _("What do you want to type?"),
        ["embeddings", "direct"],
        key=relabelled("input_mode"),
        on_change=_on_mode,
        horizontal=True,
        format_func={
            "embeddings": _("Embeddings X and projections W_Q, W_K, W_V"),
            "direct": _("Q, K and V directly"),
        }.get,
    )
    d = shapes.dims(draft)
    dims = ("d_model", "d_k", "d_v") if draft.mode == "embeddings" else ("d_k", "d_v")
    for col, dim in zip(st.columns(3), dims, strict=False):
        edits.seed(f"size_{dim}", d[dim])
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
    st.markdown(titled(f"**{name}** ({shape(base)})", _(MATRIX_HELP[name])))  # "X (6 × 4): ..."
    shown = cell_strings(base)  # (rows, cols) of str
    rows = fitting_labels(row_labels(draft, name), base.shape[0])
    # Object dtype, not pandas 3's inferred str: inferring it costs about 1 ms a grid (4 grids
    # a run), and the grid's cells are read back as objects anyway (read_cells).
    columns = pd.Index(col_labels(name, base.shape[1]), dtype=object)
    frame = pd.DataFrame(shown, index=pd.Index(rows, dtype=object), columns=columns, dtype=object)
    edited = st.data_editor(
        frame,
        key=grids.grid_key(name),
        num_rows="fixed",
        column_config={c: st.column_config.TextColumn(c) for c in frame.columns},
    )
    M, message = read_cells(name, base, shown, edited.to_numpy(dtype=object))
    field = f"grid_{name}"
    if (dropped := grids.dropped_cell(field)) is not None:  # under its own grid
        st.warning(_("Not kept: {cell}. The cell shows its last number again.").format(
            cell=md_escape(tr(dropped))))  # fmt: skip
    if message:
        state.field_errors()[field] = message
    else:
        state.field_errors().pop(field, None)
    _field_error(field)
    err = state.input_error()
    if err is not None and err.where == name:
        error(tr(err))
    _fill_buttons(name)
    _paste_box(name)
    return None if message else M


def cell_strings(M: FloatArray) -> np.ndarray:
    """How a grid shows numbers: 6 significant digits (the exact value is kept aside)."""
    return np.array([[f"{x:.6g}" for x in row] for row in M], dtype=object)


def fitting_labels(labels: list[str], n: int) -> list[str]:
    """The draft's labels when they fit; numbered rows while a pasted matrix does not."""
    return labels if len(labels) == n else [_("row {i}").format(i=i + 1) for i in range(n)]


def read_cells(
    name: str, base: FloatArray, shown: np.ndarray, typed: np.ndarray
) -> tuple[FloatArray, Text | None]:
    """The grid's numbers: untouched cells keep their exact value, edited ones are parsed.

    base (rows, cols) floats; shown and typed (rows, cols) what the grid showed and holds.
    Returns the numbers and the message for the first cell that is not a number (a Text:
    shown with ``said``, in the language of the run that shows it).
    """
    M = np.array(base, dtype=np.float64)  # (rows, cols)
    for i, j in np.argwhere(typed != shown):
        cell = typed[i, j]
        text = "" if cell is None or (isinstance(cell, float) and np.isnan(cell)) else cell
        try:
            M[i, j] = parse_number(text)
        except InputError as exc:
            where = Text(N_("{name} row {i}, column {j}"), name=name, i=i + 1, j=j + 1)
            if exc.message == EMPTY:
                return M, Text(N_("{where} is empty: type a number"), where=where)
            return M, Text(N_("{where}: {problem}"), where=where, problem=exc.text)
    return M, None


def _fill_buttons(name: str) -> None:
    """One button per fill, in a row that wraps: a label longer than the English one (the
    German "Einheitsmatrix") is shown whole, where three equal columns cut it to "Einhei…"."""
    with st.container(horizontal=True, gap="small"):
        for how in FILLS:
            st.button(
                _(FILL_NAMES[how]),
                key=f"fill_{name}_{how}",
                on_click=_on_fill,
                args=(name, how),
                help=_(FILL_HELP[how]).format(name=name),
                width="content",
            )


def _paste_box(name: str) -> None:
    field = f"paste_{name}"
    _seed_text(field, field, "")
    with st.expander(_("Paste {name} as text").format(name=name),
                     expanded=state.rejected_text(field) is not None):  # fmt: skip
        st.text_area(
            _("Rows on lines or separated by ';', numbers by commas or spaces; "
              "[[1, 2], [3, 4]] works too."),
            key=field,
        )  # fmt: skip
        st.button(
            _("Use this {name}").format(name=name),
            key=f"paste_btn_{name}",
            on_click=_on_paste,
            args=(name,),
        )
    _field_error(field)


def _field_error(field: str) -> None:
    message = state.field_errors().get(field)
    if message:
        error(tr(message))


# ---- controls on the stage pages: they edit the draft too ---------------------------------
def scaling_toggle() -> None:
    """Switch the 1/sqrt(d_k) factor off and on (the later pages follow)."""
    draft = state.get_draft()
    edits.seed("scaled_toggle", draft.scaled)
    st.toggle(_("Apply the 1/√d_k scaling"), key="scaled_toggle", on_change=_on_scaled)
    # A slot that is always there, filled or not: the elements below keep their places, so
    # the browser updates the charts in place instead of drawing every one of them anew.
    slot = st.empty()
    if not draft.scaled:
        slot.warning(
            _("Scaling is off: the later pages use the raw scores (scale 1), as if "
              "the factor had been removed from the formula.")
        )  # fmt: skip


@guard.callback
def _on_scaled() -> None:
    draft = state.get_draft().replace(scaled=bool(st.session_state["scaled_toggle"]))
    state.update_draft(draft)


def mask_controls() -> None:
    """The mask kind, padding's number of real keys, or a custom grid of checkboxes."""
    draft = state.get_draft()
    st.info(_("Convention: **True = may attend** (as in PyTorch). Forbidden cells become −∞."))
    edits.seed("mask_kind", draft.mask_kind)
    shown = {k: _(label) for k, label in MASK_LABELS.items()}  # translated in this run
    st.radio(_("Mask"), list(MASK_LABELS), key=relabelled("mask_kind"),
             format_func=shown.__getitem__, horizontal=True,
             on_change=_on_mask_kind)  # fmt: skip
    if draft.mask_kind == "padding" and len(draft.tokens) == 1:
        st.caption(_("With a single key there is nothing to pad: that key stays visible."))
    elif draft.mask_kind == "padding":
        edits.seed("mask_n_valid", draft.n_valid or len(draft.tokens))
        st.slider(_("Number of real (non-padding) keys"), 1, len(draft.tokens),
                  key="mask_n_valid", on_change=_on_n_valid)  # fmt: skip
    if draft.mask_kind == "custom":
        _custom_grid(draft)
    err = state.input_error()
    if err is not None and err.where == "mask":
        error(tr(err))


@guard.callback
def _on_mask_kind() -> None:
    draft = state.get_draft()
    kind = picked_id("mask_kind", MASK_LABELS)  # an id, never a stale label
    if kind is None:
        return
    changes: dict[str, object] = {"mask_kind": kind}
    if kind == "padding" and draft.n_valid is None:
        changes["n_valid"] = max(1, len(draft.tokens) - 1)
    if kind == "custom" and draft.custom_mask is None:
        # Start from the mask in use, cut to the draft's shape: the last valid scenario may
        # have other queries (a causal 6 x 6 while the draft has 2 queries x 6 keys).
        current = state.get_trace().mask
        start = current if current is not None else True
        changes["custom_mask"] = shapes.conform_mask(start, len(draft.queries), len(draft.tokens))
    state.update_draft(draft.replace(**changes))
    state.reset_editors()  # mask_n_valid too


@guard.callback
def _on_n_valid() -> None:
    state.update_draft(state.get_draft().replace(n_valid=int(st.session_state["mask_n_valid"])))


def _custom_grid(draft: Scenario) -> None:
    base = shapes.conform_mask(draft.custom_mask, len(draft.queries), len(draft.tokens))
    frame = pd.DataFrame(base, index=draft.query_labels, columns=draft.key_labels)
    st.caption(_("Tick the keys each query may attend to (rows = queries, columns = keys)."))
    edited = st.data_editor(
        frame,
        key=f"mask_grid_{grids.editor_gen()}",
        num_rows="fixed",
        column_config={c: st.column_config.CheckboxColumn(c) for c in frame.columns},
    )
    grid = edited.to_numpy(dtype=bool, na_value=False)
    if not np.array_equal(grid, np.asarray(draft.custom_mask, dtype=bool)):
        state.update_draft(draft.replace(custom_mask=grid))
