"""The figures of the stage views: pure functions from a trace and its labels (no Streamlit).

The ``*_summary`` functions are each stage's one summary figure (the stage registry,
``stages``, says which is whose): the walkthrough pages, presentation mode and the labs'
heads all draw them. The data comes from ``stage_data``; the drawing from ``figures``.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention_core import AttentionTrace
from attention_ui.draw import figures as fig
from attention_ui.draw.text import shape, vector_columns
from attention_ui.i18n import _
from attention_ui.stages.data import Labels, strongest_cell

# Which letter the columns of each matrix carry: d (query/key dims), v (value dims), e (embedding).
COLUMN_PREFIX = {"Q": "d", "K": "d", "V": "v", "X": "e"}


def matrix_figure(name: str, M: np.ndarray, row_labels: list[str], **options: object) -> go.Figure:
    """One of Q, K, V (or X) with a row per token and a column per dimension."""
    options = {"row_title": _("token"), "col_title": _("dimension"), **options}
    columns = vector_columns(M.shape[1], COLUMN_PREFIX.get(name, "d"))
    return fig.heatmap(M, row_labels, columns, f"{name} ({shape(M)})", **options)


def qkv_figures(labels: Labels, t: AttentionTrace) -> dict[str, go.Figure]:
    """Q, K and V as given to attention: queries label Q's rows, keys label K's and V's."""
    rows = {"Q": labels.queries, "K": labels.keys, "V": labels.keys}
    return {name: matrix_figure(name, getattr(t, name), rows[name]) for name in ("Q", "K", "V")}


def projection_figures(
    X: np.ndarray, W: np.ndarray, R: np.ndarray, name: str, labels: Labels
) -> list[go.Figure]:
    """X (n, d_model) · W (d_model, d) = R (n, d) as three heatmaps, left to right."""
    emb = vector_columns(X.shape[1], "e")
    out = vector_columns(R.shape[1], COLUMN_PREFIX[name])
    factors = (
        (X, labels.keys, emb, "X", _("token")),
        (W, emb, out, f"W_{name}", _("embedding dim")),
        (R, labels.keys, out, name, _("token")),
    )
    return [
        fig.heatmap(
            M,
            rows,
            cols,
            f"{label} ({shape(M)})",
            row_title=row_title,
            col_title="",
            showscale=False,
            held=True,  # a third of a page: scrolled, never squeezed under its numbers
        )
        for M, rows, cols, label, row_title in factors
    ]


def scores_figure(labels: Labels, t: AttentionTrace, pick: tuple[int, int] | None = None,
                  clickable: bool = False) -> go.Figure:  # fmt: skip
    """Q Kᵀ with one cell outlined (the one whose breakdown is shown)."""
    return fig.heatmap(t.scores, labels.queries, labels.keys,
                       _("Raw scores Q Kᵀ ({shape})").format(shape=shape(t.scores)),
                       highlight=pick, colorbar_title=_("score"), clickable=clickable)  # fmt: skip


def projections_summary(labels: Labels, t: AttentionTrace) -> go.Figure:
    return matrix_figure("Q", t.Q, labels.queries)


def scaling_summary(labels: Labels, t: AttentionTrace, title: str = "") -> go.Figure:
    title = title or _("Scaled scores × {scale}").format(scale=f"{t.scale:.4g}")
    return fig.heatmap(t.scaled_scores, labels.queries, labels.keys, title)


def scaling_pair(labels: Labels, t: AttentionTrace) -> list[go.Figure]:
    """Raw Q Kᵀ and the scaled scores side by side on ONE colour scale.

    With a scale each, both grids would look the same colour for colour; on the shared one
    (±the larger grid's largest |score|) the scaled grid is visibly paler, which is the point.
    """
    bound = shared_bound(t.scores, t.scaled_scores)
    grids = ((t.scores, _("Raw Q Kᵀ")), (t.scaled_scores, f"Q Kᵀ × {t.scale:.4g}"))
    return [fig.heatmap(M, labels.queries, labels.keys, title, zrange=(-bound, bound))
            for M, title in grids]  # fmt: skip


def shared_bound(*grids: np.ndarray) -> float:
    """The largest finite |value| over every grid (1 when there is none)."""
    finite = [np.abs(g[np.isfinite(g)]) for g in grids]
    return max((float(f.max()) for f in finite if f.size), default=1.0) or 1.0


def mask_summary(labels: Labels, t: AttentionTrace, title: str = "") -> go.Figure:
    title = title or _("Masked scores")
    return fig.heatmap(t.masked_scores, labels.queries, labels.keys, title, mask=t.mask)


def softmax_summary(labels: Labels, t: AttentionTrace) -> go.Figure:
    return fig.weights_heatmap(t.weights, labels.queries, labels.keys, _("Attention weights"),
                               mask=t.mask)  # fmt: skip


def output_summary(labels: Labels, t: AttentionTrace) -> go.Figure:
    title = _("Output weights · V ({shape})").format(shape=shape(t.output))
    columns = vector_columns(t.output.shape[1], "out")
    return fig.heatmap(t.output, labels.queries, columns, title, col_title=_("dimension"))


def strongest_pair(labels: Labels, t: AttentionTrace) -> tuple[str, str, float]:
    """The query and key labels of the largest raw score, and the score."""
    i, j = strongest_cell(t)
    return labels.queries[i], labels.keys[j], float(t.scores[i, j])
