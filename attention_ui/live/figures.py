"""The class's answers as a bar chart: right, each named slip, other (no Streamlit)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from attention_ui.draw.describe import Alternative
from attention_ui.draw.figures import FONT

RIGHT_COLOUR, SLIP_COLOUR, OTHER_COLOUR = "#009E73", "#D55E00", "#999999"  # Okabe-Ito
LABEL_SIZE, TITLE_SIZE = 18, 22  # px


def tally_figure(bars: list[tuple[str, int]], answered: int, following: int | None) -> go.Figure:
    """One horizontal bar per outcome, largest slips first, with its count written on it."""
    labels = [label for label, _ in bars][::-1]  # top to bottom: right, slips, other
    counts = [n for _, n in bars][::-1]
    colours = [RIGHT_COLOUR if lab == "right" else OTHER_COLOUR if lab == "other"
               else SLIP_COLOUR for lab in labels]  # fmt: skip
    of = f" of {following} following" if following is not None else ""
    fig = go.Figure(go.Bar(
        x=counts, y=labels, orientation="h", marker={"color": colours},
        text=[str(n) for n in counts], textposition="outside", cliponaxis=False,
        hovertemplate="%{y}: %{x}<extra></extra>",
    ))  # fmt: skip
    top = max([*counts, 1])
    fig.update_layout(  # projector-sized type: the class reads it from the back
        title={"text": f"{answered} answered{of}", "x": 0.0, "font": {"size": TITLE_SIZE}},
        font={**FONT, "size": LABEL_SIZE},
        height=90 + 44 * len(bars), margin={"l": 10, "r": 40, "t": 50, "b": 30},
        # automargin: the axis title goes below the ticks (18 px type hid a tick under it)
        xaxis={"range": [0, top * 1.15 + 0.5], "title": {"text": "students", "standoff": 6},
               "dtick": max(1, round(top / 5)), "automargin": True},
        yaxis={"automargin": True}, showlegend=False,
    )  # fmt: skip
    return fig


def tally_alternative(bars: list[tuple[str, int]], answered: int) -> Alternative:
    """The chart's text alternative and its numbers, for a screen reader (WCAG 1.1.1)."""
    parts = ", ".join(f"{label} {n}" for label, n in bars)
    table = pd.DataFrame({"students": [str(n) for _, n in bars]},
                         index=pd.Index([label for label, _ in bars], name="answer"))  # fmt: skip
    return Alternative("The class's answers", f"Bar chart of {answered} answers: {parts}.", table)
