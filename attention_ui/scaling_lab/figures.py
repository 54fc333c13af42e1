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

from attention_core.types import FloatArray
from attention_ui.draw.figures import FONT

COLOUR = {False: "#D55E00", True: "#0072B2"}  # unscaled, scaled
VARIANT = {False: "without scaling", True: "with 1/√d_k"}
THEORY_COLOUR = "#000000"
METRICS = {
    "max_weight": "Largest weight",
    "entropy": "Entropy (nats)",
    "grad_norm": "Gradient norm ‖J‖",
}
MARGIN = {"l": 10, "r": 10, "t": 56, "b": 10}


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
    theory = f"N(0, {1 if scaled else d_k}), std {sd:.3g}"
    bars = go.Bar(
        x=centres, y=density, width=width, name="sampled scores",
        marker={"color": COLOUR[scaled], "line": {"width": 0}}, opacity=0.75,
        hovertemplate="score ≈ %{x:.2f}<br>density %{y:.3f}<extra></extra>",
    )  # fmt: skip
    curve = go.Scatter(
        x=grid, y=pdf, mode="lines", name=f"theory {theory}", hoverinfo="skip",
        line={"color": THEORY_COLOUR, "width": 2, "dash": "dash"},
    )  # fmt: skip
    layout = {
        "title": {"text": f"Scores: std {np.std(x):.2f}", "x": 0.0},
        "xaxis": {"title": {"text": "score / √d_k" if scaled else "score"}, "automargin": True,
                  "range": [-AXIS, AXIS], "fixedrange": True},
        "yaxis": {"title": {"text": "density"}, "automargin": True,
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
            "text": "softmax<br>saturates",
            "showarrow": False,
            "font": {"size": 11},
        }
    ]
    for side, share in off.items():
        if share >= 0.005:  # under half a percent reads as 0 %
            text = f"← {share:.0%} off the axis" if side == "left" else f"{share:.0%} off →"
            notes.append({"x": 0 if side == "left" else 1, "xref": "paper", "y": 0.2,
                          "yref": "paper", "xanchor": side, "text": f"<b>{text}</b>",
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
    bars = go.Bar(
        x=labels, y=w, marker={"color": COLOUR[scaled]}, name="weight",
        text=[f"{v:.2f}" for v in w], textposition="outside", cliponaxis=False,
        hovertemplate="%{x}: weight %{y:.4f}<extra></extra>",
    )  # fmt: skip
    uniform = 1 / w.size
    layout = {
        "title": {"text": f"One query: max weight {np.max(w):.2f}", "x": 0.0},
        "xaxis": {"title": {"text": "key"}, "type": "category", "automargin": True},
        "yaxis": {"title": {"text": "weight"}, "range": [0, 1.12], "automargin": True,
                  "tickvals": [0, 0.25, 0.5, 0.75, 1]},
        "shapes": [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y",
                    "y0": uniform, "y1": uniform,
                    "line": {"color": THEORY_COLOUR, "dash": "dot", "width": 1}}],
        "annotations": [{"x": 1.0, "xref": "paper", "xanchor": "left", "y": uniform,
                         "yref": "y", "showarrow": False, "align": "left",
                         "text": f"uniform<br>1/{w.size}", "font": {"size": 12}}],
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
            name=VARIANT[scaled],
            line={"color": COLOUR[scaled], "width": 3, "dash": "solid" if scaled else "dash"},
            marker={"size": 6, "symbol": "circle" if scaled else "square"},
            hovertemplate="d_k = %{x}: %{y:.3f}<extra>" + VARIANT[scaled] + "</extra>",
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
        "title": {"text": METRICS[metric], "x": 0.0, "y": 0.97, "yanchor": "top"},
        "xaxis": {"title": {"text": "d_k (log scale)"}, "type": "log", "automargin": True,
                  "tickvals": ticks.tolist(), "ticktext": tick_text, "tickangle": 0,
                  "tickfont": {"size": 12}},
        "yaxis": {"range": [-0.12 * top, top],  # the title names the metric
                  "automargin": True, "zeroline": True},
        "shapes": [{"type": "line", "xref": "x", "x0": d_k, "x1": d_k, "yref": "paper",
                    "y0": 0, "y1": 1, "line": {"color": "#555555", "width": 1, "dash": "dot"}}],
        "font": FONT, "height": 360, "margin": {**MARGIN, "t": 90, "r": 20},
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0.0},
    }  # fmt: skip
    return go.Figure(data=traces, layout=layout)


def _label_positions(values: FloatArray) -> list[str]:
    """Put the higher of two marker labels above its marker and the lower one below."""
    if values.size != 2:
        return ["middle left"] * values.size
    hi = int(np.argmax(values))
    return ["top left" if i == hi else "bottom left" for i in range(2)]
