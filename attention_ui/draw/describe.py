"""A figure's text alternative (WCAG 1.1.1) and its numbers as a table (1.3.1), from its data.

A Plotly chart is an SVG of loose labels with no name (plotly.js#6920), so every chart the
app draws gets, from ``alternative(figure)``:

- ``text``: one or two sentences naming what it shows, its shape, the labels of its rows
  and columns, its largest and smallest cell and whether every row sums to 1; Streamlit
  puts it on the chart as its accessible name (``st.plotly_chart(alt=...)``);
- ``table``: the numbers as printed, with the tokens as row and column headers (or, for
  bars and lines, one row per x value and a column per series), shown on demand.

Everything is read from the figure itself (traces, axis titles, the printed cell texts),
so the alternative cannot drift from the picture. Labels come back unescaped (figures
escape learner text for Plotly; ``html.unescape`` undoes it): the page escapes them again
for where it writes them. Pure: no Streamlit.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from attention_ui.draw.contrast import plain
from attention_ui.draw.text import num
from attention_ui.i18n import _

MAX_NAMED = 12  # labels listed in the text; more are summed up as "…"
MAX_SERIES = 3  # series read out in the text; more are named only (their numbers: the table)
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Alternative:
    name: str  # the figure's title, plain text
    text: str  # the short text alternative
    table: pd.DataFrame | None  # the numbers (strings, as printed), or None


def plain_text(text: object) -> str:
    """Plotly text as a reader gets it: tags dropped (<br> as a space), entities decoded."""
    return html.unescape(_TAG.sub(" ", plain(str(text or "")))).replace("  ", " ").strip()


def alternative(figure: go.Figure) -> Alternative:
    """The figure's text alternative and table (see the module's docstring)."""
    name = plain_text(figure.layout.title.text) or _("Chart")
    heat = [t for t in figure.data if t.type == "heatmap"]
    if heat:
        return _heatmap(figure, heat[0], name)
    return _series(figure, name)


# ---- heatmaps ----------------------------------------------------------------------------
def parse(text: str) -> float | None:
    """A printed cell number as a float (−∞ too), or None when the cell is not one number."""
    t = plain_text(text).replace("−", "-").replace("∞", "inf")
    try:
        return float(t)
    except ValueError:
        return None


def _heatmap(figure: go.Figure, trace: go.Heatmap, name: str) -> Alternative:
    z = np.atleast_2d(np.asarray(trace.z, dtype=float))  # (rows, cols)
    rows, cols = z.shape
    texts = None if trace.text is None else [[plain_text(t) for t in row] for row in trace.text]
    parsed = None if texts is None else [[parse(t) for t in row] for row in texts]
    # The printed numbers when every cell is one (the multi-head lab colours W's cells by
    # head and prints the weights), else the colour values.
    if parsed is not None and all(v is not None for row in parsed for v in row):
        values = np.array(parsed, dtype=float)
    else:
        values = z
    x, y = trace.x, trace.y
    row_title = plain_text(figure.layout.yaxis.title.text) or _("row")
    col_title = plain_text(figure.layout.xaxis.title.text) or _("column")
    if x is None or y is None:  # a mosaic of maps (the real model's gallery): no headers
        finite = values[np.isfinite(values)]
        span = (_(", values from {low} to {high}").format(low=num(finite.min()),
                                                          high=num(finite.max()))
                if finite.size else "")  # fmt: skip
        text = _("Heatmap “{name}”: {rows} × {cols} cells{span}.")
        return Alternative(name, text.format(name=name, rows=rows, cols=cols, span=span), None)
    row_labels, col_labels = [plain_text(v) for v in y], [plain_text(v) for v in x]
    shown = texts or [[num(v) for v in row] for row in values]
    parts = [
        _("Heatmap “{name}”, {rows} × {cols}. Rows ({row_title}): {row_names}. Columns "
          "({col_title}): {col_names}.").format(
            name=name, rows=rows, cols=cols, row_title=row_title, row_names=_names(row_labels),
            col_title=col_title, col_names=_names(col_labels))
    ]  # fmt: skip
    finite = np.isfinite(values)
    if finite.any():
        hi = np.unravel_index(np.argmax(np.where(finite, values, -np.inf)), values.shape)
        lo = np.unravel_index(np.argmin(np.where(finite, values, np.inf)), values.shape)
        parts.append(_("Largest {hi} ({hi_row}, {hi_col}); smallest {lo} ({lo_row}, {lo_col}).")
                     .format(hi=shown[hi[0]][hi[1]], hi_row=row_labels[hi[0]],
                             hi_col=col_labels[hi[1]], lo=shown[lo[0]][lo[1]],
                             lo_row=row_labels[lo[0]], lo_col=col_labels[lo[1]]))  # fmt: skip
    masked = int(np.sum(~finite))
    if masked:
        parts.append(_("{n} of {all} cells masked.").format(n=masked, all=values.size))
    parts.append(_row_sums(values, texts, z.dtype))
    table = pd.DataFrame(shown, index=row_labels, columns=col_labels)
    table.index.name, table.columns.name = row_title, col_title
    return Alternative(name, " ".join(parts), table)


def _names(labels: list[str]) -> str:
    listed = ", ".join(labels[:MAX_NAMED])
    more = _(", … ({n} in all)").format(n=len(labels)) if len(labels) > MAX_NAMED else ""
    return listed + more


def rows_sum_to_one(values: np.ndarray, texts: list[list[str]] | None, dtype: np.dtype) -> bool:
    """Whether every row adds up to 1, masked (−∞ or missing) cells counting as 0.

    The tolerance follows from where the numbers come from. Printed with d decimals, each
    is off by at most half a unit in the last place, so a row of n is off by n · 0.5 · 10^-d.
    Unprinted (the colour values themselves, softmax weights), each weight carries one
    rounding of its division and the sum n − 1 more: within 2 n eps of the dtype.
    """
    finite = np.where(np.isfinite(values), values, 0.0)
    n = values.shape[1]
    if texts is not None:
        decimals = max((len(t.split(".")[1]) for row in texts for t in row if "." in t), default=0)
        tolerance = n * 0.5 * 10.0**-decimals
    else:
        kind = dtype if np.issubdtype(dtype, np.floating) else np.float64
        tolerance = 2 * n * float(np.finfo(kind).eps)
    return bool(np.all(np.abs(finite.sum(axis=1) - 1.0) <= tolerance))


def _row_sums(values: np.ndarray, texts: list[list[str]] | None, dtype: np.dtype) -> str:
    return (_("Every row sums to 1.") if rows_sum_to_one(values, texts, dtype)
            else _("Rows do not sum to 1."))  # fmt: skip


# ---- bars and lines ----------------------------------------------------------------------
def _series(figure: go.Figure, name: str) -> Alternative:
    """Bars, lines and points: one series per trace, read at its x values."""
    kinds = {t.type for t in figure.data}
    kind = _("Bar chart") if kinds == {"bar"} else _("Chart") if "bar" in kinds else _("Line chart")
    if "bar" in kinds and figure.layout.barmode == "relative":
        kind = _("Stacked bar chart")
    flat = any(getattr(t, "orientation", None) == "h" for t in figure.data)  # bars lie down
    value_axis, label_axis = (figure.layout.xaxis, figure.layout.yaxis) if flat else (
        figure.layout.yaxis, figure.layout.xaxis)  # fmt: skip
    x_title = plain_text(label_axis.title.text)
    series, columns, xs = [], {}, []
    for trace in figure.data:
        if trace.x is None or trace.y is None:
            continue
        label = plain_text(trace.name) or plain_text(value_axis.title.text) or _("value")
        at, values = (trace.y, trace.x) if getattr(trace, "orientation", None) == "h" else (
            trace.x, trace.y)  # fmt: skip
        xs, ys = [_label(v) for v in at], np.asarray(values, dtype=float)
        if ys.size <= MAX_NAMED:
            points = ", ".join(f"{a} {num(b)}" for a, b in zip(xs, ys, strict=True))
        else:
            points = _("{n} points, from {low} to {high}").format(
                n=ys.size, low=num(np.nanmin(ys)), high=num(np.nanmax(ys)))  # fmt: skip
        series.append(f"{label}: {points}")
        if trace.hoverinfo != "skip" and label not in columns:  # drawn only as a guide: left out
            columns[label] = pd.Series([num(v, 4) for v in ys], index=xs, dtype=object)
    head = (_("{kind} “{name}”, by {x}") if x_title else _("{kind} “{name}”")).format(
        kind=kind, name=name, x=x_title)  # fmt: skip
    if len(series) > MAX_SERIES:  # a stacked bar per key: their names; the numbers: the table
        names = _names([s.split(": ")[0] for s in series])
        text = _("{head}: {n} series ({names}) over {xs}.").format(
            head=head, n=len(series), names=names, xs=_names(xs))  # fmt: skip
    else:
        text = f"{head}. " + "; ".join(series) + "."
    if not columns:
        return Alternative(name, text, None)
    table = pd.DataFrame(columns)
    table.index.name = x_title or None
    return Alternative(name, text, table.fillna(""))


def _label(value: object) -> str:
    """An x value as a header: numbers in the app's short form, text as plain text."""
    if isinstance(value, (int, float, np.integer, np.floating)):
        return num(float(value), 4)
    return plain_text(value)
