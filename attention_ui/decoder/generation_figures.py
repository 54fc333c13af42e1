"""Figures of the decoder at work (no Streamlit): the next token's distribution at a
temperature with its cut-offs, and one new query's weights over the KV cache."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from attention_ui.draw import figures as fig
from attention_ui.draw.phone import wrapped_title
from attention_ui.i18n import _

CUT_GREY = "#767676"  # a cut token's bar: 4.5:1 against white, a non-text contrast (WCAG 1.4.11)


def sampling_bars(
    tokens: Sequence[str],
    p: Sequence[float],
    own: Sequence[float],
    kept: int,
    title: str,
    phone: bool = False,
) -> go.Figure:
    """The likeliest tokens at the temperature (bars, likeliest on top, each number
    printed) with the model's own probabilities (T = 1) as diamonds; the first ``kept``
    bars survive top-k and top-p, the rest are grey behind a dashed line (the cut-off).

    tokens: the tokens' text with spaces made visible (learner text, escaped here)."""
    labels = [f"{k + 1}. {t}" for k, t in enumerate(fig.safe_labels(tokens))]
    colours = [fig.OKABE_ITO[0] if k < kept else CUT_GREY for k in range(len(labels))]
    bars = go.Bar(
        x=list(p),
        y=labels,
        orientation="h",
        marker_color=colours,
        name=_("at this temperature"),
        text=[f"{v:.3f}" for v in p],
        textposition="outside",
        cliponaxis=False,
        hovertemplate="%{y}: %{x:.4f}<extra></extra>",
    )
    diamonds = go.Scatter(
        x=list(own),
        y=labels,
        mode="markers",
        orientation="h",  # read as the bars are (describe.py: labels on y)
        name=_("the model's own (T = 1)"),
        marker={"symbol": "diamond", "size": 9, "color": fig.OKABE_ITO[1]},
        hovertemplate="%{y}: %{x:.4f}<extra>T = 1</extra>",
    )
    figure = go.Figure(data=[bars, diamonds])
    top = max([*p, *own, 1e-9])
    figure.update_layout(
        title={"text": fig.safe(title), "x": 0.0},
        font=fig.FONT,
        height=150 + 28 * len(labels),
        xaxis={
            "title": {"text": _("probability"), "standoff": 8},
            "range": [0, min(1.05, 1.25 * top)],
        },
        yaxis={"type": "category", "autorange": "reversed", "automargin": True},
        legend={"orientation": "h", "y": -0.18},
        margin={"l": 10, "r": 40, "t": 50, "b": 90},
    )
    if 0 < kept < len(labels):  # the cut-off between the last kept and the first cut bar
        figure.add_hline(
            y=kept - 0.5,
            line_dash="dash",
            line_color=fig.INK,
            annotation_text=_("cut-off"),
            annotation_position="bottom right",
        )
    return wrapped_title(figure) if phone else figure


def query_weights(keys: Sequence[str], weights: Sequence[float], title: str) -> go.Figure:
    """One new query's attention weights over the cached tokens (its own last), as bars."""
    labels = fig.safe_labels(keys)
    bar = go.Bar(
        x=labels,
        y=list(weights),
        marker_color=fig.OKABE_ITO[0],
        text=[f"{w:.2f}" for w in weights],
        textposition="outside",
        cliponaxis=False,
        hovertemplate="%{x}: %{y:.4f}<extra></extra>",
    )
    figure = go.Figure(data=[bar])
    figure.update_layout(
        title={"text": fig.safe(title), "x": 0.0},
        font=fig.FONT,
        height=330,
        xaxis={"title": {"text": _("key (cached tokens, then the new one)")}, "type": "category"},
        yaxis={
            "title": {"text": _("weight"), "standoff": 10},
            "range": [0, 1.15],
            "automargin": True,
        },
        margin={"l": 10, "r": 10, "t": 50, "b": 60},
    )
    return figure
