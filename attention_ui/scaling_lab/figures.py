"""Figures for the scaling lab: pure functions from arrays and the sweep table to go.Figure.

Colours follow the variant everywhere (Okabe-Ito, colour-blind safe): vermillion for the
raw scores (no scaling), blue for the scores divided by sqrt(d_k). Nothing here reads
Streamlit state, so tests check the figures without a browser.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from attention_core.saturation import softmax_stats
from attention_core.types import FloatArray
from attention_ui.draw.figures import FONT
from attention_ui.draw.sliding import sliding
from attention_ui.i18n import N_, _

COLOUR = {False: "#D55E00", True: "#0072B2"}  # unscaled, scaled
VARIANT = {False: N_("without scaling"), True: N_("with 1/√d_k")}  # shown with _()
THEORY_COLOUR = "#000000"
METRICS = {
    "max_weight": N_("Largest weight"),
    "entropy": N_("Entropy (nats)"),
    "grad_norm": N_("Gradient norm ‖J‖"),
}
# Margins fixed from what sits in them (tick labels and an axis title: about 55 px on the
# left, 48 below), not Plotly's automargin: automargin measures the labels after drawing and
# draws again when the margins move, and the d_k slider redraws four of these figures and
# three curves at once (the cost issue 11 measured on the heatmaps).
MARGIN = {"l": 58, "r": 10, "t": 56, "b": 48}


def theory_std(d_k: int, scaled: bool) -> float:
    """The standard deviation the scores should have: sqrt(d_k) raw, 1 after scaling."""
    return 1.0 if scaled else float(np.sqrt(d_k))


# One fixed frame for both columns and every d_k: the scaled scores' own axis (their std
# is 1, so ±8 is ±8 std). Unscaled scores grow with √d_k and spill off it, which is what a
# learner moving the slider should see; a rescaling axis would draw every bell alike.
AXIS = 8.0
DENSITY_TOP = 0.45  # just above the N(0, 1) peak, 1/√(2π) = 0.399
# Past ±4 softmax is near one-hot: a key 4 above the others gets e⁴ ≈ 55 times their weight.
SATURATES = 4.0


def score_histogram(scores: FloatArray, d_k: int, scaled: bool, bins: int = 40) -> go.Figure:
    """Sampled scores as a density histogram on the fixed axis ±AXIS, with the N(0, d_k) or
    N(0, 1) curve on top, the saturating zone |score| > SATURATES shaded, and the share of
    scores that fall off each side of the axis written at that edge.

    scores (n,) or any shape: the numbers fed to softmax (already divided by sqrt(d_k)
    when ``scaled``). Bars are pre-binned here (np.histogram) so the browser gets ``bins``
    numbers, not every sample. Densities are over all samples, so the bars' areas plus the
    shares off the axis sum to 1: a wide spread flattens and sinks the bars.
    """
    x = np.ravel(np.asarray(scores, dtype=np.float64))  # (...) -> (n,)
    sd = theory_std(d_k, scaled)
    counts, edges = np.histogram(x, bins=bins, range=(-AXIS, AXIS))  # (bins,), (bins + 1,)
    width = edges[1] - edges[0]
    density = counts / (x.size * width)  # over every sample, in the axis or not
    centres = (edges[:-1] + edges[1:]) / 2  # (bins + 1,) -> (bins,)
    off = {"left": float(np.mean(x < -AXIS)), "right": float(np.mean(x > AXIS))}
    grid = np.linspace(-AXIS, AXIS, 201)  # (201,)
    pdf = np.exp(-0.5 * (grid / sd) ** 2) / (sd * np.sqrt(2 * np.pi))  # (201,)
    # named by its formula, not its numbers: a legend keeps its words while the lab's slider
    # is dragged (a frame redraws the traces only)
    theory = _("N(0, {var}), std {sd}").format(var=1 if scaled else "d_k",
                                               sd=1 if scaled else "√d_k")  # fmt: skip
    bars = go.Bar(
        x=centres, y=density, width=width, name=_("sampled scores"),
        marker={"color": COLOUR[scaled], "line": {"width": 0}}, opacity=0.75,
        hovertemplate=_("score") + " ≈ %{x:.2f}<br>" + _("density") + " %{y:.3f}<extra></extra>",
    )  # fmt: skip
    curve = go.Scatter(
        x=grid, y=pdf, mode="lines", hoverinfo="skip",
        name=_("theory {theory}").format(theory=theory),
        line={"color": THEORY_COLOUR, "width": 2, "dash": "dash"},
    )  # fmt: skip
    layout = {
        "title": {"text": _("Scores: std {std}").format(std=f"{np.std(x):.2f}"), "x": 0.0},
        "xaxis": {"title": {"text": _("score") + " / √d_k" if scaled else _("score")},
                  "range": [-AXIS, AXIS], "fixedrange": True},
        "yaxis": {"title": {"text": _("density")},
                  "range": [0, DENSITY_TOP], "fixedrange": True},
        "shapes": _saturating_zones(), "annotations": _off_axis_notes(off),
        "bargap": 0, "font": FONT, "height": 300, "margin": MARGIN,
        "legend": {"x": 0.99, "xanchor": "right", "y": 0.99, "yanchor": "top",
                   "bgcolor": "rgba(255,255,255,0.8)"},
    }  # fmt: skip
    return go.Figure(data=[bars, curve], layout=layout)


def _saturating_zones() -> list[dict]:
    """Light grey bands where |score| > SATURATES (softmax near one-hot)."""
    return [{"type": "rect", "xref": "x", "yref": "paper", "x0": x0, "x1": x1, "y0": 0,
             "y1": 1, "fillcolor": "rgba(128,128,128,0.15)", "line": {"width": 0},
             "layer": "below"}
            for x0, x1 in ((-AXIS, -SATURATES), (SATURATES, AXIS))]  # fmt: skip


def _off_axis_notes(off: dict[str, float]) -> list[dict]:
    """The zone's name, and the share of scores past each edge ("← 40 % off the axis")."""
    notes = [
        {
            "x": SATURATES,
            "xref": "x",
            "xanchor": "left",
            "y": 0.62,
            "yref": "paper",
            "text": _("softmax<br>saturates"),
            "showarrow": False,
            "font": {"size": 11},
        }
    ]
    for side, share in off.items():  # both edges always, so every d_k has the same notes
        # (the lab's slider changes their text): under half a percent reads as 0 %, no text
        text = "" if share < 0.005 else "<b>" + (
            _("← {share} off the axis") if side == "left" else _("{share} off →")
        ).format(share=f"{share:.0%}") + "</b>"  # fmt: skip
        notes.append({"x": 0 if side == "left" else 1, "xref": "paper", "y": 0.2,
                      "yref": "paper", "xanchor": side, "text": text,
                      "showarrow": False, "font": {"size": 12}})  # fmt: skip
    return notes


def softmax_bars(
    weights: FloatArray, scaled: bool, key_labels: Sequence[str] | None = None
) -> go.Figure:
    """One query's softmax over its keys as bars on a fixed 0..1 axis.

    weights (n_keys,). A dotted line marks the uniform weight 1/n_keys; a saturated
    softmax shows one bar near 1 and the rest near 0.
    """
    w = np.asarray(weights, dtype=np.float64).ravel()  # (n_keys,)
    labels = list(key_labels) if key_labels is not None else [f"k{j + 1}" for j in range(w.size)]
    # keys at 0..n-1 on a numeric axis named by their labels: the axis has a range, so a
    # note over it can be drawn at a place of its own (the lab's slider moves notes as text)
    bars = go.Bar(
        x=np.arange(w.size), y=w, marker={"color": COLOUR[scaled]}, name=_("weight"),
        text=[f"{v:.2f}" for v in w], textposition="outside", cliponaxis=False,
        customdata=labels,
        hovertemplate="%{customdata}: " + _("weight") + " %{y:.4f}<extra></extra>",
    )  # fmt: skip
    uniform = 1 / w.size
    layout = {
        "title": {"text": _("One query: max weight {w}").format(w=f"{np.max(w):.2f}"), "x": 0.0},
        "xaxis": {"title": {"text": _("key")}, "range": [-0.5, w.size - 0.5],
                  "tickvals": list(range(w.size)), "ticktext": labels, "fixedrange": True},
        "yaxis": {"title": {"text": _("weight")}, "range": [0, 1.12],
                  "tickvals": [0, 0.25, 0.5, 0.75, 1]},
        "shapes": [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y",
                    "y0": uniform, "y1": uniform,
                    "line": {"color": THEORY_COLOUR, "dash": "dot", "width": 1}}],
        "annotations": [{"x": 1.0, "xref": "paper", "xanchor": "left", "y": uniform,
                         "yref": "y", "showarrow": False, "align": "left",
                         "text": _("uniform") + f"<br>1/{w.size}", "font": {"size": 12}}],
        "font": FONT, "height": 280, "margin": {**MARGIN, "r": 70}, "showlegend": False,
    }  # fmt: skip
    return go.Figure(data=[bars], layout=layout)


def metric_curve(sweep: pd.DataFrame, metric: str, d_k: int) -> go.Figure:
    """One column of the sweep against d_k (log axis), both variants, ``d_k`` marked.

    sweep: the ``saturation_sweep`` table; metric: one of ``METRICS``. The current d_k
    gets a vertical line and big markers labelled with their values.
    """
    d_all = sweep["d_k"].to_numpy()  # (rows,)
    scaled_all = sweep["scaled"].to_numpy(dtype=bool)  # (rows,)
    v_all = sweep[metric].to_numpy(dtype=np.float64)  # (rows,)
    traces = []
    for scaled in (False, True):
        pick = scaled_all == scaled
        order = np.argsort(d_all[pick])
        traces.append(go.Scatter(
            x=d_all[pick][order], y=v_all[pick][order], mode="lines+markers",
            name=_(VARIANT[scaled]),
            line={"color": COLOUR[scaled], "width": 3, "dash": "solid" if scaled else "dash"},
            marker={"size": 6, "symbol": "circle" if scaled else "square"},
            hovertemplate="d_k = %{x}: %{y:.3f}<extra>" + _(VARIANT[scaled]) + "</extra>",
        ))  # fmt: skip
    here = np.flatnonzero(d_all == d_k)  # the current d_k's rows
    here = here[np.argsort(scaled_all[here])]  # unscaled first
    values = v_all[here]  # (2,)
    traces.append(go.Scatter(
        x=d_all[here], y=values, mode="markers+text",
        marker={"size": 14, "color": [COLOUR[bool(s)] for s in scaled_all[here]],
                "line": {"color": "#000000", "width": 2}},
        text=[f"{v:.2f}" for v in values], textposition=_label_positions(values),
        cliponaxis=False, textfont={"size": 13}, name=f"d_k = {d_k}", showlegend=False,
        hoverinfo="skip",
    ))  # fmt: skip
    d_values = np.unique(d_all)  # sorted
    ticks = d_values[:: max(1, int(np.ceil(d_values.size / 6)))]  # about six labels
    tick_text = [f"{v // 1024}k" if v >= 1024 and v % 1024 == 0 else str(v) for v in ticks]
    top = 1.15 * float(np.max(v_all))
    layout = {
        "title": {"text": _(METRICS[metric]), "x": 0.0, "y": 0.97, "yanchor": "top"},
        "xaxis": {"title": {"text": _("d_k (log scale)")}, "type": "log",
                  # fixed (in powers of ten): the lab's slider draws its d_k line on it
                  "range": [float(np.log10(d_values[0])) - 0.15,
                            float(np.log10(d_values[-1])) + 0.15],
                  "tickvals": ticks.tolist(), "ticktext": tick_text, "tickangle": 0,
                  "tickfont": {"size": 12}},
        "yaxis": {"range": [-0.12 * top, top],  # the title names the metric
                  "zeroline": True},
        "shapes": [{"type": "line", "xref": "x", "x0": d_k, "x1": d_k, "yref": "paper",
                    "y0": 0, "y1": 1, "line": {"color": "#555555", "width": 1, "dash": "dot"}}],
        "font": FONT, "height": 380, "margin": {**MARGIN, "t": 110, "r": 20},
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0.0},
    }  # fmt: skip
    return go.Figure(data=traces, layout=layout)


def _label_positions(values: FloatArray) -> list[str]:
    """Put the higher of two marker labels above its marker and the lower one below."""
    if values.size != 2:
        return ["middle left"] * values.size
    hi = int(np.argmax(values))
    return ["top left" if i == hi else "bottom left" for i in range(2)]


# ---- several figures as one chart ---------------------------------------------------------
# The d_k slider redraws every figure of the lab at once, and Plotly's own slider moves only
# the figure it is in: so the lab is one chart whose panels are the figures.
def combined(figures: Sequence[go.Figure], cols: int | Sequence[int] = 1, gap: float = 0.06,
             margin: dict | None = None,
             legends: Sequence[int] | None = None) -> go.Figure:  # fmt: skip
    """``figures`` (row by row, ``cols`` to a row, or ``cols[r]`` in row r) as the panels of
    one figure: each keeps its traces, axes, shapes, notes and title (now over its panel), on
    its own panel's axes. A row keeps its first figure's height; each panel keeps
    ``margin``'s room above and below it (for its title, and its ticks and axis title).

    ``legends[k]``: the legend figure k's series are listed in (0: the first); a legend
    sits where its first figure put it, on that figure's panel. A series named twice in one
    legend is one entry."""
    return go.Figure(_combined(figures, cols, gap, margin, legends))


def _combined(figures: Sequence[go.Figure], cols: int | Sequence[int], gap: float,
              margin: dict | None, legends: Sequence[int] | None) -> dict:  # fmt: skip
    """``combined`` as a plain dict (data, layout): built without Plotly's checks, which
    cost the lab's slider a second when they ran once per d_k."""
    margin = {**MARGIN, "r": 70, **(margin or {})}
    places = _places(len(figures), cols)  # (row, column, columns in the row) per figure
    firsts = [f for f, (_r, c, _n) in zip(figures, places, strict=True) if c == 0]  # a row's
    heights = [float(f.layout.height or 300) for f in firsts]
    # each row keeps its own room for its title over it and its ticks under it
    tops = [float(f.layout.margin.t if f.layout.margin.t is not None else margin["t"])
            for f in firsts]  # fmt: skip
    bottoms = [float(f.layout.margin.b if f.layout.margin.b is not None else margin["b"])
               for f in firsts]  # fmt: skip
    margin = {**margin, "t": tops[0], "b": bottoms[-1]}
    groups = list(legends) if legends is not None else [0] * len(figures)
    data: list[dict] = []
    layout: dict = {"annotations": [], "shapes": []}
    named: set = set()
    placed: dict[int, dict] = {}
    for k, (figure, (r, c, n), group) in enumerate(zip(figures, places, groups, strict=True)):
        x_dom, y_dom = _span(c, n, gap), _row_span(r, heights, tops, bottoms)
        xa, ya = ("x", "y") if k == 0 else (f"x{k + 1}", f"y{k + 1}")
        shown = figure.layout.showlegend is not False
        for trace in figure.data:  # a series named twice in a legend is one entry
            item = {**trace.to_plotly_json(), "xaxis": xa, "yaxis": ya,
                    "legend": "legend" if group == 0 else f"legend{group + 1}"}  # fmt: skip
            if (group, trace.name) in named or not shown:
                item["showlegend"] = False
            data.append(item)
            named.add((group, trace.name))
        if shown and group not in placed:
            placed[group] = _legend_on(figure.layout.legend.to_plotly_json(), x_dom, y_dom,
                                       sum(heights) - margin["t"] - margin["b"])  # fmt: skip
        axis = "" if k == 0 else str(k + 1)
        layout[f"xaxis{axis}"] = {**figure.layout.xaxis.to_plotly_json(), "domain": x_dom,
                                  "anchor": ya}  # fmt: skip
        layout[f"yaxis{axis}"] = {**figure.layout.yaxis.to_plotly_json(), "domain": y_dom,
                                  "anchor": xa}  # fmt: skip
        layout["shapes"] += [_on_panel(s.to_plotly_json(), xa, ya) for s in figure.layout.shapes]
        layout["annotations"] += [_on_panel(a.to_plotly_json(), xa, ya)
                                  for a in figure.layout.annotations]  # fmt: skip
        layout["annotations"].append({  # over the panel's top left corner
            "x": 0, "y": 1, "xref": f"{xa} domain", "yref": f"{ya} domain", "xanchor": "left",
            "yanchor": "bottom", "yshift": 10, "showarrow": False,
            "text": figure.layout.title.text, "font": {"size": 16}})  # fmt: skip
    first = figures[0].layout
    for group, legend in placed.items():
        layout["legend" if group == 0 else f"legend{group + 1}"] = legend
    layout.update(font=first.font.to_plotly_json(), height=int(sum(heights)),
                  bargap=first.bargap, margin=margin, showlegend=bool(placed),
                  meta={"panels": [f.layout.title.text for f in figures]})  # fmt: skip
    return {"data": data, "layout": layout}


def _places(count: int, cols: int | Sequence[int]) -> list[tuple[int, int, int]]:
    """(row, column, columns in that row) of each of ``count`` figures laid out row by row."""
    widths = [cols] * -(-count // cols) if isinstance(cols, int) else list(cols)
    return [(r, c, n) for r, n in enumerate(widths) for c in range(n)][:count]


def _legend_on(legend: dict, x_dom: list[float], y_dom: list[float], plot_px: float) -> dict:
    """A figure's legend (its x and y on its own paper) on its panel of the combined figure;
    a legend over the panel (horizontal) also over the panel's title, 34 px higher."""
    x, y = legend.get("x", 1.02), legend.get("y", 1.0)
    moved = {**legend, "x": x_dom[0] + x * (x_dom[1] - x_dom[0])}
    if legend.get("orientation") == "h":
        moved["y"] = y_dom[1] + 34 / plot_px
    else:
        moved["y"] = y_dom[0] + y * (y_dom[1] - y_dom[0])
    return moved


def _parts(d_values: Sequence[int], scores: FloatArray, sweep: pd.DataFrame,
           d_k: int) -> list[go.Figure]:  # fmt: skip
    """The lab's figures at ``d_k``, in PARTS' order (see ``lab_figures``)."""
    raw = scores[list(d_values).index(d_k)]  # (S, n_keys)
    logits = {False: raw, True: raw / np.sqrt(d_k)}  # (S, n_keys) each
    return [*(score_histogram(logits[s], d_k, s) for s in (False, True)),
            *(softmax_bars(softmax_stats(logits[s][0])["weights"], s) for s in (False, True)),
            *(metric_curve(sweep, m, d_k) for m in METRICS)]  # fmt: skip


PARTS = ("hist_False", "hist_True", "bars_False", "bars_True", *METRICS)


def lab_parts(d_values: Sequence[int], scores: FloatArray, sweep: pd.DataFrame,
              d_k: int) -> dict[str, go.Figure]:  # fmt: skip
    """The figures ``lab_figures`` draws as panels, at ``d_k``, keyed as in PARTS: what the
    page's text alternative and numbers say."""
    return dict(zip(PARTS, _parts(d_values, scores, sweep, d_k), strict=True))


def lab_figures(
    d_values: Sequence[int], scores: FloatArray, sweep: pd.DataFrame, phone: bool = False
) -> dict[str, go.Figure]:
    """Every chart of the lab that the d_k slider moves, as one figure with a frame and a
    slider step per d_k of ``d_values``, so that the browser redraws it while the slider's
    thumb is dragged, with no rerun: the figure as it opens at each d_k, keyed by str(d_k).

    scores (len(d_values), S, n_keys): the raw scores q·k of each d_k (``sample_scores``);
    sweep: the ``saturation_sweep`` table over the same d_k. Panels (PARTS): the histogram of
    the scores without and with scaling, the first query's softmax bars without and with,
    then the three curves across d_k (two columns and a row of three; one column on a
    phone). Built once for every d_k: the page's own slider then only picks one.
    """
    values = [int(d) for d in d_values]
    layout = {"cols": [1] * len(PARTS) if phone else [2, 2, 3], "gap": 0.08,
              "margin": {"r": 70}, "legends": [0, 1, 0, 1, 2, 2, 2]}  # fmt: skip
    whole = [_combined(_parts(values, scores, sweep, d), **layout) for d in values]
    for figure in whole if not phone else ():  # under it, ticks and titles run together
        figure["layout"]["meta"]["min_px"] = LAB_LEAST
    return dict(zip(map(str, values), sliding(whole, values, prefix="d_k = "), strict=True))


# px: three curves abreast need 130 px a panel for "1 4 16 64 256 1k" and "d_k (log
# scale)"; a narrower page (390 px whose agent says desktop) scrolls the chart sideways
LAB_LEAST = 560


def _span(i: int, n: int, gap: float) -> list[float]:
    """Column i of n as a share of the width, ``gap`` between two columns."""
    width = (1 - gap * (n - 1)) / n
    return [i * (width + gap), i * (width + gap) + width]


def _row_span(r: int, heights: list[float], tops: list[float],
              bottoms: list[float]) -> list[float]:  # fmt: skip
    """Row r (from the top) where it would be if the figures were stacked, each with its
    own room above and below (``tops``, ``bottoms``, px): as a share of the combined
    figure's plotting height (the whole height but the first top and the last bottom)."""
    plot = sum(heights) - tops[0] - bottoms[-1]
    top = sum(heights[:r]) + tops[r] - tops[0]  # px from the plotting area's top
    bottom = sum(heights[: r + 1]) - bottoms[r] - tops[0]
    return [max(0.0, 1 - bottom / plot), min(1.0, 1 - top / plot)]


def _on_panel(item: dict, xa: str, ya: str) -> dict:
    """A shape or note of a one-panel figure, referred to its panel's axes in the combined one."""
    moved = dict(item)
    if "xref" in item:
        moved["xref"] = f"{xa} domain" if item["xref"] == "paper" else xa
    if "yref" in item:
        moved["yref"] = f"{ya} domain" if item["yref"] == "paper" else ya
    return moved
