"""Colour contrast as WCAG 2.2 measures it, and the colour of every number printed in a cell.

Plotly colours a heatmap's cell numbers itself (its ``Color.contrast``: white on a cell it
calls dark, #444 on the others, by a brightness cut that is not WCAG's), so on the
mid-tones of viridis and RdBu its numbers fall to about 3:1. The app instead computes
the cell's colour the way plotly.js paints it (the colour scale's stops, interpolated
linearly in sRGB between ``zmin`` and ``zmax``) and prints each number in black or white,
whichever contrasts more. The better of the two is never below 4.58:1: black on a colour
of relative luminance L gives (L + 0.05) / 0.05 and white 1.05 / (L + 0.05), and the
smaller of the two maxima is where they meet, at (L + 0.05)^2 = 0.0525.

Pure: no Streamlit, no Plotly import (a trace is read through its attributes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

BLACK, WHITE = "#000000", "#FFFFFF"
AA_TEXT = 4.5  # WCAG 1.4.3, normal-size text
_HEX = re.compile(r"^#([0-9a-fA-F]{6})$")
_RGB = re.compile(r"^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)")
# A printed cell number in its colour: Plotly draws <span style> as a styled tspan.
_SPAN = re.compile(r'<span style="color:(#[0-9A-F]{6})">(.*?)</span>')


def rgb(colour: str) -> tuple[float, float, float]:
    """'#RRGGBB', 'rgb(r, g, b)' or 'rgba(r, g, b, a)' as 0..255 floats (alpha ignored)."""
    colour = colour.strip()
    m = _HEX.match(colour)
    if m:
        h = m.group(1)
        return float(int(h[0:2], 16)), float(int(h[2:4], 16)), float(int(h[4:6], 16))
    m = _RGB.match(colour)
    if m:
        return float(m.group(1)), float(m.group(2)), float(m.group(3))
    raise ValueError(f"not a colour this module reads: {colour!r}")


def luminance(colour: str | Sequence[float]) -> float:
    """WCAG relative luminance of an sRGB colour (0 for black, 1 for white).

    Plain floats, not NumPy: it runs once or twice per printed cell, where NumPy's per-call
    overhead would be most of the time.
    """
    r, g, b = rgb(colour) if isinstance(colour, str) else colour
    return 0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def ratio(a: str | Sequence[float], b: str | Sequence[float]) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(background: str | Sequence[float]) -> str:
    """BLACK or WHITE: whichever reads better on ``background`` (never below 4.58:1).

    Black's ratio is (L + 0.05) / 0.05 and white's 1.05 / (L + 0.05): black wins from
    (L + 0.05)^2 >= 0.0525 on.
    """
    return BLACK if (luminance(background) + 0.05) ** 2 >= 0.0525 else WHITE


def scale_colour(stops: Sequence[Sequence], t: float) -> tuple[float, float, float]:
    """The colour at ``t`` (0..1, clamped) of a colour scale [[pos, colour], ...], as plotly.js
    paints it: linear in sRGB between the two stops around ``t``."""
    t = min(max(float(t), 0.0), 1.0)
    positions = [float(p) for p, _ in stops]
    colours = [rgb(c) for _, c in stops]
    k = int(np.searchsorted(positions, t, side="right"))
    if k <= 0:
        return colours[0]
    if k >= len(stops):
        return colours[-1]
    lo, hi = positions[k - 1], positions[k]
    w = 0.0 if hi == lo else (t - lo) / (hi - lo)
    a, b = colours[k - 1], colours[k]
    return (a[0] + w * (b[0] - a[0]), a[1] + w * (b[1] - a[1]), a[2] + w * (b[2] - a[2]))


def cell_colours(trace: object) -> list[list[tuple[float, float, float] | None]]:
    """The colour plotly.js paints each cell of a go.Heatmap, row by row (None: no colour,
    a gap where the plot's background shows: NaN, a masked cell).

    Reads ``z``, ``colorscale`` (Plotly stores a named scale as its stops), ``reversescale``
    and ``zmin``/``zmax``; without them the data's own range, symmetric about ``zmid``
    when one is set (Plotly's zauto).
    """
    z = np.atleast_2d(np.asarray(trace.z, dtype=float))  # type: ignore[attr-defined]
    stops = [tuple(s) for s in trace.colorscale]  # type: ignore[attr-defined]
    if trace.reversescale:  # type: ignore[attr-defined]
        stops = [(1 - float(p), c) for p, c in reversed(stops)]
    lo, hi = _range(z, trace)
    span = hi - lo
    return [
        [None if not np.isfinite(v) else scale_colour(stops, 0.5 if span == 0 else (v - lo) / span)
         for v in row]
        for row in z
    ]  # fmt: skip


def _range(z: np.ndarray, trace: object) -> tuple[float, float]:
    zmin, zmax, zmid = trace.zmin, trace.zmax, trace.zmid  # type: ignore[attr-defined]
    if zmin is not None and zmax is not None:
        return float(zmin), float(zmax)
    finite = z[np.isfinite(z)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if zmid is not None:
        half = max(abs(hi - zmid), abs(zmid - lo))
        return zmid - half, zmid + half
    return lo, hi


def label_cells(trace: object, gap: str) -> None:
    """Give every printed number of a heatmap trace the ink that reads on its cell (changed
    in place).

    ``gap``: the colour behind cells with no colour (the plot's background: masked cells).
    The ink most cells need becomes the trace's ``textfont.color``; a cell that needs the
    other one gets ``<span style="color:#FFFFFF">0.42</span>`` (each line of a two-line
    cell on its own), which Plotly draws as a tspan of that colour. Why not a span on every
    cell: plotly.js parses each cell's markup on every draw, and 225 spans on a real head's
    grid cost about half the floor's whole redraw (issue 21). ``inks`` reads a cell's ink
    back; the plain numbers come back with ``plain``.
    """
    if not trace.texttemplate or trace.text is None:  # type: ignore[attr-defined]
        return  # no numbers printed in the cells
    inks = [[text_on(gap if c is None else c) for c in row] for row in cell_colours(trace)]
    flat = [ink for row in inks for ink in row]
    common = BLACK if flat.count(BLACK) >= flat.count(WHITE) else WHITE
    trace.textfont.color = common  # type: ignore[attr-defined]
    trace.text = [  # type: ignore[attr-defined]
        [plain(str(t)) if ink == common else _coloured(plain(str(t)), ink)
         for t, ink in zip(row, row_inks, strict=True)]
        for row, row_inks in zip(trace.text, inks, strict=True)  # type: ignore[attr-defined]
    ]  # fmt: skip


def inks(trace: object, text: str) -> list[str]:
    """The ink of each line of one cell's ``text`` in ``trace``, as ``label_cells`` set it."""
    return printed_colours(text) or [trace.textfont.color] * len(text.split("<br>"))  # type: ignore[attr-defined]


def _coloured(text: str, colour: str) -> str:
    return "<br>".join(f'<span style="color:{colour}">{line}</span>' for line in text.split("<br>"))


def plain(text: str) -> str:
    """A cell's text without the colour ``label_cells`` gave it."""
    return _SPAN.sub(r"\2", text)


def printed_colours(text: str) -> list[str]:
    """The colours ``label_cells`` gave the lines of one cell's text."""
    return [m.group(1) for m in _SPAN.finditer(text)]
