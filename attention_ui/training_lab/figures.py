"""Figures for the Training lab: pure functions from two runs' histories to go.Figure.

The two runs share colours with the Scaling lab's (Okabe-Ito, colour-blind safe):
vermillion without scaling, blue with 1/sqrt(d_k); the unscaled line is also dashed, so
the two read apart in grey too. Nothing here reads Streamlit state.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attention_core import label_tokens
from attention_core.training import History
from attention_ui.draw.figures import FONT, weights_heatmap
from attention_ui.draw.measure import wrap_title
from attention_ui.i18n import N_, _

COLOUR = {False: "#D55E00", True: "#0072B2"}  # unscaled, scaled
# The two runs' names (English msgids: shown with _()), in running text, at the start of a
# title or caption, and on the buttons that open a run's step in the walkthrough.
NAME = {False: N_("without scaling"), True: N_("with 1/√d_k")}
TITLE = {False: N_("Without scaling"), True: N_("With 1/√d_k")}
OPEN = {False: N_("Open without scaling"), True: N_("Open with 1/√d_k")}
DASH = {False: "dash", True: "solid"}
MARGIN = {"l": 64, "r": 12, "t": 56, "b": 120}
HEIGHT = 360
LINE_PX = 18  # px: a line of the figure's 14 px type


FLOOR = 1e-30  # the wrong rows' gradient chart: an exact 0 (an underflow) is drawn here


def _curves(runs: tuple[History, History], title: str, y_title: str, log: bool,
            series: dict[str, str], floor: float = 1e-12) -> go.Figure:  # fmt: skip
    """One line per run and per named series (``series``: History field -> its label); on a
    log axis, a value under ``floor`` is drawn at it (NaN, "no such row", is a gap)."""
    fig = go.Figure()
    # the y axis's title in lines no longer than the plot is tall: one line taller rose into
    # the chart's title ("norma del gradiente (log)" in Spanish); each line more widens the
    # left margin, clear of the tick labels
    y_title, lines = wrap_title(y_title, HEIGHT - MARGIN["t"] - MARGIN["b"], FONT["size"])
    for h in runs:
        steps = np.arange(len(h.loss))
        run = _(NAME[h.scaled])
        for name, (field, label) in enumerate(series.items()):
            y = getattr(h, field)
            fig.add_trace(go.Scatter(
                x=steps, y=np.maximum(y, floor) if log else y, mode="lines",
                name=_("{series}, {run}").format(series=label, run=run) if label else run,
                line={"color": COLOUR[h.scaled], "width": 2.5 - name,
                      "dash": DASH[h.scaled] if name == 0 else "dot"},
                hovertemplate=_("step {x}: {y}").format(x="%{x}", y="%{y:.3g}")
                + f"<extra>{run}</extra>",
            ))  # fmt: skip
    fig.update_layout(
        title={"text": title, "x": 0.0, "xanchor": "left", "pad": {"l": 4}},  # "G" was cut
        font=FONT, height=HEIGHT, margin=MARGIN | {"l": MARGIN["l"] + LINE_PX * (lines - 1)},
        xaxis={"title": {"text": _("training step")}},
        yaxis={"title": {"text": y_title}, "type": "log" if log else "linear"},
        # four series wrap to four rows on a phone: they start lower, clear of the axis title
        legend={"orientation": "h", "yanchor": "top", "y": -0.34 - 0.1 * (len(series) > 1),
                "x": 0.0},
    )  # fmt: skip
    return fig


def loss_curves(runs: tuple[History, History]) -> go.Figure:
    """Both runs' loss (mean squared error of the output) at every step, on one chart."""
    return _curves(runs, _("Loss (the output's squared error)"), _("loss"), False,
                   {"loss": ""})  # fmt: skip


def gradient_curves(runs: tuple[History, History]) -> go.Figure:
    """|dL/dW_Q| (thick) and |dL/dW_K| (dotted) of both runs, on a log axis."""
    return _curves(runs, _("Gradient to W_Q and W_K"), _("gradient norm (log)"), True,
                   {"grad_q": "W_Q", "grad_k": "W_K"})  # fmt: skip


def wrong_row_gradient(runs: tuple[History, History]) -> go.Figure:
    """The lesson's chart: at each step, the gradient that reaches a row still on a wrong
    key (the median over those rows of |dL/dscores|), both runs, on a log axis with powers
    of ten. A run with no wrong row left has no point there: its line ends."""
    fig = _curves(runs, _("Gradient reaching the rows still wrong"), _("gradient (log)"), True,
                  {"wrong_grad": ""}, floor=FLOOR)  # fmt: skip
    fig.update_yaxes(exponentformat="power", dtick=5 if _decades(runs) > 12 else None)
    fig.update_traces(hovertemplate=_("step {x}: {y}").format(x="%{x}", y="%{y:.1e}")
                      + "<extra></extra>")  # fmt: skip
    return fig


def _decades(runs: tuple[History, History]) -> float:
    """How many powers of ten the chart's values span."""
    y = np.concatenate([np.maximum(h.wrong_grad, FLOOR) for h in runs])
    y = y[~np.isnan(y)]
    return float(np.log10(y.max() / y.min())) if y.size else 0.0


def stuck_curves(runs: tuple[History, History]) -> go.Figure:
    """Rows saturated on a wrong key (of the whole batch) at every step."""
    return _curves(runs, _("Stuck rows (of the batch's {n} rows)").format(n=runs[0].rows),
                   _("rows"), False, {"stuck": ""})  # fmt: skip


def example_row(h: History) -> tuple[str, str]:
    """A row of example 0 as ``step_weights`` names it: (query, the key it should attend to).
    The first whose key is another token's when there is one (the previous-token task's
    first row attends to itself, "E → E", where its others read "S → E")."""
    rows = list(zip(label_tokens(h.query_tokens), (label_tokens(h.key_tokens)[t] for t in
                                                   h.target), strict=True))  # fmt: skip
    return next(((q, k) for q, k in rows if q != k), rows[0])


def step_weights(h: History, step: int) -> go.Figure:
    """Example 0's attention weights at the kept step at or before ``step``; the right key
    of each row is named in its label ("A → 3")."""
    c = h.at(step)
    keys = label_tokens(h.key_tokens)
    queries = [f"{q} → {keys[t]}" for q, t in
               zip(label_tokens(h.query_tokens), h.target, strict=True)]  # fmt: skip
    title = _("{run}: weights at step {step}").format(run=_(TITLE[h.scaled]),
                                                      step=h.checkpoints[c])  # fmt: skip
    return weights_heatmap(h.weights[c], queries, keys, title, mask=h.mask)


def row_saturation(runs: tuple[History, History], step: int) -> go.Figure:
    """Example 0's largest weight per row at the step, both runs side by side; a row whose
    largest weight sits on a wrong key is drawn hatched."""
    fig = go.Figure()
    for h in runs:
        W = h.weights[h.at(step)]  # (n, n)
        wrong = W.argmax(axis=1) != h.target
        fig.add_trace(go.Bar(
            x=label_tokens(h.query_tokens), y=W.max(axis=1), name=_(NAME[h.scaled]),
            marker={"color": COLOUR[h.scaled],
                    "pattern": {"shape": ["/" if w else "" for w in wrong]}},
            hovertemplate="%{x}: %{y:.3f}<extra>" + _(NAME[h.scaled]) + "</extra>",
        ))  # fmt: skip
    fig.update_layout(
        title={"text": _("Largest weight per row, step {step}").format(
                   step=runs[0].checkpoints[runs[0].at(step)]), "x": 0.0},
        font=FONT, height=HEIGHT, margin=MARGIN, barmode="group",
        xaxis={"title": {"text": _("query")}}, yaxis={"title": {"text": _("largest weight")},
                                                      "range": [0, 1.05]},
        legend={"orientation": "h", "yanchor": "top", "y": -0.34, "x": 0.0},
    )  # fmt: skip
    return fig
