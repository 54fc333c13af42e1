"""Figures of the Decoder lab (no Streamlit): next tokens, 270 heads, RoPE, grouped queries.

SmolLM2 has 30 layers of 9 query heads, so a one-number-per-head grid is 30 rows x 9
columns (rows are layers, columns heads, 1-based as the page counts). Tokens are learner
text: every label goes through ``figures.safe``. Figures that carry their own width for a
phone (``phone=True``) are left as they are by figures.for_phone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from attention_core.decoder import DECODER_PATTERN_NAMES
from attention_core.types import FloatArray
from attention_ui.draw import figures as fig
from attention_ui.draw.phone import wrapped_title
from attention_ui.i18n import N_, _

LABEL_FONT = {"size": 10, "color": "#333333"}
# One layer's row of small maps, its name's two lines under it included (a phone: one line).
GALLERY_ROW_PX, PHONE_ROW_PX = 110, 60
ONE_LINE = 12  # characters of a pattern's name that fit under a desktop map on one line
PHONE_MAP_PX = 40  # each map's width on a phone (the page scrolls sideways)
GRID_ROW_PX, PHONE_GRID_ROW_PX = 24, 18  # one layer's row of a 30 x 9 grid
PHONE_WIDTH = 350
# One colour per pattern (Okabe-Ito, colour-blind safe); grey for no single clear pattern.
PATTERN_COLOURS = ("#DDDDDD", "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9")
SHORT = {"first-token sink": N_("sink"), "previous token": N_("prev"),
         "current token": N_("self"), "same word": N_("word"), "broad": N_("broad"),
         "": ""}  # a pattern's short name on a phone (English; shown translated)  # fmt: skip


def layer_names(first: int, n: int) -> list[str]:
    return [f"L{first + i + 1}" for i in range(n)]


def head_names(n: int) -> list[str]:
    return [f"H{i + 1}" for i in range(n)]


def two_lines(name: str) -> str:
    """A pattern's name under a small map: on two lines, split at the space that makes the
    longer line shortest, when it is longer than ONE_LINE ("Senke erstes Token" ran into
    its neighbour's name in German, "first-token sink" nearly did in English)."""
    words = name.split(" ")
    if len(name) <= ONE_LINE or len(words) < 2:
        return name
    cuts = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    first, rest = min(cuts, key=lambda c: max(len(c[0]), len(c[1])))
    return f"{first}<br>{rest}"


def _title(text: str) -> dict:
    return {"text": fig.safe(text), "x": 0.0}


# ---- what comes next ----
def next_tokens_bar(
    tokens: Sequence[str], probs: Sequence[float], title: str, phone: bool = False
) -> go.Figure:
    """The likeliest next tokens as horizontal bars, likeliest on top, each probability
    printed. tokens: the tokens' text with spaces made visible (learner-visible text)."""
    labels = [f"{k + 1}. {t}" for k, t in enumerate(fig.safe_labels(tokens))]
    bar = go.Bar(x=list(probs), y=labels, orientation="h", marker_color=fig.OKABE_ITO[0],
                 text=[f"{p:.3f}" for p in probs], textposition="outside", cliponaxis=False,
                 hovertemplate="%{y}: %{x:.4f}<extra></extra>")  # fmt: skip
    layout = {
        "title": _title(title),
        "font": fig.FONT,
        "height": 120 + 30 * len(labels),
        "xaxis": {
            "title": {"text": _("probability"), "standoff": 8},
            "range": [0, min(1.0, 1.2 * max(probs))],
        },
        "yaxis": {"type": "category", "autorange": "reversed", "automargin": True},
        "margin": {"l": 10, "r": 40, "t": 50, "b": 60},
    }
    figure = go.Figure(data=[bar], layout=layout)
    return wrapped_title(figure) if phone else figure


# ---- every head ----
def pattern_map(
    codes: np.ndarray, names: Sequence[Sequence[str]], title: str, phone: bool = False
) -> go.Figure:
    """Every head's computed pattern: a cell per head, one colour per pattern, its short name
    written in the cell (in the session's language). codes (n_layers, n_heads):
    data.PATTERN_CODES; names: the core's English pattern names."""
    n_layers, n_heads = codes.shape
    k = len(PATTERN_COLOURS)
    scale = [[pos, c] for i, c in enumerate(PATTERN_COLOURS) for pos in (i / k, (i + 1) / k)]
    text = [[_(SHORT.get(x, x)) for x in row] for row in names]
    heat = go.Heatmap(
        z=codes,
        x=head_names(n_heads),
        y=layer_names(0, n_layers),
        text=text,
        texttemplate="%{text}",
        textfont={"size": 9 if phone else 11},
        zmin=-0.5,
        zmax=k - 0.5,
        colorscale=scale,
        showscale=False,
        xgap=1,
        ygap=1,
        hovertemplate=_("layer") + " %{y}, " + _("head") + " %{x}: %{text}<extra></extra>",
    )
    legend = "  ".join(
        f"<span style='color:{c}'>■</span> {_(n)}"
        for c, n in zip(PATTERN_COLOURS[1:], DECODER_PATTERN_NAMES.values(), strict=True)
    )
    layout = {
        "title": _title(title),
        "font": {"size": 12} if phone else fig.FONT,
        "height": 110 + (PHONE_GRID_ROW_PX if phone else GRID_ROW_PX) * n_layers,
        "width": PHONE_WIDTH if phone else None,
        "margin": {"l": 10, "r": 10, "t": 80, "b": 10},
        "xaxis": {"side": "top", "type": "category"},
        "yaxis": {"type": "category", "autorange": "reversed", "automargin": True},
        "annotations": []
        if phone
        else [
            {
                "text": legend,
                "xref": "paper",
                "yref": "paper",
                "x": 0,
                "y": 1.0,
                "yanchor": "bottom",
                "yshift": 22,
                "showarrow": False,
                "xanchor": "left",
                "font": {"size": 12},
            }
        ],
    }
    return go.Figure(data=[heat], layout=layout)


def gallery(
    weights: FloatArray,
    names: Sequence[Sequence[str]],
    first_layer: int,
    title: str,
    phone: bool = False,
) -> go.Figure:
    """Some layers' heads as small weight maps in one heatmap trace (far cheaper in the
    browser than a subplot each), a row per layer, a column per head, the pattern name
    under each map. weights (layers, n_heads, n, n) on 0..1; first_layer: 0-based."""
    n_layers, n_heads, n = weights.shape[:3]
    gap = math.ceil((0.25 if phone else 0.3) * n) + 1  # rows of space under each map for its name
    step_x, step_y = n + 1, n + gap
    z = np.full((n_layers * step_y, n_heads * step_x - 1), np.nan, dtype=np.float32)
    for layer in range(n_layers):
        for head in range(n_heads):
            z[layer * step_y : layer * step_y + n, head * step_x : head * step_x + n] = weights[
                layer, head
            ]  # (n, n): the upper triangle is 0 (dark)
    heat = go.Heatmap(
        z=z,
        colorscale=fig.SEQUENTIAL,
        zmin=0.0,
        zmax=1.0,
        showscale=False,
        hovertemplate=_("weight") + " %{z:.3f}<extra></extra>",
        hoverongaps=False,
    )
    # names: English pattern names, short ones on a phone (data.head_names); shown translated
    short = (lambda x: _(SHORT.get(x, x))) if phone else (lambda x: two_lines(_(x)))
    labels = [
        {
            "x": h * step_x + (n - 1) / 2,
            "y": layer * step_y + n - 0.5,
            "yanchor": "top",
            "text": short(names[layer][h]),
            "showarrow": False,
            "font": LABEL_FONT,
        }
        for layer in range(n_layers)
        for h in range(n_heads)
        if names[layer][h]
    ]
    layout = {
        "title": _title(title),
        "font": {"size": 11} if phone else fig.FONT,
        "height": 80 + (PHONE_ROW_PX if phone else GALLERY_ROW_PX) * n_layers,
        "width": 40 + PHONE_MAP_PX * n_heads if phone else None,
        "margin": {"l": 10, "r": 10, "t": 60, "b": 10},
        "plot_bgcolor": "#FFFFFF",
        "annotations": labels,
        "xaxis": {
            "side": "top",
            "tickvals": [h * step_x + (n - 1) / 2 for h in range(n_heads)],
            "ticktext": head_names(n_heads),
            "showgrid": False,
            "zeroline": False,
            "range": [-0.5, z.shape[1] - 0.5],
        },
        "yaxis": {
            "tickvals": [la * step_y + (n - 1) / 2 for la in range(n_layers)],
            "ticktext": layer_names(first_layer, n_layers),
            "showgrid": False,
            "zeroline": False,
            "range": [z.shape[0] - 0.5, -0.5],
            "automargin": True,
        },
    }
    return go.Figure(data=[heat], layout=layout)


def head_grid(
    values: FloatArray,
    title: str,
    colorbar_title: str | None = None,
    pick: tuple[int, int] | None = None,
    text: Sequence[Sequence[str]] | None = None,
    phone: bool = False,
) -> go.Figure:
    """values (n_layers, n_heads) on 0..1, one cell per head; ``pick`` outlines one head.

    ``text`` (escaped here) is printed in the cells (not on a phone); without it the values
    show on hover only: 270 printed numbers were half of a token pick's time in the browser
    (bench/RESULTS.md, "Decoder"), so the page lists the top heads' numbers in a table.
    """
    n_layers, n_heads = np.shape(values)
    cells = (
        [[f"{v:.2f}" for v in row] for row in np.asarray(values).tolist()]
        if text is None
        else [[fig.safe(x) for x in row] for row in text]
    )
    heat = go.Heatmap(
        z=values,
        x=head_names(n_heads),
        y=layer_names(0, n_layers),
        text=cells,
        texttemplate="" if phone or text is None else "%{text}",
        textfont={"size": 10},
        colorscale=fig.SEQUENTIAL,
        zmin=0.0,
        zmax=1.0,
        xgap=1,
        ygap=1,
        colorbar={"title": {"text": colorbar_title or _("weight")},
                  "thickness": 8 if phone else 14},
        hovertemplate=_("layer") + " %{y}, " + _("head") + " %{x}: %{text}<extra></extra>",
    )  # fmt: skip
    outline = [] if pick is None else [{
        "type": "rect", "x0": pick[1] - 0.5, "x1": pick[1] + 0.5, "y0": pick[0] - 0.5,
        "y1": pick[0] + 0.5, "line": {"color": "#D55E00", "width": 3}}]  # fmt: skip
    layout = {
        "title": _title(title),
        "font": {"size": 12} if phone else fig.FONT,
        "height": 100 + (PHONE_GRID_ROW_PX if phone else GRID_ROW_PX) * n_layers,
        "width": PHONE_WIDTH if phone else None,
        "margin": {"l": 10, "r": 10, "t": 60, "b": 10},
        "xaxis": {"side": "top", "type": "category"},
        "yaxis": {"type": "category", "autorange": "reversed", "automargin": True},
        "shapes": outline,
    }
    figure = go.Figure(data=[heat], layout=layout)
    return wrapped_title(figure) if phone else figure


# ---- one head: RoPE and grouped queries ----
def rope_distance(
    distances: np.ndarray,
    scores: np.ndarray,
    plain: float,
    actual: tuple[int, float],
    title: str,
    phone: bool = False,
) -> go.Figure:
    """The scaled score of one query-key pair as the distance between them changes (RoPE),
    against the same pair without RoPE (flat), the head's real distance marked."""
    curve = go.Scatter(
        x=distances,
        y=scores,
        mode="lines",
        name=_("with RoPE"),
        line={"color": fig.OKABE_ITO[0], "width": 2},
        hovertemplate=_("distance") + " %{x}: %{y:.3f}<extra></extra>",
    )
    flat = go.Scatter(
        x=[distances[0], distances[-1]],
        y=[plain, plain],
        mode="lines",
        name=_("without RoPE"),
        line={"color": fig.OKABE_ITO[1], "dash": "dash"},
    )
    here = go.Scatter(
        x=[actual[0]],
        y=[actual[1]],
        mode="markers+text",
        name=_("in this prompt"),
        marker={"color": fig.OKABE_ITO[3], "size": 12, "symbol": "diamond"},
        text=[f"{actual[1]:.2f}"],
        textposition="top center",
        cliponaxis=False,
    )
    layout = {
        "title": _title(title),
        "font": fig.FONT,
        "height": 380,
        "xaxis": {"title": {"text": _("distance: query position − key position")}},
        "yaxis": {"title": {"text": _("scaled score") + " q·k / 8"}, "automargin": True},
        "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 1, "xanchor": "right"},
        "margin": {"l": 10, "r": 10, "t": 80, "b": 60},
    }
    figure = go.Figure(data=[curve, flat, here], layout=layout)
    return wrapped_title(figure) if phone else figure


def gqa_diagram(n_heads: int, n_kv_heads: int, pick: int, title: str) -> go.Figure:
    """Which query heads share which key/value head: 9 query heads on top, 3 key/value heads
    below, a line from each query head to the one it reads; the picked head and its group
    drawn strong, the others faint."""
    group = n_heads // n_kv_heads
    mine = pick // group
    xq = np.arange(n_heads, dtype=float)
    xkv = (np.arange(n_kv_heads) * group + (group - 1) / 2).astype(float)  # under their group
    lines = [
        go.Scatter(
            x=[xq[h], xkv[h // group]],
            y=[1, 0],
            mode="lines",
            hoverinfo="skip",
            showlegend=False,
            line={
                "color": fig.OKABE_ITO[0] if h // group == mine else "#BBBBBB",
                "width": 3 if h == pick else 1.5,
            },
        )
        for h in range(n_heads)
    ]
    colours = [
        fig.OKABE_ITO[3] if h == pick else fig.OKABE_ITO[0] if h // group == mine else "#BBBBBB"
        for h in range(n_heads)
    ]
    queries = go.Scatter(
        x=xq,
        y=[1] * n_heads,
        mode="markers+text",
        showlegend=False,
        marker={"size": 26, "color": colours, "symbol": "square"},
        text=[f"Q{h + 1}" for h in range(n_heads)],
        textposition="top center",
        cliponaxis=False,
        hovertemplate=_("query head") + " %{text}<extra></extra>",
    )
    kv_colours = [fig.OKABE_ITO[0] if g == mine else "#BBBBBB" for g in range(n_kv_heads)]
    kvs = go.Scatter(
        x=xkv,
        y=[0] * n_kv_heads,
        mode="markers+text",
        showlegend=False,
        marker={"size": 34, "color": kv_colours, "symbol": "square"},
        text=[f"K/V {g + 1}" for g in range(n_kv_heads)],
        textposition="bottom center",
        cliponaxis=False,
        hovertemplate=_("key/value head") + " %{text}<extra></extra>",
    )
    hidden = {"visible": False, "fixedrange": True}
    layout = {
        "title": _title(title),
        "font": fig.FONT,
        "height": 260,
        "xaxis": hidden | {"range": [-0.7, n_heads - 0.3]},
        "yaxis": hidden | {"range": [-0.45, 1.35]},
        "margin": {"l": 10, "r": 10, "t": 50, "b": 30},
        "plot_bgcolor": "rgba(0,0,0,0)",
    }
    return go.Figure(data=[*lines, queries, kvs], layout=layout)


def compact_map(
    W: FloatArray, labels: Sequence[str], title: str, causal: bool, showscale: bool = True
) -> go.Figure:
    """A weight map (n, n) on 0..1 with no numbers in its cells (hover shows them), for maps
    drawn two or three abreast; a causal one has its upper cells grey (masked)."""
    z = np.asarray(W, dtype=float)
    if causal:
        z = np.where(np.tril(np.ones(z.shape, dtype=bool)), z, np.nan)
    ticks = fig.safe_labels(labels)
    heat = go.Heatmap(
        z=z,
        x=ticks,
        y=ticks,
        colorscale=fig.SEQUENTIAL,
        zmin=0.0,
        zmax=1.0,
        xgap=1,
        ygap=1,
        showscale=showscale,
        hoverongaps=False,
        colorbar={"title": {"text": _("weight")}, "thickness": 12},
        hovertemplate=_("query") + " %{y} → " + _("key") + " %{x}: %{z:.3f}<extra></extra>",
    )
    top = fig.TITLE_ROOM + 16 + 8 * max(len(t) for t in labels)  # room for the upright keys
    layout = {
        "title": fig.TITLE | {"text": fig.safe(title)},
        "font": fig.FONT,
        "height": top + 40 + 22 * z.shape[0],
        "plot_bgcolor": fig.MASKED_BG,
        "xaxis": {"side": "top", "type": "category", "tickangle": -90},
        "yaxis": {
            "type": "category",
            "autorange": "reversed",
            "automargin": True,
            "title": {"text": _("query")},
        },
        "margin": {"l": 10, "r": 10, "t": top, "b": 10},
    }
    return go.Figure(data=[heat], layout=layout)


def group_weights(
    weights: Sequence[FloatArray], labels: Sequence[str], heads: Sequence[int], pick: int
) -> list[go.Figure]:
    """The weights of the query heads of one group, side by side: the same K and V, three
    different queries, three different maps. weights[i] (n, n) of head heads[i] (0-based)."""
    return [
        compact_map(
            W,
            labels,
            (_("Head {h} (this one)") if h == pick else _("Head {h}")).format(h=h + 1),
            causal=True,
            showscale=False,
        )
        for W, h in zip(weights, heads, strict=True)
    ]


def mean_attention(W: FloatArray, labels: Sequence[str], title: str, causal: bool) -> go.Figure:
    """One model's average head (n, n) on 0..1: the encoder's full, the decoder's
    lower-triangular (its upper cells greyed: masked)."""
    return compact_map(W, labels, title, causal)
