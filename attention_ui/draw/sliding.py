"""One figure drawn at several values, with Plotly's own slider through them: its frames
hold only the numbers and words that change, so the browser redraws the chart while the
slider's thumb is dragged, with no rerun (issue 43). Pure: no Streamlit.

``sliding`` takes the figure as it is drawn at each value (plain dicts: data, layout) and
returns, for each value, that figure with every frame and a slider opened at it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from attention_ui.draw.figures import FONT

SLIDER_PX = 96  # room over the panels for Plotly's slider: its value, its rail, its labels


def sliding(figures: Sequence[dict], values: Sequence[int], prefix: str) -> list[go.Figure]:
    """``figures[i]`` (a figure's dict: data, layout) is one figure drawn at ``values[i]``
    (the same traces, notes and shapes in the same order). For each i: that figure with a
    frame per value and a Plotly slider over the panels, at i, that shows each frame while
    its thumb is dragged (in the browser: no rerun).

    A frame holds only traces' numbers and words: Plotly then redraws the traces alone
    (``redraw: False``), not the axes, legends and notes of every panel, which took 0.2 s
    a notch. So a note or a line that changes from value to value is drawn as a trace
    (text, or a line) where it stood, on its panel's axes (which need a range); a legend's
    names must not change. A frame holds no colour: the page's theme colours the figure
    once and every frame keeps it."""
    notes = [f["layout"]["annotations"] for f in figures]
    shapes = [f["layout"]["shapes"] for f in figures]
    moving_notes, moving_shapes = _moving(notes), _moving(shapes)
    figures = [_moving_as_traces(f, moving_notes, moving_shapes) for f in figures]
    traces = [f["data"] for f in figures]
    moving_traces = _moving(traces)
    for trace, keys in zip(traces[0], moving_traces, strict=True):
        if "name" in keys and trace.get("showlegend") is not False:
            raise ValueError(f"a legend's name cannot change while the slider moves: {keys}")
    moving_traces = [[k for k in keys if k != "name"] for keys in moving_traces]
    moved = [j for j, keys in enumerate(moving_traces) if keys]
    frames = [{"name": str(value), "traces": moved,
               "data": [{"type": traces[i][j].get("type", "scatter"),
                         **{k: traces[i][j][k] for k in moving_traces[j]}} for j in moved]}
              for i, value in enumerate(values)]  # fmt: skip
    step_args = {"mode": "immediate", "frame": {"duration": 0, "redraw": False},
                 "transition": {"duration": 0}}  # fmt: skip
    steps = [{"label": str(v), "method": "animate", "args": [[str(v)], step_args]}
             for v in values]  # fmt: skip
    out = []
    for i, figure in enumerate(figures):
        margin = figure["layout"]["margin"]
        slider = {"active": i, "x": 0, "len": 1, "y": 1, "yanchor": "bottom",
                  "pad": {"t": 0, "b": 50}, "font": {"size": 12}, "ticklen": 4,
                  "currentvalue": {"prefix": prefix, "font": {"size": 16}, "xanchor": "left"},
                  "steps": steps}  # fmt: skip
        layout = {**figure["layout"], "sliders": [slider],
                  "margin": {**margin, "t": margin["t"] + SLIDER_PX},
                  "height": figure["layout"]["height"] + SLIDER_PX}  # fmt: skip
        # Plotly checks the first figure; the others hold the same checked items (each
        # frame's own numbers in the place of the first's), and checking them again cost
        # 0.1 s each
        out.append(go.Figure(data=figure["data"], layout=layout, frames=frames,
                             _validate=i == 0))  # fmt: skip
    return out


def _moving_as_traces(figure: dict, notes: list[list[str]], shapes: list[list[str]]) -> dict:
    """``figure`` with the notes and line shapes that change (a key in ``notes[j]``,
    ``shapes[j]``) gone from its layout and drawn as traces after its own, each point where
    its note or line stood: per panel, one text trace holding its notes and one line trace
    holding its lines. Per panel, not one a note: every trace costs plotly.js its defaults
    again on each frame (a drag step took 0.2 s at 4x CPU slowdown with ten). Not one for
    the whole figure: plotly.js draws no text point outside its own panel's x range (three
    of the four panels lost their titles, and the curves their d_k line)."""
    layout = figure["layout"]
    moving = [n for n, keys in zip(layout["annotations"], notes, strict=True) if keys]
    lines = [s for s, keys in zip(layout["shapes"], shapes, strict=True) if keys]
    drawn = []
    for panel in _panels(moving):
        on = [n for n in moving if _panel(n) == panel]
        x_side = [ANCHOR_TO_SIDE.get(n.get("xanchor", "center"), "center") for n in on]
        y_side = [ANCHOR_TO_SIDE.get(n.get("yanchor", "middle"), "middle") for n in on]
        drawn.append({
            "type": "scatter", "mode": "text", "text": [n["text"] for n in on],
            "x": [_on_own(layout, "x", n["xref"], n["x"]) for n in on],
            "y": [_on_own(layout, "y", n["yref"], n["y"]) for n in on],
            "xaxis": panel[0], "yaxis": panel[1],
            "textposition": [f"{y} {x}" for x, y in zip(x_side, y_side, strict=True)],
            "textfont": {"size": [n.get("font", {}).get("size", FONT["size"]) for n in on]},
            "hoverinfo": "skip", "showlegend": False, "cliponaxis": False})  # fmt: skip
    for panel in _panels(lines):
        xs: list[float | None] = []
        ys: list[float | None] = []
        on = [line for line in lines if _panel(line) == panel]
        for line in on:  # one polyline, a gap (None) between two lines
            xs += [_on_own(layout, "x", line["xref"], line[k]) for k in ("x0", "x1")] + [None]
            ys += [_on_own(layout, "y", line["yref"], line[k]) for k in ("y0", "y1")] + [None]
        drawn.append({"type": "scatter", "mode": "lines", "x": xs, "y": ys,
                      "xaxis": panel[0], "yaxis": panel[1],
                      "line": on[0].get("line", {}), "connectgaps": False,
                      "hoverinfo": "skip", "showlegend": False, "cliponaxis": False})  # fmt: skip
    kept = {
        "annotations": [n for n, keys in zip(layout["annotations"], notes, strict=True)
                        if not keys],
        "shapes": [s for s, keys in zip(layout["shapes"], shapes, strict=True) if not keys],
    }  # fmt: skip
    return {"data": [*figure["data"], *drawn], "layout": {**layout, **kept}}


def _panel(item: dict) -> tuple[str, str]:
    """The axes ("x2", "y2") a note or shape is placed against."""
    return item["xref"].split(" ")[0], item["yref"].split(" ")[0]


def _panels(items: list[dict]) -> list[tuple[str, str]]:
    """The panels of ``items``, in the order they first appear (the same in every frame)."""
    return list(dict.fromkeys(_panel(item) for item in items))


ANCHOR_TO_SIDE = {"left": "right", "right": "left", "bottom": "top", "top": "bottom"}


def _on_own(layout: dict, letter: str, ref: str, value: float) -> float:
    """``value`` against ``ref`` ("x2": the axis's own units; "x2 domain": 0..1 across it)
    in the axis's own units (on a log axis, the value itself, not its power of ten)."""
    if not ref.endswith(" domain"):
        return float(value)
    axis = layout[f"{letter}axis{ref.split(' ')[0][1:]}"]
    lo, hi = _range(axis)
    at = lo + value * (hi - lo)
    return float(10**at if axis.get("type") == "log" else at)


def _range(axis: dict) -> tuple[float, float]:
    """An axis's fixed range (on a log axis: in powers of ten, as Plotly gives it)."""
    if axis.get("range") is None:
        raise ValueError("a note or line that moves with the slider needs its axes' ranges")
    lo, hi = axis["range"]
    return float(lo), float(hi)


def _moving(items: list[list[dict]]) -> list[list[str]]:
    """For each item (a trace, note or shape, by position), the keys whose value is not the
    same in every figure: what a frame must hold. ``items[i][j]``: item j of figure i."""
    counts = {len(row) for row in items}
    if len(counts) != 1:
        raise ValueError(f"every figure needs the same items to slide through, got {counts}")
    return [sorted(k for k in {k for row in items for k in row[j]}
                   if any(_plain(row[j].get(k)) != _plain(items[0][j].get(k)) for row in items))
            for j in range(counts.pop())]  # fmt: skip


def _plain(value: object) -> object:
    """``value`` with arrays as lists, so that two values compare with ==."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
