"""Figures of the multi-head lab: pure functions from a MultiHeadTrace's arrays (no Streamlit).

Head h (0-based) owns columns h·d_head to (h+1)·d_head of W_q, W_k, W_v and of the
concatenation; every figure here colours or names those columns by head. Each section of
the page is one figure of several panels (``grid``): one chart to update, not one per head.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from attention_core.types import BoolArray, FloatArray
from attention_ui.draw import figures as fig
from attention_ui.draw.describe import Alternative
from attention_ui.draw.phone import PHONE_FONT
from attention_ui.draw.text import shape, vector_columns
from attention_ui.i18n import _
from attention_ui.multi_head import grid

# Light tints of the Okabe-Ito colours: the weights printed on them stay readable.
HEAD_COLOURS = ("#9CC7E6", "#F4CF85", "#8FD3BE", "#F0AE85", "#E6B3D0", "#BFE3F7", "#F7F0A1",
                "#BDBDBD")  # fmt: skip


def plain_texts(M: FloatArray) -> list[list[str]]:
    """Cell texts with 2 decimals, never in e-notation: a weight of 3e-7 reads 0.00 here."""
    return [[f"{x + 0.0:.2f}".replace("-", "−") for x in row] for row in np.round(M, 2)]


def head_colour(h: int) -> str:
    return HEAD_COLOURS[h % len(HEAD_COLOURS)]


def head_columns(n_heads: int, d_head: int) -> list[str]:
    """Column labels of the concatenation: 'h1·1', 'h1·2', 'h2·1', ... (1-based)."""
    return [f"h{h + 1}·{m + 1}" for h in range(n_heads) for m in range(d_head)]


def head_index(width: int, n_heads: int) -> np.ndarray:
    """Which head (0-based) each of ``width`` columns belongs to: (width,)."""
    return np.arange(width) // (width // n_heads)


def _layout(
    panels: Sequence[grid.Panel],
    phone: bool,
    row_px: int,
    font: int = 13,
    ops: Sequence[str] = (),
    share_rows: bool = False,
) -> grid.Layout:
    """Phones stack the panels (one per row, fixed cells, scrolled sideways when wide);
    desktops set as many abreast as keep every cell MIN_CELL wide at DESKTOP_WIDTH."""
    if phone:
        return grid.Layout(grid.PHONE_WIDTH, True, 1, row_px - 4, PHONE_FONT, ops, share_rows)
    fit = grid.fit_per_row(panels, grid.DESKTOP_WIDTH, share_rows, bool(ops))
    return grid.Layout(grid.DESKTOP_WIDTH, False, fit, row_px, font, ops, share_rows)


def _figure(panels: list[grid.Panel], title: str, layout: grid.Layout) -> go.Figure:
    """The grid, with its text alternative kept on it (``alternative_of``)."""
    figure = grid.grid_figure(panels, fig.safe(title), layout)
    figure._alternative = grid.alternative(panels, title)
    return figure


def alternative_of(figure: go.Figure) -> Alternative:
    """The text alternative and Numbers table a figure of this module was built with."""
    return figure._alternative


def split_figure(
    Ws: dict[str, FloatArray],
    n_heads: int,
    phone: bool = False,
    title: str | None = None,
) -> go.Figure:
    """W_Q, W_K and W_V (d_model, n_heads·d_head) as one figure, each column coloured by the
    head using it.

    The cells print the weights; the columns are labelled head·dimension (h2·1 is head 2's
    first column), so the figure reads without a legend, also on its own on a phone.
    ``title``: "The split: W_Q, W_K, W_V" unless given (in the session's language).
    """
    title = _("The split: W_Q, W_K, W_V") if title is None else title
    where = _("row") + " %{y}, " + _("column") + " %{x}: %{text}<extra></extra>"
    panels = []
    for name, W in Ws.items():
        width = W.shape[1]
        heads = np.broadcast_to(head_index(width, n_heads), W.shape)  # (d_model, width)
        colours = [head_colour(h) for h in range(n_heads)]
        scale = [[pos, c] for h, c in enumerate(colours)
                 for pos in (h / n_heads, (h + 1) / n_heads)]  # fmt: skip
        panels.append(grid.Panel(
            z=heads, text=plain_texts(W), rows=vector_columns(W.shape[0], "e"),
            cols=head_columns(n_heads, width // n_heads), title=f"W_{name} ({shape(W)})",
            scale={"colorscale": scale, "zmin": -0.5, "zmax": n_heads - 0.5},
            hover=f"W_{name}: {where}", row_title=_("embedding dim"),
        ))  # fmt: skip
    layout = _layout(panels, phone, 34, share_rows=True)
    return _figure(panels, title, layout)


def heads_figure(
    weights: Sequence[FloatArray],
    masks: Sequence[BoolArray | None],
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    d_head: int,
    phone: bool = False,
) -> go.Figure:
    """Every head's weights (n_q, n_k) as small multiples of one figure, on one 0..1 scale.

    Cells print two decimals always (0.00, never 2.69e−04); the exact weight is on hover.
    """
    rows, cols = fig.safe_labels(row_labels), fig.safe_labels(col_labels)
    panels = []
    for h, (w, mask) in enumerate(zip(weights, masks, strict=True)):
        z = np.where(mask, w, np.nan) if mask is not None else np.asarray(w, dtype=float)
        panels.append(grid.Panel(
            z=z, text=fig.cell_texts(w, 2, mask, fixed=True), rows=rows, cols=cols,
            title=_("Head {h}").format(h=h + 1), customdata=fig.exact_texts(w, mask),
            scale={"colorscale": fig.SEQUENTIAL, "zmin": 0.0, "zmax": 1.0},
            hover=_("Head {h}").format(h=h + 1) + f" (d_head = {d_head}): " + _("query")
            + " %{y} → " + _("key") + " %{x}<br>%{customdata}<extra></extra>",
            row_title=_("query"), col_title=_("key"),
        ))  # fmt: skip
    layout = _layout(panels, phone, 40, share_rows=True)
    return _figure(panels, _("Every head's weights"), layout)


def _matrix(
    M: FloatArray,
    rows: Sequence[str],
    cols: Sequence[str],
    title: str,
    row_title: str | None = None,
    borders: Sequence[float] = (),
) -> grid.Panel:
    """One factor of an equation row, on its own diverging scale centred on 0 (its rows:
    "token" unless ``row_title`` says otherwise)."""
    z = np.asarray(M, dtype=float)
    row_title = _("token") if row_title is None else row_title
    return grid.Panel(
        z=z, text=plain_texts(M), rows=fig.safe_labels(rows), cols=list(cols),
        title=f"{title} ({shape(M)})", scale=fig._scale(z, True, None),
        hover=f"{title}: {row_title} %{{y}}, " + _("column") + " %{x}: %{text}<extra></extra>",
        row_title=row_title, borders=borders,
    )  # fmt: skip


def output_figure(
    concat: FloatArray,
    W_o: FloatArray,
    output: FloatArray,
    labels: Sequence[str],
    n_heads: int,
    phone: bool = False,
) -> go.Figure:
    """Concat (n, n_heads·d_head) · W_O (n_heads·d_head, d_model) = output (n, d_model), one
    figure; a line between two heads' columns of the concatenation."""
    d_head = concat.shape[1] // n_heads
    heads, emb = head_columns(n_heads, d_head), vector_columns(W_o.shape[1], "e")
    borders = [h * d_head - 0.5 for h in range(1, n_heads)]
    concat_name, output_name = _("Concat"), _("Output")
    panels = [_matrix(concat, labels, heads, concat_name, borders=borders),
              _matrix(W_o, heads, emb, "W_O", row_title=_("head·dimension")),
              _matrix(output, labels, emb, output_name)]  # fmt: skip
    layout = _layout(panels, phone, 34, ops=("×", "="))
    return _figure(panels, f"{concat_name} × W_O = {output_name}", layout)


def residual_figure(
    X: FloatArray, output: FloatArray, labels: Sequence[str], phone: bool = False
) -> go.Figure:
    """X (n, d_model) + output (n, d_model) = X + MultiHead(X): what the next layer reads."""
    emb = vector_columns(X.shape[1], "e")
    panels = [
        _matrix(X, labels, emb, "X"),
        _matrix(output, labels, emb, _("Output")),
        _matrix(X + output, labels, emb, "X + " + _("output")),
    ]  # (n, d_model) + (n, d_model)
    layout = _layout(panels, phone, 34, ops=("+", "="), share_rows=True)
    return _figure(panels, "X + " + _("Output"), layout)
