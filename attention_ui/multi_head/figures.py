"""Figures of the multi-head lab: pure functions from a MultiHeadTrace's arrays (no Streamlit).

Head h (0-based) owns columns h·d_head to (h+1)·d_head of W_q, W_k, W_v and of the
concatenation; every figure here colours or names those columns by head.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from attention_core.types import BoolArray, FloatArray
from attention_ui.draw import figures as fig
from attention_ui.draw.text import shape, vector_columns

# Light tints of the Okabe-Ito colours: the weights printed on them stay readable.
HEAD_COLOURS = ("#9CC7E6", "#F4CF85", "#8FD3BE", "#F0AE85", "#E6B3D0", "#BFE3F7", "#F7F0A1",
                "#BDBDBD")  # fmt: skip


def plain_texts(M: FloatArray) -> list[list[str]]:
    """Cell texts with 2 decimals, never in e-notation: a weight of 3e-7 reads 0.00 here."""
    return [[f"{x + 0.0:.2f}".replace("-", "−") for x in row] for row in np.round(M, 2)]


def _compact(figure: go.Figure, M: FloatArray, font: int = 12) -> go.Figure:
    """Plain 2-decimal cell texts in a smaller font: these figures sit three or four abreast."""
    masked = figure.data[0].text  # keeps −∞ where a mask forbids a cell
    texts = [[m if m == fig.MASKED_TEXT else t for t, m in zip(r, mr, strict=True)]
             for r, mr in zip(plain_texts(M), masked, strict=True)]  # fmt: skip
    heat = figure.data[0]  # set directly: update_traces' selector walk costs ~1 ms a figure
    heat.text, heat.textfont.size = texts, font
    return figure


def head_colour(h: int) -> str:
    return HEAD_COLOURS[h % len(HEAD_COLOURS)]


def head_columns(n_heads: int, d_head: int) -> list[str]:
    """Column labels of the concatenation: 'h1·1', 'h1·2', 'h2·1', ... (1-based)."""
    return [f"h{h + 1}·{m + 1}" for h in range(n_heads) for m in range(d_head)]


def head_index(width: int, n_heads: int) -> np.ndarray:
    """Which head (0-based) each of ``width`` columns belongs to: (width,)."""
    return np.arange(width) // (width // n_heads)


def split_figure(name: str, W: FloatArray, n_heads: int) -> go.Figure:
    """W_Q, W_K or W_V (d_model, n_heads·d_head), each column coloured by the head using it.

    The cells print the weights; the columns are labelled head·dimension (h2·1 is head 2's
    first column), so the figure reads without a legend, also on its own on a phone.
    """
    width = W.shape[1]
    heads = np.broadcast_to(head_index(width, n_heads), W.shape)  # (d_model, width)
    colours = [head_colour(h) for h in range(n_heads)]
    scale = [[pos, c] for h, c in enumerate(colours) for pos in (h / n_heads, (h + 1) / n_heads)]
    heat = go.Heatmap(
        z=heads,
        x=head_columns(n_heads, width // n_heads),
        y=vector_columns(W.shape[0], "e"),
        text=plain_texts(W),
        texttemplate="%{text}" if max(W.shape) <= fig.MAX_PRINTED else "",
        textfont={"size": 12},
        hovertemplate="row %{y}, column %{x}: %{text}<extra></extra>",
        colorscale=scale,
        zmin=-0.5,
        zmax=n_heads - 0.5,
        showscale=False,
        xgap=2,
        ygap=2,
    )
    layout = dict(
        title={"text": f"W_{name} ({shape(W)})", "x": 0.0},
        xaxis={"side": "top", "type": "category"},
        yaxis={"autorange": "reversed", "type": "category", "title": {"text": "embedding dim"}},
        height=int(np.clip(130 + 34 * W.shape[0], 220, 700)),
        font=fig.FONT,
        # margins computed, not automargin (which draws the figure twice: figures.heatmap)
        margin={"l": fig.side_room(heat.y, fig.FONT["size"]), "r": 10, "t": 90, "b": 10},
        plot_bgcolor="#FFFFFF",
    )
    return go.Figure(data=[heat], layout=layout)  # one call: update_layout costs ~4 ms more


def head_weights_figure(
    weights: FloatArray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    h: int,
    d_head: int,
    mask: BoolArray | None = None,
) -> go.Figure:
    """One small multiple: head ``h``'s weights (n_q, n_k) on the shared 0..1 scale."""
    figure = fig.heatmap(
        weights,
        row_labels,
        col_labels,
        f"Head {h + 1} (d_head = {d_head})",
        signed=False,
        mask=mask,
        showscale=False,
        zrange=(0.0, 1.0),
        fixed=True,  # 0.00, never 2.69e−04; the exact weight on hover
    )
    n = len(row_labels)
    figure.layout.height = int(np.clip(110 + 40 * n, 220, 700))
    # Plotly no longer widens the margins itself (figures.heatmap computes them): keep the
    # left and top ones that fit the labels and the title, narrow only the others.
    figure.layout.margin = {"l": figure.layout.margin.l, "r": 6, "t": figure.layout.margin.t,
                            "b": 6}  # fmt: skip
    return _compact(figure, weights, 13 if n <= 6 else 11)


def concat_figure(concat: FloatArray, row_labels: Sequence[str], n_heads: int) -> go.Figure:
    """Concat(head 1, ..., head n): (n_q, n_heads·d_head), a line between heads' columns."""
    d_head = concat.shape[1] // n_heads
    figure = fig.heatmap(
        concat,
        row_labels,
        head_columns(n_heads, d_head),
        f"Concat ({shape(concat)})",
        row_title="token",
        col_title="",
        showscale=False,
    )
    _compact(figure, concat)
    for h in range(1, n_heads):  # a border where one head's columns end
        x = h * d_head - 0.5
        figure.add_shape(type="line", x0=x, x1=x, y0=-0.5, y1=concat.shape[0] - 0.5,
                         line={"color": "#000000", "width": 3})  # fmt: skip
    return figure


def matrix(
    M: FloatArray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    title: str,
    row_title: str = "token",
) -> go.Figure:
    """One factor of an equation row (concat · W_O = output, X + output): no colour bar."""
    figure = fig.heatmap(M, row_labels, col_labels, f"{title} ({shape(M)})",
                         row_title=row_title, col_title="", showscale=False)  # fmt: skip
    return _compact(figure, M)


def output_figures(
    concat: FloatArray, W_o: FloatArray, output: FloatArray, labels: Sequence[str], n_heads: int
) -> list[go.Figure]:
    """Concat (n, n_heads·d_head) · W_O (n_heads·d_head, d_model) = output (n, d_model)."""
    heads = head_columns(n_heads, concat.shape[1] // n_heads)
    emb = vector_columns(W_o.shape[1], "e")
    return [
        concat_figure(concat, labels, n_heads),
        matrix(W_o, heads, emb, "W_O", row_title="head·dimension"),
        matrix(output, labels, emb, "Output"),
    ]


def residual_figures(X: FloatArray, output: FloatArray, labels: Sequence[str]) -> list[go.Figure]:
    """X (n, d_model) + output (n, d_model) = X + MultiHead(X): what the next layer reads."""
    emb = vector_columns(X.shape[1], "e")
    return [
        matrix(X, labels, emb, "X"),
        matrix(output, labels, emb, "Output"),
        matrix(X + output, labels, emb, "X + output"),  # (n, d_model) + (n, d_model)
    ]
