"""Figures of the multi-head lab: pure functions from a MultiHeadTrace's arrays (no Streamlit).

Head h (0-based) owns columns h·d_head to (h+1)·d_head of W_q, W_k, W_v and of the
concatenation; every figure here colours or names those columns by head.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attention_core.types import BoolArray, FloatArray
from attention_ui import figures as fig
from attention_ui.text import shape, vector_columns

# Light tints of the Okabe-Ito colours: the weights printed on them stay readable.
HEAD_COLOURS = ("#9CC7E6", "#F4CF85", "#8FD3BE", "#F0AE85", "#E6B3D0", "#BFE3F7", "#F7F0A1",
                "#BDBDBD")  # fmt: skip


def head_colour(h: int) -> str:
    return HEAD_COLOURS[h % len(HEAD_COLOURS)]


def head_columns(n_heads: int, d_head: int) -> list[str]:
    """Column labels of the concatenation: 'h1·1', 'h1·2', 'h2·1', ... (1-based)."""
    return [f"h{h + 1}·{m + 1}" for h in range(n_heads) for m in range(d_head)]


def head_index(width: int, n_heads: int) -> np.ndarray:
    """Which head (0-based) each of ``width`` columns belongs to: (width,)."""
    return np.arange(width) // (width // n_heads)


def split_figure(W: dict[str, FloatArray], n_heads: int) -> go.Figure:
    """W_Q, W_K, W_V side by side, each column coloured by the head that uses it.

    W maps "Q", "K", "V" to (d_model, n_heads·d_head) matrices; the cells print the weights.
    """
    names = list(W)
    titles = [f"W_{name} ({shape(M)})" for name, M in W.items()]
    figure = make_subplots(1, len(names), subplot_titles=titles, horizontal_spacing=0.06)
    colours = [head_colour(h) for h in range(n_heads)]
    scale = [[pos, c] for h, c in enumerate(colours) for pos in (h / n_heads, (h + 1) / n_heads)]
    for col, name in enumerate(names, start=1):
        M = W[name]  # (d_model, n_heads·d_head)
        heads = np.broadcast_to(head_index(M.shape[1], n_heads), M.shape)  # (d_model, width)
        figure.add_trace(
            go.Heatmap(
                z=heads,
                x=vector_columns(M.shape[1], "c"),
                y=vector_columns(M.shape[0], "e"),
                text=fig.cell_texts(M, 2),
                texttemplate="%{text}" if max(M.shape) <= fig.MAX_PRINTED else "",
                customdata=heads + 1,
                hovertemplate="row %{y}, column %{x}: %{text}<br>head %{customdata}<extra></extra>",
                colorscale=scale,
                zmin=-0.5,
                zmax=n_heads - 0.5,
                showscale=False,
                xgap=2,
                ygap=2,
            ),
            row=1,
            col=col,
        )
    for h, colour in enumerate(colours):  # a legend entry per head
        figure.add_scatter(x=[None], y=[None], mode="markers", name=f"head {h + 1}",
                           marker={"symbol": "square", "size": 14, "color": colour})  # fmt: skip
    figure.update_annotations(yshift=28)  # the subplot titles, above the column labels
    d_model = next(iter(W.values())).shape[0]
    figure.update_yaxes(autorange="reversed", type="category")
    figure.update_xaxes(side="top", type="category")
    figure.update_layout(
        title={"text": "How W_Q, W_K and W_V split into heads (colour = head)", "x": 0.0},
        height=int(np.clip(150 + 34 * d_model, 250, 720)),
        font=fig.FONT,
        margin={"l": 40, "r": 10, "t": 120, "b": 10},
        legend={"orientation": "h", "y": -0.05, "yanchor": "top"},
        plot_bgcolor="#FFFFFF",
    )
    return figure


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
    )
    n = len(row_labels)
    figure.update_layout(
        height=int(np.clip(110 + 40 * n, 220, 700)),
        title={"font": {"color": "#000000"}},
        margin={"l": 6, "r": 6, "t": 56, "b": 6},
    )
    figure.update_traces(textfont={"size": 13 if n <= 6 else 11})
    return figure


def concat_figure(concat: FloatArray, row_labels: Sequence[str], n_heads: int) -> go.Figure:
    """Concat(head 1, ..., head n): (n_q, n_heads·d_head), a line between heads' columns."""
    d_head = concat.shape[1] // n_heads
    figure = fig.heatmap(
        concat,
        row_labels,
        head_columns(n_heads, d_head),
        f"Concat of the heads ({shape(concat)})",
        row_title="token",
        col_title="head·dimension",
        showscale=False,
    )
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
    return fig.heatmap(M, row_labels, col_labels, f"{title} ({shape(M)})",
                       row_title=row_title, col_title="", showscale=False)  # fmt: skip


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
