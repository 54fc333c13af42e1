"""The least width a chart may be drawn at: under it, its printed numbers or its column
labels would run into each other, so a narrower page scrolls it sideways instead
(``views.chart.sideways``). A figure carries it as ``layout.meta["min_px"]``."""

from __future__ import annotations

import math
from collections.abc import Sequence

import plotly.graph_objects as go

from attention_ui.draw.measure import text_px

# px: the least a column gets, an upright label in 12 px type. A grid of more columns than
# its page has room for at COL_PX scrolls sideways (``min_width``): squeezed into a phone's
# 358 px, 64 columns' labels ran into one smear.
COL_PX = 16
NARROW_PX = 358  # px: the narrowest column a chart gets (a 390 px phone's, 2 x 16 padding)


def printed_px(texts: Sequence[Sequence[str]], font: int) -> int:
    """The px the widest printed cell needs in ``font``, with 3 px of air each side."""
    return math.ceil(max((text_px(t, font) for row in texts for t in row), default=0)) + 6


def min_width(figure: go.Figure) -> int | None:
    """The px under which ``figure`` may not be drawn (its columns' labels would run
    together), or None: any width will do. ``views.chart.plot`` lets a page narrower than
    that scroll the chart sideways instead of squeezing it."""
    meta = figure.layout.meta
    return int(meta["min_px"]) if isinstance(meta, dict) and meta.get("min_px") else None
