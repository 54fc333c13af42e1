"""Plotly figures for every stage: pure functions from arrays and labels to go.Figure.

Nothing here reads Streamlit state, so tests can inspect the figures without a browser.
go.Heatmap is used rather than plotly.express: px.imshow costs ~54 ms a call, go ~2 ms.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from attention_core.types import BoolArray, FloatArray
from attention_ui.draw import contrast
from attention_ui.draw.measure import CHAR, text_px
from attention_ui.draw.text import fixed as fixed_digits
from attention_ui.draw.text import num, vector_columns
from attention_ui.draw.widths import COL_PX, NARROW_PX, printed_px
from attention_ui.i18n import _

# Colour-blind-safe scales: blue-white-red centred on 0 for signed numbers,
# viridis for weights in [0, 1]. Okabe-Ito colours for lines and bars.
DIVERGING = "RdBu"
SEQUENTIAL = "Viridis"
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
MASKED_TEXT = "−∞"
MASKED_BG = "#BDBDBD"
INK = "#000000"  # outlines, markers and guide lines; ``themed`` swaps it for the theme's ink
FONT = {"family": "sans-serif", "size": 14}


@dataclass(frozen=True)
class Palette:
    """What a figure needs to know about the page it sits on (Streamlit's light or dark theme)."""

    name: str
    ink: str  # text, axes, outlines, the output diamond: Streamlit's own text colour
    masked: str  # masked cells and the gaps between cells; −∞ is written in its contrast
    legend_bg: str  # a legend over the plot, translucent
    accent: str  # the formula's highlighted part: at least 4.5:1 on the theme's background


# Accents: Okabe-Ito's vermillion (#D55E00, 3.9:1 on white) darkened to 5.5:1 on white and
# lightened to 7.8:1 on the dark theme's #171614 (contrast.ratio; tests/figures/test_contrast).
LIGHT = Palette("light", "#31333F", MASKED_BG, "rgba(255,255,255,0.8)", "#B34700")
DARK = Palette("dark", "#FAFAFA", "#5C5F6B", "rgba(14,17,23,0.8)", "#FF8C42")
CLEAR = "rgba(0,0,0,0)"
GRID = "rgba(128,128,128,0.3)"  # grid and zero lines: faint on white and on near-black
PALETTES = {p.name: p for p in (LIGHT, DARK)}


def safe(text: str) -> str:
    """Learner text made inert for Plotly, which reads <b>, <a href> and the like as markup."""
    return html.escape(str(text), quote=False)


def safe_labels(labels: Sequence[str]) -> list[str]:
    return [safe(label) for label in labels]


def cell_texts(
    M: FloatArray, digits: int = 2, mask: BoolArray | None = None, fixed: bool = False
) -> list[list[str]]:
    """The numbers printed in heatmap cells; masked cells read −∞.

    ``fixed``: always ``digits`` decimals (weights: 0.000 rather than 2.687e−04, which would
    spill over its cell); the exact value is then in the cell's hover (``exact_texts``).
    """
    return _masked([[_fmt(x, digits, fixed) for x in row] for row in np.atleast_2d(M)], mask)


def exact_texts(M: FloatArray, mask: BoolArray | None = None) -> list[list[str]]:
    """Each cell's value to 6 significant digits (what a hover says); masked cells −∞."""
    return _masked([[num(float(x), 6) for x in row] for row in np.atleast_2d(M)], mask)


def _masked(texts: list[list[str]], mask: BoolArray | None) -> list[list[str]]:
    if mask is not None:
        for i, j in zip(*np.nonzero(~mask), strict=True):
            texts[i][j] = MASKED_TEXT
    return texts


def _fmt(x: float, digits: int, fixed: bool = False) -> str:
    if not np.isfinite(x):
        return MASKED_TEXT if x < 0 else "∞"
    if not fixed and x != 0 and abs(x) < 0.5 * 10 ** (-digits):  # 0.00 would hide it
        return f"{x:.{max(digits, 1)}e}".replace("-", "−")
    return fixed_digits(x, digits)  # from BIG on as a power of ten, even in fixed mode


def heatmap(
    M: FloatArray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    title: str,
    **options: object,
) -> go.Figure:
    """A labelled matrix heatmap with every value printed in its cell (see ``_heatmap``).

    Labels and title may hold learner text (tokens), so they are escaped here, once.
    """
    return _heatmap(M, safe_labels(row_labels), safe_labels(col_labels), safe(title), **options)


def _heatmap(
    M: FloatArray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    title: str,
    *,
    signed: bool = True,
    mask: BoolArray | None = None,
    row_title: str | None = None,
    col_title: str | None = None,
    digits: int = 2,
    highlight: tuple[int, int] | None = None,
    colorbar_title: str = "",
    zrange: tuple[float, float] | None = None,
    clickable: bool = False,
    showscale: bool = True,
    annotations: Sequence[dict] = (),
    right_margin: int = 0,
    fixed: bool = False,
    held: bool = False,
) -> go.Figure:
    """The heatmap itself; labels and title arrive already escaped.

    M (rows, cols). ``signed``: diverging scale centred on 0, else viridis on [0, 1].
    ``mask`` (rows, cols), True = may attend: forbidden cells are left grey and read −∞.
    ``highlight`` (i, j) outlines one cell (the one whose breakdown is shown).
    ``zrange``: the colour scale's ends instead of the data's own (signed: ±the larger end),
    so that figures drawn side by side compare colour for colour.
    ``clickable``: the hover says a click breaks the cell down; the click itself is heard by
    ``views/cell_pick`` on the heatmap (no marker per cell: see there).
    ``fixed``: cells print ``digits`` decimals always, and the hover adds the exact value.
    ``held``: never drawn narrower than its numbers need, even under a phone's width (a
    third of a page, beside two others): the least width goes in ``meta["min_px"]`` always.
    """
    row_title = _("query") if row_title is None else row_title  # the axes' default names
    col_title = _("key") if col_title is None else col_title
    M = np.atleast_2d(np.asarray(M, dtype=float))
    cell = cell_px(M.shape)
    square = cell >= ROW_PX
    z = M.copy()
    z[~np.isfinite(z)] = np.nan
    if mask is not None:
        z = np.where(mask, z, np.nan)  # masked cells: a gap showing the grey background
    scale = _scale(z, signed, zrange)
    texts = cell_texts(M, digits, mask, fixed)
    exact = {"customdata": exact_texts(M, mask)} if fixed else {}
    value = "%{customdata}" if fixed else "%{text}"
    data: list = [
        go.Heatmap(
            z=z,
            x=list(col_labels),
            y=list(row_labels),
            text=texts,
            texttemplate="%{text}" if (printed := max(M.shape) <= MAX_PRINTED) else "",
            textfont={"size": _cell_font(M.shape)},
            hovertemplate=f"{row_title} %{{y}} → {col_title} %{{x}}<br>{value}"
            + ("<br>" + _("click to break it down") if clickable else "")
            + "<extra></extra>",
            **exact,
            colorbar={"title": {"text": colorbar_title}, "thickness": 14},
            showscale=(showscale := showscale and M.shape[0] * max(cell, ROW_PX) >= BAR_PX // 2),
            xgap=2,
            ygap=2,
            **scale,
        )
    ]
    # Square cells, unless they would be too short for a row's label (a 13 x 64 grid in half
    # a page kept 4 of its 13 tokens): then rows of ROW_PX, columns as wide as the page gives
    angle, top = top_room(col_labels, FONT["size"], cell if square else None)
    left, right = side_room(row_labels, FONT["size"]), 10 + right_margin
    bar = COLORBAR if showscale else 0
    side = cell if square else ROW_PX
    width = grid_width(title, left, right + bar, M.shape[1] * side)
    # The width under which its labels or printed numbers would run together: a narrower
    # page scrolls it sideways (views.chart.sideways) rather than squeeze it.
    column = max(COL_PX, printed_px(texts, _cell_font(M.shape)) if printed else 0)
    least_px = grid_width(title, left, right + bar, M.shape[1] * column)
    least = {"min_px": least_px} if held or least_px > NARROW_PX else {}  # else any page fits
    if not square and M.shape[1] * side > GRID_PX:
        width = None  # as wide as the page: the columns get what it gives, COL_PX at least
    # Margins computed here, not by Plotly's automargin: that measures every label after
    # drawing and then draws the figure again (a third of Plotly's time in the browser on
    # a multi-head head count change: CDP profile, bench/profile/browser_profile.py).
    layout = {
        "title": TITLE | {"text": title},
        "xaxis": {
            "title": {"text": col_title, "standoff": 4},
            "side": "top",
            "type": "category",
            "tickangle": angle,
            "range": [-0.5, M.shape[1] - 0.5],
        }
        | (SQUARE_X if square else {})
        | ({} if square else {"tickmode": "linear", "dtick": 1}),  # every key keeps its label
        "yaxis": {
            "title": {"text": row_title, "standoff": 6},
            "type": "category",
            "range": [M.shape[0] - 0.5, -0.5],
        }  # first row on top, as in a matrix
        | (SQUARE_Y if square else {}),
        "plot_bgcolor": MASKED_BG,
        "height": top + 10 + max(M.shape[0] * side, BAR_PX if showscale else 0),
        "width": width,
        # a title wider than the grid: the room is on the right, so the cells stay as asked
        "margin": {
            "l": left,
            "t": top,
            "b": 10,
            "r": right if width is None else width - left - bar - M.shape[1] * side,
        },
        "font": FONT,
        "annotations": annotations,
        "shapes": [] if highlight is None else [_outline(*highlight)],
        "meta": least,
    }
    # One go.Figure(data, layout) call: update_layout / add_shape afterwards cost
    # ~25 ms a heatmap in plotly's path parsing (9 heatmaps made Projections 100 ms).
    return go.Figure(data=data, layout=layout)


def _outline(i: int, j: int) -> dict:
    """A thick frame around cell (i, j)."""
    return {"type": "rect", "x0": j - 0.5, "x1": j + 0.5, "y0": i - 0.5, "y1": i + 0.5,
            "line": {"color": INK, "width": 4}, "xref": "x", "yref": "y"}  # fmt: skip


def _scale(z: FloatArray, signed: bool, zrange: tuple[float, float] | None) -> dict:
    if not signed:
        lo, hi = zrange or (0.0, 1.0)
        return {"colorscale": SEQUENTIAL, "zmin": lo, "zmax": hi}
    finite = z[np.isfinite(z)]
    if zrange is not None:  # a scale shared with another figure: ±the larger end
        bound = max(abs(zrange[0]), abs(zrange[1]))
    else:
        bound = float(np.max(np.abs(finite))) if finite.size else 1.0
    bound = bound or 1.0
    return {
        "colorscale": DIVERGING,
        "reversescale": True,
        "zmid": 0.0,
        "zmin": -bound,
        "zmax": bound,
    }


MAX_PRINTED = 12  # above this many rows or columns, numbers show on hover (or a tap) only
# A heatmap's title has the top of the figure to itself: the key labels and their axis
# title ("key") sit below it in a margin made tall enough for them (``top_room``).
TITLE = {"x": 0.0, "xanchor": "left", "yref": "container", "y": 1.0, "yanchor": "top",
         "pad": {"t": 8}}  # fmt: skip
TITLE_ROOM = 34  # px: the title's line at the top of a heatmap


def prints_numbers(figure: go.Figure) -> bool:
    """Whether every heatmap of ``figure`` prints its numbers in its cells (a grid over
    MAX_PRINTED, or one fitted to a phone too narrow for them, shows them on hover or a tap)."""
    return all(trace.texttemplate for trace in figure.data if trace.type == "heatmap")


def top_room(labels: Sequence[str], font: int, cell_px: float | None) -> tuple[int, int]:
    """The key labels' angle and the heatmap's top margin (px) that fits the title above them.

    ``cell_px``: the width of a column, None when unknown (many columns): labels wider than
    a column are turned upright rather than left for Plotly to turn by an unknown angle.
    """
    width = max((text_px(label, font) for label in labels), default=CHAR * font)
    upright = cell_px is None or width > cell_px - 4
    label_room = width + 6 if upright else font + 6
    return (-90 if upright else 0), int(TITLE_ROOM + font + 10 + label_room)


def side_room(labels: Sequence[str], font: int) -> int:
    """The left margin (px) that fits the row labels and the axis title beside them."""
    width = max((text_px(label, font) for label in labels), default=CHAR * font)
    return int(width + 6 + font + 16)


def _cell_font(shape: tuple[int, int]) -> int:
    return 16 if max(shape) <= 6 else 13 if max(shape) <= 12 else 10


# Every heatmap's cells are square, whatever its shape (1 × n, n × 1, 1 × 1, 64 × 64): the
# figure asks for the width its cells need (``cell_px``), and where the page gives it less
# (a column, a phone) the plot keeps the squares and shrinks toward the top left.
SQUARE_X = {"constrain": "domain", "constraintoward": "left"}
SQUARE_Y = {"scaleanchor": "x", "scaleratio": 1, "constrain": "domain", "constraintoward": "top"}
GRID_PX = 640  # px the cells of a heatmap share across or down, at most
MAX_CELL, MIN_CELL = 90, 13  # px: a 1 × 1 is not a poster; a 64 × 64 still 832 px tall
COLORBAR = 70  # px: the colour bar and its ticks, right of the plot
BAR_PX = 120  # px: the plot's height at least, with a colour bar (its ticks need it)
ROW_PX = 18  # px: a row's label; rows of smaller squares (many columns) get this instead
TITLE_FONT = 1.2  # Plotly's title type against the figure's font


def cell_px(shape: tuple[int, int]) -> int:
    """The side (px) of a heatmap's square cells: the rows of an n-row matrix share the
    height the app has given it (52 px a row and 80 px more, up to 840 px: a 6-token grid's
    cells are 65 px, room for "the (1)" across), and no row of cells is wider than GRID_PX."""
    n_rows, n_cols = shape
    height = float(np.clip(80 + 52 * n_rows, 160, 840))
    return int(np.clip(min(height / n_rows, GRID_PX / n_cols), MIN_CELL, MAX_CELL))


def grid_width(title: str, left: int, right: int, cells: float, font: int = FONT["size"]) -> int:
    """A heatmap figure's width (px): its cells and margins, or its title's if wider (a
    one-row grid's title was cut to "Raw scores Q Kᵀ (1 × 3" on a phone)."""
    lines = re.split(r"<br>", title) or [""]
    title_px = max(text_px(re.sub(r"<[^>]*>", "", t), TITLE_FONT * font) for t in lines) + 16
    return int(max(left + cells + right, title_px))


def is_square_grid(figure: go.Figure) -> bool:
    """Whether ``figure`` is a heatmap of ``heatmap``'s, whose cells are kept square."""
    return figure.layout.yaxis.scaleanchor == "x"


def weights_heatmap(
    weights: FloatArray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    title: str,
    mask: BoolArray | None = None,
) -> go.Figure:
    """The softmax weights on a 0..1 scale, each row's sum written at its right.

    Cells print three decimals always (a weight of 0.000269 reads 0.000, not 2.687e−04 over
    its neighbours); hovering or tapping a cell shows it to six significant digits.
    """
    row_labels, col_labels, title = safe_labels(row_labels), safe_labels(col_labels), safe(title)
    sums = [
        {"x": 1.0, "xref": "paper", "xanchor": "left", "y": label, "yref": "y",
         "showarrow": False, "text": f"Σ = {total:.3f}", "font": {"size": 13}}
        for label, total in zip(row_labels, np.sum(weights, axis=1), strict=True)
    ]  # fmt: skip
    return _heatmap(weights, row_labels, col_labels, title, signed=False, mask=mask,
                    colorbar_title=_("weight"), digits=3, showscale=False, annotations=sums,
                    right_margin=70, fixed=True)  # fmt: skip


def contributions_bar(
    parts: FloatArray,
    weights_row: FloatArray,
    key_labels: Sequence[str],
    title: str,
) -> go.Figure:
    """How one query's output is built: weight_j * v_j stacked per output dimension.

    parts (n_k, d_v): weight_j * v_j (stage_data.contributions); weights_row (n_k,) names
    each segment. The black diamond is their sum, the output component.
    """
    dims = vector_columns(parts.shape[1], "out")
    key_labels, title = safe_labels(key_labels), safe(title)
    bars = [
        go.Bar(x=dims, y=parts[j], name=f"{weights_row[j]:.3f} × v({label})",
               marker_color=OKABE_ITO[j % len(OKABE_ITO)],
               hovertemplate=f"{label}: %{{y:.4f}}<extra></extra>")
        for j, label in enumerate(key_labels)
    ]  # fmt: skip
    total = go.Scatter(
        x=dims,
        y=parts.sum(axis=0),
        mode="markers+text",
        name=_("output (sum)"),
        marker={"symbol": "diamond", "size": 14, "color": INK},
        text=[_fmt(v, 3) for v in parts.sum(axis=0)],
        textposition="top center",
        cliponaxis=False,  # the total over the tallest bar may stand above the plot area
    )
    layout = {
        "barmode": "relative",
        "title": {"text": title, "x": 0.0},
        "font": FONT,
        "height": 380,
        "yaxis": {"title": {"text": _("contribution")}, "automargin": True},
        "legend": {"orientation": "h", "y": -0.2},
        "margin": {"l": 10, "r": 10, "t": 84, "b": 10},  # room for a total above the top bar
    }
    return go.Figure(data=[*bars, total], layout=layout)


def row_bars(values: FloatArray, labels: Sequence[str], title: str, y_title: str) -> go.Figure:
    """One row (a query's weights or scores) as bars, values printed on top."""
    labels, title = safe_labels(labels), safe(title)
    bar = go.Bar(x=list(labels), y=values, marker_color=OKABE_ITO[0],
                 text=[_fmt(v, 3) for v in values], textposition="outside")  # fmt: skip
    layout = {
        "title": {"text": title, "x": 0.0},
        "font": FONT,
        "height": 320,
        "yaxis": {"title": {"text": y_title}, "automargin": True},
        # automargin: room below for the labels' descenders ("jungle" lost its j's tail)
        "xaxis": {"type": "category", "automargin": True},
        "margin": {"l": 10, "r": 10, "t": 60, "b": 10},
    }
    return go.Figure(data=[bar], layout=layout)


def themed(figure: go.Figure, palette: Palette = LIGHT) -> go.Figure:
    """``figure`` drawn for a page in ``palette``'s theme (changed in place and returned).

    The background is transparent (the page's own shows through), text and INK take the
    theme's ink, grid lines a grey that reads on both backgrounds, and a heatmap's grey
    (masked cells, the gaps) the theme's. Every number printed in a heatmap cell gets black
    or white, whichever contrasts more with its cell (``contrast.label_cells``: at least
    4.58:1, masked cells on the theme's grey too); Plotly's own choice falls to 3:1.
    Properties are set one by one, with no Plotly template: update_layout's path parsing
    and a template's validation cost several ms a figure.
    """
    heat = any(trace.type == "heatmap" for trace in figure.data)
    layout = figure.layout
    layout.paper_bgcolor = CLEAR
    layout.plot_bgcolor = palette.masked if heat else CLEAR
    layout.font.color = palette.ink
    for axis in (layout.xaxis, layout.yaxis):
        axis.gridcolor = axis.zerolinecolor = axis.linecolor = GRID
        axis.showgrid = not heat  # a grid would cross the masked cells
    if layout.legend.bgcolor is not None:
        layout.legend.bgcolor = palette.legend_bg
    for trace in figure.data:
        for path in ("marker.color", "marker.line.color", "line.color"):
            _swap_ink(trace, path, palette.ink)
    for shape in figure.layout.shapes:
        _swap_ink(shape, "line.color", palette.ink)
    for trace in figure.data:
        if trace.type == "heatmap":
            contrast.label_cells(trace, layout.plot_bgcolor)
    return figure


def _swap_ink(obj: object, path: str, ink: str) -> None:
    """Set ``obj``'s property at ``path`` (e.g. "marker.line.color") to ``ink`` where it is INK."""
    *parents, name = path.split(".")
    for part in parents:
        obj = getattr(obj, part, None)
        if obj is None:
            return
    value = getattr(obj, name, None)
    if isinstance(value, str) and value.upper() == INK:
        setattr(obj, name, ink)
    elif isinstance(value, (list, tuple)) and INK in value:
        setattr(obj, name, [ink if v == INK else v for v in value])
