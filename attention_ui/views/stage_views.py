"""Stage views: pure renderers of one attention trace, usable for any trace, many per page.

Each view takes the labels, an AttentionTrace and a key prefix, and reads nothing else:
no session scenario, no URL. Its own pickers (which cell, which row) are widgets keyed by
the prefix, so two views of two traces can sit on one page. Controls that change the
scenario live in the editor, not here. Every number comes from the core's trace.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from attention_core import (
    AttentionTrace,
    attention,
    batched_attention,
    causal_mask,
    check_mask,
    dot_product_terms,
    naive_softmax,
    padding_mask,
    project,
    softmax,
)
from attention_ui.draw import figures as fig
from attention_ui.draw.text import md_escape, minus, num, shape
from attention_ui.draw.widths import min_width
from attention_ui.frame import guard, look
from attention_ui.frame.keys import URL_PARAMS
from attention_ui.frame.widgets import csv_download, show_code, static_table
from attention_ui.i18n import N_, _, ngettext
from attention_ui.stages import data
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels
from attention_ui.stages.registry import stage_figure
from attention_ui.views import cell_pick, online_softmax
from attention_ui.views.cache import Lazy, lazy, resolve
from attention_ui.views.chart import plot

DIRECT_NOTE = N_(
    "In this scenario Q, K and V were typed directly (direct mode), so there is no "
    "projection step: they are shown as given. Switch the Inputs page to embeddings "
    "mode to see X W_Q, X W_K and X W_V computed."
)


def summary(stage: str, labels: Labels, t: AttentionTrace, key: str) -> None:
    """A stage's one summary figure (the registry's), e.g. the Inputs page's preview."""
    plot(lazy(stage_figure, stage, labels, t), key=f"{key}_preview")


# ---- Projections ---------------------------------------------------------------------
def projections(
    labels: Labels,
    t: AttentionTrace,
    key: str,
    X: np.ndarray | None = None,
    W: dict[str, np.ndarray] | None = None,
    note: str = DIRECT_NOTE,
) -> None:
    """X W_Q = Q, X W_K = K, X W_V = V as products; without X and W, Q, K, V as given.

    X (n, d_model); W maps "Q", "K", "V" to W_q, W_k (d_model, d_k) and W_v (d_model, d_v).
    """
    if X is None or W is None:
        st.info(_(note))
        for name, figure in resolve(lazy(sf.qkv_figures, labels, t)).items():
            plot(figure, key=f"{key}_{name}")
        return
    # Lazy tabs: only the open one is drawn (three heatmaps, not nine); a click reruns.
    titles = [f"{name} = X W_{name}" for name in ("Q", "K", "V")]  # mathematics: as it is
    tabs = st.tabs(titles, key=f"{key}_tab", on_change="rerun")
    for tab, name in zip(tabs, ("Q", "K", "V"), strict=True):
        if tab.open is not False:  # None: not tracked, draw it
            with tab:
                _product(labels, X, W[name], getattr(t, name), name, key)
    show_code(project, key=f"{key}_code")


def _product(labels: Labels, X: np.ndarray, W: np.ndarray, R: np.ndarray, name: str,
             key: str) -> None:  # fmt: skip
    """X (n, d_model) · W (d_model, d) = R (n, d), three heatmaps in a row."""
    equation(lazy(sf.projection_figures, X, W, R, name, labels), "×", f"{key}_prod", name)
    st.caption(
        ngettext(
            "Row i of {name} is row i of X times W_{name}: each token's {lower}-vector has {n} "
            "number. Shapes: ({x}) · ({w}) → ({r}).",
            "Row i of {name} is row i of X times W_{name}: each token's {lower}-vector has {n} "
            "numbers. Shapes: ({x}) · ({w}) → ({r}).",
            R.shape[1],
        ).format(name=name, lower=name.lower(), n=R.shape[1], x=shape(X), w=shape(W), r=shape(R))
    )
    frame = functools.partial(data.matrix_frame, R, labels.keys, sf.COLUMN_PREFIX[name])
    csv_download(frame, name, key=f"{key}_csv_{name}")


OP_PX = 32  # px: the column of an equation's "×" or "="


def equation(figures: list[go.Figure] | Lazy, op: str, key: str, suffix: str = "") -> None:
    """Three matrices as ``A op B = C`` in a row (they stack on a phone)."""
    if isinstance(figures, Lazy):
        figures = resolve(figures)
    # Each matrix's column as wide as its numbers need (X's four columns of "1.00" beside
    # W's three ran into each other in equal thirds of a desktop page); the signs narrow.
    least = [min_width(figure) or figure.layout.width or fig.GRID_PX for figure in figures]
    # A row too narrow for all three (a 1024 px window with the sidebar open) wraps a
    # matrix to the next line rather than scroll each in a sliver of its own.
    row = f"{key}_{suffix}_eq" if suffix else f"{key}_eq"
    st.html(f"<style>.st-key-{row} > div > [data-testid='stHorizontalBlock'] "
            "{ flex-wrap: wrap; } "
            + " ".join(f".st-key-{row} [data-testid='stColumn']:nth-of-type({2 * n + 1}) "
                       f"{{ min-width: {px}px; }}" for n, px in enumerate(least))
            + "</style>")  # fmt: skip
    cols = st.container(key=row).columns(
        [least[0], OP_PX, least[1], OP_PX, least[2]], gap="xsmall", vertical_alignment="center"
    )
    for n, figure in enumerate(figures):
        with cols[2 * n]:
            plot(figure, key=f"{key}_{n}_{suffix}" if suffix else f"{key}_{n}")
    cols[1].markdown(f"## {op}")
    cols[3].markdown("## =")


# ---- Scores ----------------------------------------------------------------------------
def scores(labels: Labels, t: AttentionTrace, key: str) -> None:
    _score_picker(labels, t, key)
    csv_download(_frame(labels, t, "scores"), "scores", key=f"{key}_csv_scores")
    show_code(attention, batched_attention, dot_product_terms, key=f"{key}_code")


def how_to_read(printed: bool, phone: bool) -> str:
    """The caption above a score grid: how to pick a cell, and where its numbers are when
    the grid does not print them (too many cells, or columns too narrow on a phone)."""
    tap = _("Tap a cell to see how its number is made, or choose the pair below.")
    pick = (
        tap if phone else _("Click a cell to see how its number is made, or choose the pair below.")
    )
    if printed:
        return pick
    if phone:
        return _("Not every number fits its cell on this screen: tap a cell for its score and "
                 "how it is made, or choose the pair below. The Numbers table under the grid "
                 "holds every score.")  # fmt: skip
    return _("Too many cells to print every number: hover over a cell (tap it on a phone) for "
             "its score, or open the Numbers table under the grid. Click a cell to see how its "
             "number is made, or choose the pair below.")  # fmt: skip


def start_scores_at(key: str, labels: Labels, t: AttentionTrace, query: int) -> None:
    """The next time the scores view ``key`` is drawn, its pickers start at query row
    ``query`` and the key it scores highest, not at the strongest cell of the whole grid
    (a real head's is [CLS] against [CLS])."""
    i, j = data.strongest_cell(t, query)
    st.session_state[f"{key}_pick_q"], st.session_state[f"{key}_pick_k"] = (
        labels.queries[i], labels.keys[j],
    )  # fmt: skip


@guard.fragment
def _score_picker(labels: Labels, t: AttentionTrace, key: str) -> None:
    """The grid, the pair pickers and the breakdown: picking reruns only this part."""
    ql, kl = labels.queries, labels.keys
    pick_q, pick_k, chart = f"{key}_pick_q", f"{key}_pick_k", f"{key}_chart"
    ss = st.session_state
    if ss.get(pick_q) not in ql or ss.get(pick_k) not in kl:  # start on the strongest match
        i, j = data.strongest_cell(t)
        ss[pick_q], ss[pick_k] = ql[i], kl[j]
    i, j = ql.index(ss[pick_q]), kl.index(ss[pick_k])
    figure = resolve(lazy(sf.scores_figure, labels, t, pick=(i, j), clickable=True))
    # Said from the figure as this screen gets it: a phone prints fewer grids' numbers.
    st.caption(how_to_read(fig.prints_numbers(figure), look.phone()))
    plot(figure, key=chart)
    cell_pick.listen(chart, f"{key}_cellpick", functools.partial(_on_cell_click, labels, pick_q,
                                                                 pick_k))  # fmt: skip
    c1, c2 = st.columns(2)
    c1.selectbox(_("Query (row)"), ql, key=pick_q)
    c2.selectbox(_("Key (column)"), kl, key=pick_k)
    breakdown(t, i, j, ql[i], kl[j], key=f"{key}_terms")


@guard.callback
def _on_cell_click(labels: Labels, pick_q: str, pick_k: str, row: int, col: int) -> None:
    """A click on the heatmap's cell (row, col) selects that pair in the two select boxes."""
    if 0 <= row < len(labels.queries) and 0 <= col < len(labels.keys):
        st.session_state[pick_q], st.session_state[pick_k] = labels.queries[row], labels.keys[col]


def breakdown(t: AttentionTrace, i: int, j: int, q_label: str, k_label: str, key: str) -> None:
    """q_i · k_j = q_i1 k_j1 + ... = value, term by term."""
    table = data.breakdown_table(t, i, j)
    st.markdown(_("**Score of query {q} against key {k}**").format(
        q=md_escape(q_label), k=md_escape(k_label)))  # fmt: skip
    st.latex(data.breakdown_latex(t, i, j))
    # A static table of preformatted numbers: every pick redraws it, and an interactive
    # grid (or a pandas Styler on the server) costs several times more to redraw. A long
    # one (a real head's 32 terms) waits in a lazy expander: the formula shows the first
    # terms, and the 32-row table was most of the browser's work on every head pick.
    terms = data.headed(table.map(lambda x: minus(f"{x:.4f}")))
    if len(table) <= data.LATEX_TERMS:
        static_table(terms)
    else:
        box = st.expander(_("Every term ({n})").format(n=len(table)), key=key, on_change="rerun")
        if box.open is not False:
            with box:
                static_table(terms)
    st.caption(
        _("Sum of the last column: {total}. The cell in row {i}, column {j} of Q Kᵀ is {score}: "
          "the same number, from the core's matrix product.").format(
            total=f"{table['q × k'].sum():.4f}", i=i + 1, j=j + 1, score=f"{t.scores[i, j]:.4f}")
    )  # fmt: skip


# ---- Scaling ---------------------------------------------------------------------------
def scaling(labels: Labels, t: AttentionTrace, key: str) -> None:
    """d_k, √d_k and the factor, then the raw and scaled scores side by side."""
    row = st.container(horizontal=True)  # one element, not three columns (fewer to redraw)
    row.metric(_("d_k (length of queries and keys)"), t.d_k)
    row.metric("√d_k", f"{np.sqrt(t.d_k):.4f}")
    row.metric(_("scale factor 1/√d_k"), f"{1 / np.sqrt(t.d_k):.4f}")
    raw, scaled = resolve(lazy(sf.scaling_pair, labels, t))
    left, right = st.columns(2)
    with left:
        plot(raw, key=f"{key}_raw")
    with right:
        plot(scaled, key=f"{key}_scaled")
    bound = sf.shared_bound(t.scores, t.scaled_scores)
    st.caption(
        _("Both grids share one colour scale (±{bound}), so the scaled one is paler: its "
          "numbers sit closer to 0. Spread of the raw scores: standard deviation {raw}; after "
          "scaling: {scaled}.").format(bound=f"{bound:.2f}", raw=f"{np.std(t.scores):.3f}",
                                       scaled=f"{np.std(t.scaled_scores):.3f}")
    )  # fmt: skip
    csv_download(_frame(labels, t, "scaled_scores"), "scaled_scores", key=f"{key}_csv_scaled")
    show_code(attention, batched_attention, key=f"{key}_code")


# ---- Mask ------------------------------------------------------------------------------
def mask(labels: Labels, t: AttentionTrace, key: str) -> None:
    """The scaled scores after the mask, and the mask itself (True = may attend)."""
    plot(lazy(sf.mask_summary, labels, t, _("Scaled scores after the mask")), key=f"{key}_chart")
    if t.mask is not None:
        grid = lazy(fig.heatmap, t.mask.astype(float), labels.queries, labels.keys,
                    _("Mask (1 = may attend)"), signed=False, digits=0)  # fmt: skip
        plot(grid, key=f"{key}_grid")
        csv_download(_frame(labels, t, "mask"), "mask", key=f"{key}_csv_mask")
    show_code(causal_mask, padding_mask, check_mask, key=f"{key}_code")


# ---- Softmax ---------------------------------------------------------------------------
def softmax_view(labels: Labels, t: AttentionTrace, key: str, share_row: bool = False) -> None:
    """The weights, then one row step by step; ``share_row``: the picked row is in the URL
    (as ``?<key>_row=``, declared in frame/keys), so a link opens on it, and so is the tile
    size of that row's online softmax (``?<key>_tile=``), offered below it."""
    plot(lazy(sf.softmax_summary, labels, t), key=f"{key}_chart")
    _softmax_row(labels, t, key, share_row)
    csv_download(_frame(labels, t, "weights"), "weights", key=f"{key}_csv_weights")
    show_code(softmax, naive_softmax, key=f"{key}_code")


@guard.fragment
def _softmax_row(labels: Labels, t: AttentionTrace, key: str, share_row: bool = False) -> None:
    """One query's softmax, step by step; choosing the row reruns only this part."""
    row = _pick_row(labels.queries, f"{key}_row", share_row)
    st.markdown(_("**Softmax of the row for query {q}, step by step**").format(
        q=md_escape(labels.queries[row])))  # fmt: skip
    # A static table of text (6 significant digits): a head pick on the real model page
    # redraws it, and the interactive grid was a third of the browser's work there.
    on_phone = look.phone()
    table = data.softmax_table(t, row, labels.keys, phone=on_phone)
    static_table(data.headed(table.map(lambda x: _as_text(x, 4 if on_phone else 6))))
    total = "" if not on_phone else _("This row's e^(score − max) sum to {total}.").format(
        total=num(float(table["e^(score − max)"].sum()), 6)) + " "  # fmt: skip
    st.caption(
        _("Each weight is e^score divided by the sum of the row's e^score. Masked keys (score "
          "−∞) contribute e^−∞ = 0.") + " " + total
        + _("The weights of this row sum to {total}.").format(total=f"{t.weights[row].sum():.6f}")
    )  # fmt: skip
    _stability_demo(t, row, labels.keys, key)
    if share_row:  # the walkthrough's own page (a lab's stage has the decoder's own)
        online_softmax.expander(labels, t, row, key)


def _as_text(x: object, digits: int = 6) -> str:
    """A table cell as the page writes numbers (−∞ and ∞ too); text stays as it is."""
    return x if isinstance(x, str) else num(float(x), digits)


def _pick_row(labels: list[str], key: str, bound: bool = False) -> int:
    """The "Query row" picker; ``bound``: kept in the URL as ``?key=`` (a declared parameter:
    a link's row is used when it names one of these rows, else the first row)."""
    ss = st.session_state
    if bound:
        assert key in URL_PARAMS, f"undeclared URL parameter {key!r}"
        if key in ss and ss[key] not in labels:  # the tokens changed
            del ss[key]
        pick = st.selectbox(_("Query row"), labels, key=key, bind="query-params")
        return labels.index(pick) if pick in labels else 0
    if ss.get(key) not in labels:
        ss[key] = labels[0]
    return labels.index(st.selectbox(_("Query row"), labels, key=key))


def _stability_demo(t: AttentionTrace, row: int, kl: list[str], key: str) -> None:
    # Lazy: its table is drawn only while it is open (a click reruns this fragment).
    box = st.expander(_("Why subtract the maximum? Naive vs stable softmax on huge scores"),
                      key=f"{key}_stability", on_change="rerun")  # fmt: skip
    if box.open is False:
        return
    with box:
        factor = st.select_slider(
            _("Multiply this row's scores by"),
            [1, 10, 100, 1000, 10000],
            value=1000,
            key=f"{key}_blowup",
        )
        x = t.masked_scores[row] * factor  # (n_k,)
        naive = naive_softmax(x)
        frame = data.stability_table(x, naive, softmax(x), kl)
        st.dataframe(data.headed(frame), width="content")
        st.markdown(data.naive_verdict(x, naive))


# ---- Output ----------------------------------------------------------------------------
def output(
    labels: Labels,
    t: AttentionTrace,
    key: str,
    X: np.ndarray | None = None,
    share_row: bool = False,
) -> None:
    """weights · V, one query's output built up, and with X (n, d_model) the residual x + output;
    ``share_row`` as for ``softmax_view``."""
    plot(lazy(sf.output_summary, labels, t), key=f"{key}_chart")
    _output_row(labels, t, key, X, share_row)
    csv_download(_frame(labels, t, "output"), "output", key=f"{key}_csv_output")
    show_code(attention, batched_attention, key=f"{key}_code")


@guard.fragment
def _output_row(labels: Labels, t: AttentionTrace, key: str, X: np.ndarray | None,
                share_row: bool = False) -> None:  # fmt: skip
    """How one query's output is built; choosing the row reruns only this part."""
    row = _pick_row(labels.queries, f"{key}_row", share_row)
    parts = data.contributions(t, row)  # (n_k, d_v)
    title = _("Output for {q}: Σ weight × value").format(q=labels.queries[row])
    bars = lazy(fig.contributions_bar, parts, t.weights[row], labels.keys, title)
    plot(bars, key=f"{key}_bars")
    table = data.output_table(t, row, labels.keys, parts)
    st.dataframe(data.headed(table, rows=("output (sum)",)), width="content")
    if X is not None:
        _residual(X, t, row)


def _residual(X: np.ndarray, t: AttentionTrace, row: int) -> None:
    st.subheader(_("The residual view: x + output"))
    if t.output.shape[1] != X.shape[1]:
        st.info(
            _("Here d_v = {d_v} but d_model = {d_model}, so the output cannot be added to the "
              "embedding directly. A Transformer first maps it back to d_model with an output "
              "projection W_O. Set d_v = d_model on the Inputs page to see it.").format(
                d_v=t.output.shape[1], d_model=X.shape[1])
        )  # fmt: skip
        return
    st.dataframe(data.headed(data.residual_table(X[row], t.output[row])), width="content")
    st.caption(_("The token keeps its own embedding and adds what it gathered from the others."))


def _frame(labels: Labels, t: AttentionTrace, name: str) -> Callable[[], pd.DataFrame]:
    """The trace's table ``name`` (scores, weights, ...), built when it is asked for."""
    return lambda: t.to_frames(labels.queries, labels.keys)[name]
