"""Presentation mode's figures: the walkthrough's figures at a projector's scale, with the
numbers in them sized to their cells and the least width their texts need (a narrower screen,
a phone following the class, scrolls them sideways: views.chart.sideways)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention_core import AttentionTrace
from attention_ui.draw.figures import COLORBAR, grid_width, side_room
from attention_ui.draw.widths import COL_PX, printed_px
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels
from attention_ui.stages.registry import BY_KEY as STAGE_BY_KEY

# The smallest box a slide's figure gets (presentation mode's CSS stretches it to the screen).
STAGE_FLOOR = 340  # px
QKV_FLOOR = 300  # px
# Projector sizes: the walkthrough's figures at a larger scale; the figure's height comes
# from the screen (CSS above), the numbers in it from the matrix's size.
FONT_SIZE = 20
TITLE_SIZE = 24


def projector_figure(figure: go.Figure, rows: int, cols: int, narrow: bool = False) -> go.Figure:
    """A copy of ``figure`` with projector-sized type; the walkthrough's figure is untouched.

    rows, cols: the matrix shape, which sets the size of the cell numbers. ``narrow``: the
    figure gets a third of the width (Q, K, V side by side), so smaller numbers.

    The browser sets the height: the chart stretches to its box (``chart``, ``CSS``). The
    layout's height is only the chart's intrinsic height, which Streamlit 1.67 gives a
    stretched chart in a box of no fixed height (``contain: size`` with
    ``contain-intrinsic-height``: the layout's height, or 450 px when it has none). The box
    cannot shrink below it, so it is the box's floor: a 450 px default pushed Q, K and V
    (370 px of room at 720 px high) below the screen.
    """
    big = go.Figure(figure)  # a copy
    big.update_layout(
        height=QKV_FLOOR if narrow else STAGE_FLOOR,  # the smallest box; the screen stretches it
        autosize=True,
        font={"size": FONT_SIZE},
        title={"font": {"size": TITLE_SIZE}},
        margin={"t": 105},
        # Plotly sizes the margins for the projector's type: the walkthrough's figures
        # carry margins computed for their own smaller labels (figures.side_room).
        xaxis={"automargin": True},
        yaxis={"automargin": True},
    )
    big.update_traces(
        textfont={"size": _cell_size(max(rows, cols), narrow, _longest(big))},
        colorbar={"thickness": 22, "tickfont": {"size": 18}},
        selector={"type": "heatmap"},
    )
    big.layout.xaxis.tickangle = None  # Plotly's own: labels wider than a column turn
    big.update_annotations(font={"size": FONT_SIZE})  # the Σ = 1 of each softmax row
    if big.layout.annotations:
        big.update_layout(margin={"r": 130})
    if big.data and big.data[0].type == "heatmap":
        big.layout.meta = {**(big.layout.meta or {}), "min_px": _least_width(big, cols, narrow)}
    return big


def _least_width(big: go.Figure, cols: int, narrow: bool) -> int:
    """The px under which the slide's numbers or key labels, in the projector's type, would
    run into each other: a narrower screen (a phone following the class) scrolls the chart
    sideways (views.chart.sideways). A heatmap slide squeezed into 390 px printed its 26 px
    numbers over each other and read "the (1)cat sat onthe (2)mat"; the key labels now turn
    when a column is narrower than they are (``projector_figure``: Plotly's own tick angle)."""
    heat = big.data[0]
    cells = heat.text if heat.texttemplate else ()
    column = max(printed_px(cells or (), heat.textfont.size or FONT_SIZE), COL_PX)
    left = side_room([str(y) for y in heat.y or ()], FONT_SIZE)
    right = (130 if big.layout.annotations else 10) + COLORBAR
    return grid_width(big.layout.title.text or "", left, right, cols * column, FONT_SIZE)


def _cell_size(n: int, narrow: bool = False, chars: int = 4) -> int:
    """Cell numbers for an n x n-ish matrix: 26 px for the 6 x 6 examples, readable from the
    back of a hall at 1080p and still inside their cells at 1280 x 720; in a third of the
    width, at most 18 px, so "1.00" still fits a cell of a four-column K at 1280 px wide.
    Numbers longer than 4 characters ("0.070", the weights' 3 decimals) get smaller type in
    proportion: at 26 px they ran over their neighbours on the projector."""
    size = 30 if n <= 4 else 26 if n <= 6 else 22 if n <= 8 else 16 if n <= 12 else 11
    size = min(size - 4, 18) if narrow else size
    return size * 4 // max(chars, 4)


def _longest(figure: go.Figure) -> int:
    """The characters of the longest number a heatmap figure prints in its cells."""
    texts = [t for trace in figure.data if trace.type == "heatmap" and trace.texttemplate
             for row in trace.text or () for t in row]  # fmt: skip
    return max(map(len, texts), default=4)


def stage_slide_figure(stage: str, labels: Labels, t: AttentionTrace) -> go.Figure:
    """The stage's figure in projector sizes (about 14 ms of Plotly: shared by sessions)."""
    figure = STAGE_BY_KEY[stage].figure(labels, t)
    rows, cols = np.shape(figure.data[0].z)  # the matrix drawn sets the projector sizes
    return projector_figure(figure, rows, cols)


def qkv_slide_figures(labels: Labels, t: AttentionTrace) -> dict[str, go.Figure]:
    """Q, K and V side by side in projector sizes."""
    rows = max(t.Q.shape[0], t.K.shape[0])
    return {name: projector_figure(figure, rows, getattr(t, name).shape[1], narrow=True)
            for name, figure in sf.qkv_figures(labels, t).items()}  # fmt: skip
