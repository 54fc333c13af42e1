"""Several matrices as ONE Plotly figure: a grid of heatmap panels, laid out in pixels.

Why one figure: the browser profile (bench/RESULTS.md, issue 21) found a head count change
redrawing about 11 charts, each remounted (Plotly 417 ms, DOM 240 ms). One chart per
section, under one key, stays in its place on the page, so Plotly updates it in place.

Why pixels: a panel's cells must hold their numbers and its key labels must not run into
each other ("satand" when four heads sat abreast). The layout is computed for a known
width (``Layout.width``: the narrowest desktop column the app is drawn in, or a phone's
exact width), so ``readability`` can check every cell from the figure alone: wider screens
only make the cells wider. No Streamlit here.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from attention_core.types import FloatArray
from attention_ui.draw import describe, phone
from attention_ui.draw import figures as fig
from attention_ui.i18n import _, ngettext

CHAR = fig.CHAR  # an average sans-serif character's width, in ems
DESKTOP_WIDTH = 760  # px: the main column at 1280 x 720 with the sidebar open is 820
PHONE_WIDTH = 358  # px: a 390 px phone's column
PHONE_CELL = phone.PHONE_CELL  # px per column on a phone: room for "0.91" in 12 px type
MIN_CELL = 44  # px: the narrowest desktop cell ("−0.75" in 13 px type, with its padding)
GAP = 28  # px between two panels of a row (an operator gets OP_GAP)
OP_GAP = 48
SUBTITLE = 22  # px: a panel's title line
TITLE_FONT = 17  # px: Plotly's title type, 1.2 x the figure's 14 px


@dataclass(frozen=True)
class Panel:
    """One matrix of the grid: its colours, printed texts, labels (escaped) and scale."""

    z: FloatArray  # (rows, cols) colour values; NaN shows the gap colour (masked cells)
    text: list[list[str]]  # (rows, cols) printed in the cells
    rows: list[str]
    cols: list[str]
    title: str
    scale: dict  # colorscale, zmin, zmax (zmid, reversescale)
    hover: str  # the hovertemplate
    customdata: list[list[str]] | None = None
    row_title: str = ""
    col_title: str = ""
    borders: Sequence[float] = ()  # x positions of vertical lines (between heads' columns)


@dataclass(frozen=True)
class Layout:
    width: int  # px the figure is laid out for
    phone: bool
    per_row: int
    row_px: int  # px per matrix row
    font: int  # px, the cells' numbers
    ops: Sequence[str] = ()  # an operator before each panel after the first: "×", "="
    share_rows: bool = False  # one set of row labels per grid row (the heads' queries)


def fit_per_row(
    panels: Sequence[Panel], width: int, share_rows: bool, ops: bool, min_cell: int = MIN_CELL
) -> int:
    """The most panels abreast whose cells are at least ``min_cell`` px at ``width``,
    balanced over the rows (4 heads that fit 3 abreast go 2 + 2, not 3 + 1)."""
    for fit in range(len(panels), 0, -1):
        rows = -(-len(panels) // fit)
        balanced = -(-len(panels) // rows)
        if _cell(panels, balanced, width, share_rows, ops)[0] >= min_cell:
            return balanced
    return 1


def _cell(
    panels: Sequence[Panel], per_row: int, width: float, share_rows: bool, ops: bool
) -> tuple[float, list[list[int]], list[int], list[int]]:
    """The widest cell (px) that fits every row, the rows, each panel's left and gap (px)."""
    rows = [list(range(k, min(k + per_row, len(panels)))) for k in range(0, len(panels), per_row)]
    firsts = {r[0] for r in rows}
    lefts = [0 if share_rows and k not in firsts else label_room(p.rows, fig.FONT["size"])
             for k, p in enumerate(panels)]  # fmt: skip
    gaps = [0 if k in firsts else (OP_GAP if ops else GAP) for k in range(len(panels))]
    cell = min((width - sum(lefts[k] + gaps[k] for k in r) - 8)
               / sum(len(panels[k].cols) for k in r) for r in rows)  # fmt: skip
    return cell, rows, lefts, gaps


def label_room(labels: Sequence[str], font: int) -> int:
    """A panel's left margin: its row labels and the axis title beside them (px)."""
    return fig.side_room(labels, font)


def grid_figure(panels: Sequence[Panel], title: str, layout: Layout) -> go.Figure:
    """The panels in rows of ``layout.per_row``, every cell ``cell`` px wide (the widest that
    fits ``layout.width``), each panel titled, its key labels turned upright if they do not
    fit a cell. Built in one go.Figure call (update_layout costs ms per property)."""
    cell, rows, lefts, gaps = _cell(panels, layout.per_row, layout.width, layout.share_rows,
                                    bool(layout.ops))  # fmt: skip
    cell = PHONE_CELL if layout.phone else cell
    # The numbers' type: the layout's, smaller if a cell is narrow, none below 8 px (then
    # they are on hover and in the Numbers table only).
    widest = max(len(fig.contrast.plain(t)) for p in panels for r in p.text for t in r)
    font = min(layout.font, int((cell - 4) / (CHAR * widest)))
    printed = font >= 8
    cell_h = max(layout.row_px, font + 8)
    top = fig.TITLE_ROOM if title else 6
    bands, y = [], top  # each grid row: (y of its panels' title, y of its plots' top)
    for r in rows:
        angle, room = fig.top_room(_widest(panels, r), fig.FONT["size"] - 1, cell)
        room -= fig.TITLE_ROOM - SUBTITLE  # top_room counts a figure title: a panel's is shorter
        bands.append((y, y + room, angle))
        y += room + max(len(panels[k].rows) for k in r) * cell_h + (OP_GAP if layout.ops else 24)
    height = int(y)
    width = max(sum(lefts[k] + gaps[k] + len(panels[k].cols) * cell for k in r) for r in rows) + 8
    width = int(max(width, layout.width) if layout.phone else layout.width)
    traces, axes, notes, shapes = [], {}, [], []
    for band, r in zip(bands, rows, strict=True):
        x = 0.0
        for k in r:
            p, n = panels[k], k + 1
            x += gaps[k] + lefts[k]
            x0, x1 = x, x + len(p.cols) * cell
            y0, y1 = band[1], band[1] + len(p.rows) * cell_h
            x = x1
            suffix = "" if n == 1 else str(n)
            traces.append(_trace(p, font, printed, f"x{suffix}", f"y{suffix}"))
            axes[f"xaxis{suffix}"] = _xaxis(p, (x0 / width, x1 / width), band[2], f"y{suffix}")
            axes[f"yaxis{suffix}"] = _yaxis(p, (1 - y1 / height, 1 - y0 / height),
                                            f"x{suffix}", bool(lefts[k]))  # fmt: skip
            notes.append(_note(p.title, x0 - lefts[k], band[0], width, height))
            if layout.ops and k > 0:
                if k == r[0]:  # first of a row on a phone: the operator in the gap above it
                    at, level = x0 + len(p.cols) * cell / 2, band[0] - OP_GAP / 2 - 4
                else:
                    at, level = x0 - lefts[k] - gaps[k] / 2, (y0 + y1) / 2
                notes.append(_op(layout.ops[k - 1], at, level, width, height))
            shapes += [_border(b, len(p.rows), suffix) for b in p.borders]
    fig_layout = {
        "title": fig.TITLE | {"text": title},  # one line: Plotly clips a second one's top
        "height": height,
        "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
        "font": fig.FONT,
        "plot_bgcolor": fig.MASKED_BG,
        "annotations": notes,
        "shapes": shapes,
        # laid out in px for ``width``: a narrower page (a 1024 px window with the sidebar
        # open) scrolls it sideways (views.chart.sideways) instead of squeezing the row
        # labels into their axis title
        "meta": {"grid_width": width, "cell_px": cell, "min_px": width},
        **axes,
    }
    if layout.phone:  # a fixed width: the page scrolls it sideways rather than squeeze it
        fig_layout["width"] = width
    return go.Figure(data=traces, layout=fig_layout)


def _widest(panels: Sequence[Panel], r: Sequence[int]) -> list[str]:
    return [label for k in r for label in panels[k].cols]


def _trace(p: Panel, font: int, printed: bool, xref: str, yref: str) -> go.Heatmap:
    exact = {} if p.customdata is None else {"customdata": p.customdata}
    return go.Heatmap(z=p.z, x=p.cols, y=p.rows, text=p.text,
                      texttemplate="%{text}" if printed else "",
                      textfont={"size": font}, hovertemplate=p.hover, showscale=False,
                      xgap=2, ygap=2, xaxis=xref, yaxis=yref, **exact, **p.scale)  # fmt: skip


def _xaxis(p: Panel, domain: tuple[float, float], angle: int, anchor: str) -> dict:
    return {"domain": list(domain), "anchor": anchor, "side": "top", "type": "category",
            "tickangle": angle, "range": [-0.5, len(p.cols) - 0.5], "showgrid": False,
            "tickfont": {"size": fig.FONT["size"] - 1}, "fixedrange": True,
            "title": {"text": p.col_title, "standoff": 2, "font": {"size": 12}}}  # fmt: skip


def _yaxis(p: Panel, domain: tuple[float, float], anchor: str, labelled: bool) -> dict:
    return {"domain": list(domain), "anchor": anchor, "type": "category",
            "range": [len(p.rows) - 0.5, -0.5], "showgrid": False, "fixedrange": True,
            "showticklabels": labelled, "ticks": "outside" if labelled else "",
            "title": {"text": p.row_title if labelled else "", "standoff": 4}}  # fmt: skip


def _note(text: str, x: float, y: float, width: float, height: float) -> dict:
    return {"text": text, "x": max(x, 0) / width, "y": 1 - y / height, "xref": "paper",
            "yref": "paper", "xanchor": "left", "yanchor": "top", "showarrow": False,
            "font": {"size": 15}}  # fmt: skip


def _op(op: str, x: float, y: float, width: float, height: float) -> dict:
    return {"text": f"<b>{op}</b>", "x": x / width, "y": 1 - y / height, "xref": "paper",
            "yref": "paper", "showarrow": False, "font": {"size": 26}}  # fmt: skip


def _border(x: float, n_rows: int, suffix: str) -> dict:
    return {"type": "line", "x0": x, "x1": x, "y0": -0.5, "y1": n_rows - 0.5,
            "xref": f"x{suffix}", "yref": f"y{suffix}",
            "line": {"color": fig.INK, "width": 3}}  # fmt: skip


# ---- what a reader can check from the figure alone ----------------------------------------
def readability(figure: go.Figure) -> list[str]:
    """Every way the figure, at the width it is laid out for, fails to be read: a number
    wider than its cell, key labels wider than their column and not upright, panels that
    overlap. Empty when every number and label has its room."""
    layout = figure.layout
    width, problems = float(layout.meta["grid_width"]), []
    boxes = []
    for trace in figure.data:
        xa = getattr(layout, "xaxis" + trace.xaxis[1:])
        ya = getattr(layout, "yaxis" + trace.yaxis[1:])
        cell = (xa.domain[1] - xa.domain[0]) * width / len(trace.x)
        row = (ya.domain[1] - ya.domain[0]) * layout.height / len(trace.y)
        font = trace.textfont.size
        widest = max((fig.contrast.plain(str(t)) for r in trace.text for t in r), key=len)
        # numbers on hover and in the table only (no texttemplate): nothing to fit
        if trace.texttemplate and (fig.text_px(widest, font) > cell - 4 or font + 4 > row):
            problems.append(f"{trace.xaxis}: '{widest}' in {font} px type does not fit a "
                            f"{cell:.0f} x {row:.0f} px cell")  # fmt: skip
        tick = xa.tickfont.size or fig.FONT["size"]
        longest = max(trace.x, key=lambda s: len(html.unescape(s)))
        if xa.tickangle != -90 and fig.text_px(longest, tick) > cell - 4:
            problems.append(f"{trace.xaxis}: key label '{longest}' runs into its neighbours")
        boxes.append((trace.xaxis, xa.domain, ya.domain))
    for line in str(layout.title.text or "").split("<br>"):
        if fig.text_px(line, TITLE_FONT) > width:
            problems.append(f"the title's line '{line}' is wider than the figure")
    for k, (a, ax, ay) in enumerate(boxes):
        for b, bx, by in boxes[k + 1 :]:
            if ax[0] < bx[1] and bx[0] < ax[1] and ay[0] < by[1] and by[0] < ay[1]:
                problems.append(f"{a} and {b} overlap")
    return problems


# ---- the text alternative of a grid (WCAG 1.1.1, 1.3.1) -------------------------------------
def alternative(panels: Sequence[Panel], name: str) -> describe.Alternative:
    """What ``describe.alternative`` says of one heatmap, said of each panel in turn, and
    every panel's numbers in one table: a row per (panel, row), a column per label."""
    parts, frames = [], []
    for p in panels:
        texts = [[describe.plain_text(t) for t in row] for row in p.text]
        rows = [describe.plain_text(v) for v in p.rows]
        cols = [describe.plain_text(v) for v in p.cols]
        values = np.array([[describe.parse(t) for t in row] for row in texts], dtype=float)
        title = describe.plain_text(p.title)
        finite = np.isfinite(values)
        part = title if "×" in title else f"{title}, {len(rows)} × {len(cols)}"
        if finite.any():
            hi = np.unravel_index(np.argmax(np.where(finite, values, -np.inf)), values.shape)
            lo = np.unravel_index(np.argmin(np.where(finite, values, np.inf)), values.shape)
            part += _(": largest {hi} ({hi_row}, {hi_col}), smallest {lo} ({lo_row}, "
                      "{lo_col})").format(
                hi=texts[hi[0]][hi[1]], hi_row=rows[hi[0]], hi_col=cols[hi[1]],
                lo=texts[lo[0]][lo[1]], lo_row=rows[lo[0]], lo_col=cols[lo[1]])  # fmt: skip
        if p.customdata is not None and describe.rows_sum_to_one(values, texts, values.dtype):
            part += _("; every row sums to 1")
        parts.append(part + ".")
        frames.append(pd.DataFrame(texts, index=[f"{title}: {r}" for r in rows], columns=cols))
    first = panels[0]
    axes = "".join(" " + kind.format(t=describe.plain_text(t)) for kind, t in
                   ((_("Rows: {t}."), first.row_title), (_("Columns: {t}."), first.col_title))
                   if t)  # fmt: skip
    text = ngettext("{n} heatmap in one figure, “{name}”.", "{n} heatmaps in one figure, “{name}”.",
                    len(panels)).format(n=len(panels), name=name)  # fmt: skip
    text += f"{axes} " + " ".join(parts)
    table = pd.concat(frames).fillna("")
    table.index.name = _("panel: row")
    return describe.Alternative(name, text, table)
