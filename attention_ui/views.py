"""What each walkthrough stage shows: figures and tables for the current scenario.

Pages call one function each; presentation mode reuses ``stage_figure``.
Every number comes from the core's AttentionTrace.
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from attention_core import (
    AttentionTrace,
    Scenario,
    attention,
    causal_mask,
    check_mask,
    dot_product_terms,
    naive_softmax,
    padding_mask,
    project,
    softmax,
)
from attention_ui import figures as fig
from attention_ui import state
from attention_ui.widgets import csv_download, error, link, md_escape, shape, show_code

CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def plot(figure: go.Figure, key: str, **kwargs: object) -> object:
    """st.plotly_chart with the app's settings (PNG download kept, no logo)."""
    return st.plotly_chart(figure, key=key, config=CONFIG, theme=None, **kwargs)


def stage_figure(stage: str, s: Scenario, t: AttentionTrace) -> go.Figure:
    """The one figure that sums up a stage (presentation mode shows just this)."""
    ql, kl = s.query_labels, s.key_labels
    if stage == "projections":
        return fig.heatmap(
            t.Q,
            ql,
            fig.vector_columns(t.Q.shape[1]),
            f"Q ({shape(t.Q)})",
            col_title="dimension",
            row_title="token",
        )
    if stage == "scores":
        return fig.heatmap(t.scores, ql, kl, f"Raw scores Q Kᵀ ({shape(t.scores)})")
    if stage == "scaling":
        return fig.heatmap(t.scaled_scores, ql, kl, f"Scaled scores × {t.scale:.4g}")
    if stage == "mask":
        return fig.heatmap(t.masked_scores, ql, kl, "Masked scores", mask=t.mask)
    if stage == "softmax":
        return fig.weights_heatmap(t.weights, ql, kl, "Attention weights", mask=t.mask)
    if stage == "output":
        return fig.heatmap(
            t.output,
            ql,
            fig.vector_columns(t.output.shape[1], "out"),
            f"Output weights · V ({shape(t.output)})",
            col_title="dimension",
        )
    raise ValueError(f"no figure for stage {stage!r}")


# ---- Projections ---------------------------------------------------------------------
def projections(s: Scenario, t: AttentionTrace) -> None:
    if s.mode == "direct":
        st.info(
            "In this scenario Q, K and V were typed directly (direct mode), so there is no "
            "projection step: they are shown as given. Switch the Inputs page to embeddings "
            "mode to see X W_Q, X W_K and X W_V computed."
        )
        for name, M, kind in (("Q", t.Q, "d"), ("K", t.K, "d"), ("V", t.V, "v")):
            labels = s.query_labels if name == "Q" else s.key_labels
            plot(
                fig.heatmap(
                    M,
                    labels,
                    fig.vector_columns(M.shape[1], kind),
                    f"{name} ({shape(M)})",
                    row_title="token",
                    col_title="dimension",
                ),
                key=f"proj_{name}",
            )
        return
    tabs = st.tabs(["Q = X W_Q", "K = X W_K", "V = X W_V"])
    for tab, (name, W, R, kind) in zip(
        tabs, (("Q", s.W_q, t.Q, "d"), ("K", s.W_k, t.K, "d"), ("V", s.W_v, t.V, "v")), strict=True
    ):
        with tab:
            _product(s, name, W, R, kind)
    show_code(project)


def _product(s: Scenario, name: str, W: np.ndarray, R: np.ndarray, kind: str) -> None:
    """X (n, d_model) · W (d_model, d) = R (n, d), three heatmaps in a row."""
    emb = fig.vector_columns(s.X.shape[1], "e")
    out = fig.vector_columns(R.shape[1], kind)
    cols = st.columns([4, 1, 4, 1, 4], vertical_alignment="center")
    factors = (
        (s.X, s.key_labels, emb, "X", "token"),
        (W, emb, out, f"W_{name}", "embedding dim"),
        (R, s.key_labels, out, name, "token"),
    )
    for n, (M, rows, columns, label, row_title) in enumerate(factors):
        with cols[2 * n]:
            figure = fig.heatmap(M, rows, columns, f"{label} ({shape(M)})", row_title=row_title,
                                 col_title="", showscale=False)  # fmt: skip
            plot(figure, key=f"prod_{n}_{name}")
    cols[1].markdown("## ×")
    cols[3].markdown("## =")
    st.caption(
        f"Row i of {name} is row i of X times W_{name}: each token's {name.lower()}-vector "
        f"has {R.shape[1]} numbers. Shapes: ({shape(s.X)}) · ({shape(W)}) → ({shape(R)})."
    )
    csv_download(pd.DataFrame(R, index=s.key_labels, columns=out), name, key=f"csv_{name}")


# ---- Scores ----------------------------------------------------------------------------
def scores(s: Scenario, t: AttentionTrace) -> None:
    st.caption("Click a cell to see how its number is made, or choose the pair below.")
    _score_picker(s, t)
    csv_download(t.to_frames(s.query_labels, s.key_labels)["scores"], "scores", key="csv_scores")
    show_code(attention, dot_product_terms)


@st.fragment
def _score_picker(s: Scenario, t: AttentionTrace) -> None:
    """The grid, the pair pickers and the breakdown: picking reruns only this part."""
    ql, kl = s.query_labels, s.key_labels
    _init_pick(ql, kl)
    i, j = ql.index(st.session_state["pick_q"]), kl.index(st.session_state["pick_k"])
    figure = fig.heatmap(
        t.scores,
        ql,
        kl,
        f"Raw scores Q Kᵀ ({shape(t.scores)})",
        highlight=(i, j),
        colorbar_title="score",
        clickable=True,
    )
    plot(figure, key="scores_chart", on_select=_on_cell_click, selection_mode="points")
    c1, c2 = st.columns(2)
    c1.selectbox("Query (row)", ql, key="pick_q")
    c2.selectbox("Key (column)", kl, key="pick_k")
    breakdown(t, i, j, ql[i], kl[j])


def _init_pick(ql: list[str], kl: list[str]) -> None:
    """Seed the two select boxes; the pair survives reruns while its labels exist."""
    ss = st.session_state
    if ss.get("pick_q") not in ql or ss.get("pick_k") not in kl:
        i, j = np.unravel_index(np.argmax(state.get_trace().scores), (len(ql), len(kl)))
        ss["pick_q"], ss["pick_k"] = ql[i], kl[j]  # start on the strongest match


def _on_cell_click() -> None:
    """A click on the heatmap selects that (query, key) pair in the two select boxes."""
    event = st.session_state.get("scores_chart")
    points = (event or {}).get("selection", {}).get("points", [])
    if points:  # the chart holds escaped labels (figures.safe); the pickers hold raw ones
        st.session_state["pick_q"] = html.unescape(points[0]["y"])
        st.session_state["pick_k"] = html.unescape(points[0]["x"])


def breakdown(t: AttentionTrace, i: int, j: int, q_label: str, k_label: str) -> None:
    """q_i · k_j = q_i1 k_j1 + ... = value, term by term."""
    q, k = t.Q[i], t.K[j]
    terms = dot_product_terms(q, k)  # (d_k,)
    sum_text = " + ".join(f"({_n(a)})({_n(b)})" for a, b in zip(q, k, strict=True))
    st.markdown(f"**Score of query {md_escape(q_label)} against key {md_escape(k_label)}**")
    st.latex(rf"q_{{{i + 1}}} \cdot k_{{{j + 1}}} = {sum_text} = {_n(terms.sum(), 4)}")
    table = pd.DataFrame(
        {"q (query)": q, "k (key)": k, "q × k": terms},
        index=[f"dimension {m + 1}" for m in range(q.size)],
    )
    st.dataframe(table, width="content")
    st.caption(
        f"Sum of the last column: {terms.sum():.4f}. The cell in row {i + 1}, column {j + 1} "
        f"of Q Kᵀ is {t.scores[i, j]:.4f}: the same number, from the core's matrix product."
    )


def _n(x: float, digits: int = 3) -> str:
    return f"{x:.{digits}g}".replace("-", "−") if abs(x) < 1e4 else f"{x:.3e}"


# ---- Scaling ---------------------------------------------------------------------------
def scaling(s: Scenario, t: AttentionTrace) -> None:
    ql, kl = s.query_labels, s.key_labels
    factor = 1 / np.sqrt(t.d_k)
    m1, m2, m3 = st.columns(3)
    m1.metric("d_k (length of queries and keys)", t.d_k)
    m2.metric("√d_k", f"{np.sqrt(t.d_k):.4f}")
    m3.metric("scale factor 1/√d_k", f"{factor:.4f}")
    st.toggle("Apply the 1/√d_k scaling", value=s.scaled, key="scaled_toggle", on_change=_on_scaled)
    if not s.scaled:
        st.warning(
            "Scaling is off: the later pages use the raw scores (scale 1), as if "
            "the factor had been removed from the formula."
        )
    left, right = st.columns(2)
    with left:
        plot(fig.heatmap(t.scores, ql, kl, "Raw Q Kᵀ"), key="scaling_raw")
    with right:
        plot(fig.heatmap(t.scaled_scores, ql, kl, f"Q Kᵀ × {t.scale:.4g}"), key="scaling_scaled")
    st.caption(
        f"Spread of the raw scores: standard deviation {np.std(t.scores):.3f}; after "
        f"scaling: {np.std(t.scaled_scores):.3f}."
    )
    link(
        "app_pages/labs/scaling_lab.py",
        "See why on the scaling lab: sweep d_k and watch softmax saturate",
    )
    csv_download(t.to_frames(ql, kl)["scaled_scores"], "scaled_scores", key="csv_scaled")
    show_code(attention)


def _on_scaled() -> None:
    draft = state.get_draft().replace(scaled=bool(st.session_state["scaled_toggle"]))
    state.update_draft(draft)


# ---- Mask ------------------------------------------------------------------------------
MASK_LABELS = {
    "none": "No mask",
    "causal": "Causal (no peeking ahead)",
    "padding": "Padding (last keys are padding)",
    "custom": "Custom grid",
}


def mask(s: Scenario, t: AttentionTrace) -> None:
    ql, kl = s.query_labels, s.key_labels
    draft = state.get_draft()
    st.info("Convention: **True = may attend** (as in PyTorch). Forbidden cells become −∞.")
    ss = st.session_state
    ss.setdefault("mask_kind", draft.mask_kind)
    st.radio(
        "Mask",
        list(MASK_LABELS),
        key="mask_kind",
        format_func=MASK_LABELS.get,
        horizontal=True,
        on_change=_on_mask_kind,
    )
    if draft.mask_kind == "padding" and len(draft.tokens) == 1:
        st.caption("With a single key there is nothing to pad: that key stays visible.")
    elif draft.mask_kind == "padding":
        ss.setdefault("mask_n_valid", draft.n_valid or len(draft.tokens))
        st.slider(
            "Number of real (non-padding) keys",
            1,
            len(kl),
            key="mask_n_valid",
            on_change=_on_n_valid,
        )
    if draft.mask_kind == "custom":
        _custom_grid(draft)
    err = state.input_error()
    if err is not None and err.where == "mask":
        error(err.message)
    plot(
        fig.heatmap(t.masked_scores, ql, kl, "Scaled scores after the mask", mask=t.mask),
        key="mask_chart",
    )
    if t.mask is not None:
        plot(
            fig.heatmap(
                t.mask.astype(float), ql, kl, "Mask (1 = may attend)", signed=False, digits=0
            ),
            key="mask_grid",
        )
        csv_download(t.to_frames(ql, kl)["mask"], "mask", key="csv_mask")
    show_code(causal_mask, padding_mask, check_mask)


def _on_mask_kind() -> None:
    draft = state.get_draft()
    kind = st.session_state["mask_kind"]
    changes: dict[str, object] = {"mask_kind": kind}
    if kind == "padding" and draft.n_valid is None:
        changes["n_valid"] = max(1, len(draft.tokens) - 1)
    if kind == "custom" and draft.custom_mask is None:
        current = state.get_trace().mask
        changes["custom_mask"] = (
            current
            if current is not None
            else np.ones((len(draft.queries), len(draft.tokens)), bool)
        )
    state.update_draft(draft.replace(**changes))
    st.session_state.pop("mask_n_valid", None)
    state.reset_editors()


def _on_n_valid() -> None:
    state.update_draft(state.get_draft().replace(n_valid=int(st.session_state["mask_n_valid"])))


def _custom_grid(draft: Scenario) -> None:
    base = np.asarray(draft.custom_mask, dtype=bool)
    frame = pd.DataFrame(base, index=draft.query_labels, columns=draft.key_labels)
    st.caption("Tick the keys each query may attend to (rows = queries, columns = keys).")
    edited = st.data_editor(
        frame,
        key=f"mask_grid_{state.editor_gen()}",
        num_rows="fixed",
        column_config={c: st.column_config.CheckboxColumn(c) for c in frame.columns},
    )
    grid = edited.to_numpy(dtype=bool, na_value=False)
    if not np.array_equal(grid, base):
        state.update_draft(draft.replace(custom_mask=grid))


# ---- Softmax ---------------------------------------------------------------------------
def softmax_view(s: Scenario, t: AttentionTrace) -> None:
    ql, kl = s.query_labels, s.key_labels
    plot(stage_figure("softmax", s, t), key="softmax_chart")
    _softmax_row(s, t)
    csv_download(t.to_frames(ql, kl)["weights"], "weights", key="csv_weights")
    show_code(softmax, naive_softmax)


@st.fragment
def _softmax_row(s: Scenario, t: AttentionTrace) -> None:
    """One query's softmax, step by step; choosing the row reruns only this part."""
    ql, kl = s.query_labels, s.key_labels
    row = _pick_row(ql, "softmax_row")
    st.markdown(f"**Softmax of the row for query {md_escape(ql[row])}, step by step**")
    st.dataframe(softmax_table(t, row, kl), width="content")
    st.caption(
        "Each weight is e^score divided by the sum of the row's e^score. Masked keys (score −∞) "
        f"contribute e^−∞ = 0. The weights of this row sum to {t.weights[row].sum():.6f}."
    )
    _stability_demo(t, row, kl)


def _pick_row(labels: list[str], key: str) -> int:
    if st.session_state.get(key) not in labels:
        st.session_state[key] = labels[0]
    return labels.index(st.selectbox("Query row", labels, key=key))


def softmax_table(t: AttentionTrace, row: int, key_labels: list[str]) -> pd.DataFrame:
    """The lesson-style table for one query: score, e^score, row sum, weight."""
    scores_row = t.masked_scores[row]  # (n_k,)
    with np.errstate(over="ignore"):
        e = np.exp(scores_row)  # may overflow for huge scores: the stable column shows the fix
    shifted = np.exp(scores_row - np.max(scores_row))
    return pd.DataFrame(
        {
            "score": scores_row,
            "e^score": e,
            "e^(score − max)": shifted,
            "row sum of e^(score − max)": shifted.sum(),
            "weight": t.weights[row],
        },
        index=key_labels,
    )


def _stability_demo(t: AttentionTrace, row: int, kl: list[str]) -> None:
    with st.expander("Why subtract the maximum? Naive vs stable softmax on huge scores"):
        factor = st.select_slider(
            "Multiply this row's scores by",
            [1, 10, 100, 1000, 10000],
            value=1000,
            key="softmax_blowup",
        )
        x = t.masked_scores[row] * factor  # (n_k,)
        naive = naive_softmax(x)
        frame = pd.DataFrame(
            {"score": [_num(v) for v in x], "naive e^x / Σ e^x": [_num(v) for v in naive],
             "stable softmax": [_num(v) for v in softmax(x)]},
            index=kl,
        )  # fmt: skip
        st.dataframe(frame, width="content")
        st.markdown(naive_verdict(x, naive))


def _num(x: float) -> str:
    """Table text that shows nan and inf as they are (a float column would say None)."""
    return f"{x:.6g}".replace("-", "−")


def naive_verdict(x: np.ndarray, naive: np.ndarray) -> str:
    """Why the naive softmax failed on ``x`` (overflow or underflow), or that it did not."""
    finite = x[np.isfinite(x)]
    if not np.isnan(naive).any():
        return "At this size both agree; try a larger factor."
    if finite.size and finite.max() > 709:
        return (
            "**The naive version overflowed**: e^x is inf for x above about 709, and "
            "inf / inf is nan. Subtracting the row maximum keeps every exponent at most 0."
        )
    return (
        "**The naive version underflowed**: every e^x is 0 for x below about −745, and "
        "0 / 0 is nan. Subtracting the row maximum makes the largest term e^0 = 1."
    )


# ---- Output ----------------------------------------------------------------------------
def output(s: Scenario, t: AttentionTrace) -> None:
    plot(stage_figure("output", s, t), key="output_chart")
    _output_row(s, t)
    csv_download(t.to_frames(s.query_labels, s.key_labels)["output"], "output", key="csv_output")
    show_code(attention)


@st.fragment
def _output_row(s: Scenario, t: AttentionTrace) -> None:
    """How one query's output is built; choosing the row reruns only this part."""
    ql, kl = s.query_labels, s.key_labels
    row = _pick_row(ql, "output_row")
    title = f"Output for {ql[row]}: Σ weight × value"
    plot(fig.contributions_bar(t.weights[row], t.V, kl, title), key="output_bars")
    st.dataframe(output_table(t, row, kl), width="content")
    if s.mode == "embeddings":
        _residual(s, t, row)


def output_table(t: AttentionTrace, row: int, key_labels: list[str]) -> pd.DataFrame:
    """weight_j, v_j and weight_j * v_j for one query, with their sum (the output row)."""
    parts = t.weights[row][:, np.newaxis] * t.V  # (n_k, 1) * (n_k, d_v) -> (n_k, d_v)
    frame = pd.DataFrame(
        {
            "weight": t.weights[row],
            "value v": [_vec(v) for v in t.V],
            "weight × v": [_vec(p) for p in parts],
        },
        index=key_labels,
    )
    frame.loc["output (sum)"] = [t.weights[row].sum(), "", _vec(t.output[row])]
    return frame


def _vec(v: np.ndarray) -> str:
    return "[" + ", ".join(f"{x:.4f}" for x in v) + "]"


def _residual(s: Scenario, t: AttentionTrace, row: int) -> None:
    st.subheader("The residual view: x + output")
    if t.output.shape[1] != s.X.shape[1]:
        st.info(
            f"Here d_v = {t.output.shape[1]} but d_model = {s.X.shape[1]}, so the output cannot "
            "be added to the embedding directly. A Transformer first maps it back to d_model "
            "with an output projection W_O. Set d_v = d_model on the Inputs page to see it."
        )
        return
    x, o = s.X[row], t.output[row]
    frame = pd.DataFrame(
        {"embedding x": x, "attention output": o, "x + output": x + o},
        index=fig.vector_columns(x.size, "e"),
    )
    st.dataframe(frame, width="content")
    st.caption("The token keeps its own embedding and adds what it gathered from the others.")
