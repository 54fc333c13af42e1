"""Figures fitted to a phone's screen: short numbers, and values on a tap where they do not fit.

``views.cache`` applies ``for_phone`` to every figure a phone's browser gets, before the theme.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention_ui.draw.figures import (
    BAR_PX,
    COLORBAR,
    FONT,
    TITLE,
    TITLE_FONT,
    grid_width,
    is_square_grid,
    side_room,
    text_px,
    top_room,
)
from attention_ui.draw.measure import wrap_title
from attention_ui.draw.text import minus
from attention_ui.draw.widths import COL_PX, NARROW_PX, min_width

PHONE_CELL = 42  # px per heatmap column on a phone: room for "0.91" in 12 px type
PHONE_SCREEN = NARROW_PX  # px a chart gets on a 390 px phone (measured in Chromium)
PHONE_MIN_CELL = 30  # px: "−0.91" in 12 px type; a narrower column shows its value on a tap
PHONE_FONT = 12


def for_phone(figure: go.Figure) -> go.Figure:
    """``figure`` for a phone's screen (changed in place and returned).

    Heatmap cells print at most two decimals in small type, and the figure asks for
    PHONE_CELL per column. Streamlit fits a chart to the screen whatever width it asks for
    (PHONE_SCREEN px of a 390 px phone), so where that leaves a column narrower than
    PHONE_MIN_CELL the numbers would run into each other: those grids show each value on a
    tap (their hover) instead, and every key keeps its label (Plotly would drop every other
    one).
    """
    if figure.layout.width is not None and not is_square_grid(figure):
        return figure  # already laid out for a phone (the model labs' figures)
    heat = [trace for trace in figure.data if trace.type == "heatmap"]
    if not heat:
        _fit_title(figure)
    for trace in heat:
        if trace.text is not None:
            trace.text = [[_shorter(cell, z) for cell, z in zip(row, zs, strict=True)]
                          for row, zs in zip(trace.text, trace.z, strict=True)]  # fmt: skip
        trace.textfont.size = min(trace.textfont.size or PHONE_FONT, PHONE_FONT)
    if heat:
        labels = max((trace.x for trace in heat), key=len)
        # The row labels' room in the phone's type: a long token ("[x](http://x.io)") needs
        # more than the 90 px assumed before, which squeezed 3 columns into 63 px.
        left = side_room([str(y) for trace in heat for y in (trace.y or ())], PHONE_FONT)
        # One grid per figure: the multi-head lab's small multiples fit their own rows.
        if len(heat) == 1 and _phone_cell(figure, len(labels), left) < _widest_cell(heat[0]):
            for trace in heat:
                trace.texttemplate = ""  # on a tap: the hover holds the value
            figure.update_xaxes(tickmode="linear", dtick=1)
        right = _right_room(figure)
        cells = PHONE_CELL * len(labels)
        width = grid_width(figure.layout.title.text or "", left, right, cells, PHONE_FONT)
        bar = COLORBAR if any(trace.showscale is not False for trace in heat) else 0
        column = PHONE_CELL  # px: the narrowest column Streamlit may draw (it caps the width)
        if len(heat) == 1:  # never narrower than its labels need: it scrolls sideways instead
            least = grid_width(figure.layout.title.text or "", left, right,
                               COL_PX * len(labels), PHONE_FONT)  # fmt: skip
            figure.layout.meta = {**(figure.layout.meta or {}), "min_px": least}
            column = max(COL_PX, (max(least, PHONE_SCREEN) - left - right - bar) / len(labels))
        # labels turned upright unless they fit that column ("d10".."d32" across 16 px
        # columns of a 15 x 32 grid ran into one another)
        angle, top = top_room(labels, PHONE_FONT, min(column, PHONE_CELL))
        # the plot gets the cells' width; the rest (the rows' notes, a wide title) is margin
        margin = {"t": top, "l": left, "r": width - left - cells - bar}
        figure.update_layout(width=width, font={"size": PHONE_FONT}, margin=margin)
        square = is_square_grid(figure)
        old_height = figure.layout.height - figure.layout.margin.t + top
        figure.layout.height = _square_height(figure, heat, top) if square else old_height
        figure.update_xaxes(tickangle=angle)
        figure.update_annotations(font={"size": PHONE_FONT - 1})
    return figure


PHONE_TITLE = 400  # px of a chart's title as text_px counts them (measured: 335 of 358 drawn)


def _fit_title(figure: go.Figure) -> None:
    """A chart's title too wide for the phone's screen in lines that fit (a German title was
    cut at the edge), the top margin grown by a line for each line added."""
    title = figure.layout.title.text
    if not title:
        return
    font = (figure.layout.font.size or FONT["size"]) * TITLE_FONT
    wrapped, lines = wrap_title(title, PHONE_TITLE, font)
    if lines > 1 and wrapped != title:
        figure.layout.title.text = wrapped
        top = figure.layout.margin.t if figure.layout.margin.t is not None else 80
        figure.layout.margin.t = int(top + (lines - 1) * font * 1.3)


def _square_height(figure: go.Figure, heat: list, top: int) -> int:
    """A square-celled grid's height on a phone: each row as tall as a column is wide once
    the grid is fitted to the screen, PHONE_CELL at most (a 1 × 3 grid was three tall bars)."""
    n_rows = max(len(trace.y or ()) for trace in heat)
    n_cols = max(len(trace.x or ()) for trace in heat)
    bar = any(trace.showscale is not False for trace in heat)
    layout = figure.layout
    drawn = min(layout.width, max(PHONE_SCREEN, min_width(figure) or 0))  # px: Streamlit's cap
    plot = drawn - layout.margin.l - layout.margin.r - bar * COLORBAR
    row = min(PHONE_CELL, plot / n_cols)
    return int(top + max(n_rows * row, BAR_PX if bar else 0) + layout.margin.b)


def _phone_cell(figure: go.Figure, n_cols: int, left: int) -> float:
    """The px a column gets once the figure is fitted to a phone's screen (``left``: the
    row labels' room)."""
    return (PHONE_SCREEN - left - _right_room(figure)) / max(n_cols, 1)


def _right_room(figure: go.Figure) -> int:
    """The px right of the grid: a colour bar or the rows' notes (Σ = 1.000) take about 70."""
    bar = any(t.type == "heatmap" and t.showscale is not False for t in figure.data)
    return 70 if figure.layout.annotations or bar else 20


def _widest_cell(trace: go.Heatmap) -> float:
    """The px the widest printed cell needs in PHONE_FONT type, and a little air; at least
    PHONE_MIN_CELL. A 6-column score grid of "−18.00" got 33 px a column: its numbers ran
    into each other."""
    texts = [str(cell) for row in (trace.text or ()) for cell in row]
    return max([PHONE_MIN_CELL, *(text_px(t, PHONE_FONT) + 2 for t in texts)])


def _shorter(text: str, z: float | None) -> str:
    """A cell's text with two decimals when it has more (−∞ and whole numbers stay)."""
    decimals = text.split(".")[1] if "." in text else ""
    if z is None or not np.isfinite(z) or len(decimals) <= 2:
        return text
    return minus(f"{z:.2f}") if abs(z) < 1e4 else text  # no 3.08e−03: it would not fit


def wrapped_title(figure: go.Figure) -> go.Figure:
    """A figure laid out for a phone by its own lab (it carries its width, so ``for_phone``
    leaves it as it is) whose title would run past its right edge: the title in lines
    (``wrap_title``) at the figure's top, and the room above the plot grown by a line for
    each line added, the height too (in place; returns it). At the top, not centred in the
    margin: a legend above the plot (the RoPE curve's, the two sentences' bars) stays below
    the title's last line. German and French titles of the model labs ran 10 to 140 px
    past a 390 px screen, two English ones too."""
    title = figure.layout.title.text or ""
    font = figure.layout.title.font.size or (figure.layout.font.size or FONT["size"]) * TITLE_FONT
    # the px drawn, less the margins and the title's pad: not PHONE_TITLE, which allows for
    # text_px's overcount of Latin letters; a Chinese title is counted at its width
    # ("第 4 层第 2 个头：“it”在每个句子中看向哪里" was cut at the edge with PHONE_TITLE)
    width = min(figure.layout.width or PHONE_SCREEN, PHONE_SCREEN) - 16
    wrapped, lines = wrap_title(title, width, font)
    if lines > 1 and wrapped != title:
        extra = int((lines - 1) * font * 1.3)
        top = figure.layout.margin.t if figure.layout.margin.t is not None else 100
        figure.update_layout(title=TITLE | {"text": wrapped}, margin={"t": top + extra},
                             height=(figure.layout.height or 450) + extra)  # fmt: skip
    return figure
