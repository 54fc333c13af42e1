"""The class's answers as a bar chart: right, each named slip, other (no Streamlit).

The bars come as the tally's English labels ("right", a named slip, "other"): the same in
every language, so they choose the colours; the chart shows them translated."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from attention_ui.draw.describe import Alternative
from attention_ui.draw.figures import FONT
from attention_ui.i18n import N_, _, ngettext

RIGHT_COLOUR, SLIP_COLOUR, OTHER_COLOUR = "#009E73", "#D55E00", "#999999"  # Okabe-Ito
LABEL_SIZE, TITLE_SIZE = 18, 22  # px
RIGHT, OTHER = N_("right"), N_("other")  # the tally's own labels (questions.Tally.bars)


def shown(label: str) -> str:
    """A bar's label in this run's language: right, other, or a named slip (its short name
    is the exercises' catalogue's, English where that has no translation)."""
    return _(label)


def tally_figure(bars: list[tuple[str, int]], answered: int, following: int | None) -> go.Figure:
    """One horizontal bar per outcome, largest slips first, with its count written on it."""
    labels = [label for label, _n in bars][::-1]  # top to bottom: right, slips, other
    counts = [n for _label, n in bars][::-1]
    colours = [RIGHT_COLOUR if lab == RIGHT else OTHER_COLOUR if lab == OTHER
               else SLIP_COLOUR for lab in labels]  # fmt: skip
    if following is None:
        title = ngettext("{answered} answered", "{answered} answered", answered)
    else:
        title = ngettext("{answered} answered of {n} following",
                         "{answered} answered of {n} following", answered)  # fmt: skip
    fig = go.Figure(go.Bar(
        x=counts, y=[shown(lab) for lab in labels], orientation="h", marker={"color": colours},
        text=[str(n) for n in counts], textposition="outside", cliponaxis=False,
        hovertemplate="%{y}: %{x}<extra></extra>",
    ))  # fmt: skip
    top = max([*counts, 1])
    fig.update_layout(  # projector-sized type: the class reads it from the back
        title={"text": title.format(answered=answered, n=following), "x": 0.0,
               "font": {"size": TITLE_SIZE}},
        font={**FONT, "size": LABEL_SIZE},
        height=90 + 44 * len(bars), margin={"l": 10, "r": 40, "t": 50, "b": 30},
        # automargin: the axis title goes below the ticks (18 px type hid a tick under it)
        xaxis={"range": [0, top * 1.15 + 0.5], "title": {"text": _("students"), "standoff": 6},
               "dtick": max(1, round(top / 5)), "automargin": True},
        yaxis={"automargin": True}, showlegend=False,
    )  # fmt: skip
    return fig


def tally_alternative(bars: list[tuple[str, int]], answered: int) -> Alternative:
    """The chart's text alternative and its numbers, for a screen reader (WCAG 1.1.1)."""
    parts = ", ".join(f"{shown(label)} {n}" for label, n in bars)
    table = pd.DataFrame({_("students"): [str(n) for _label, n in bars]},
                         index=pd.Index([shown(label) for label, _n in bars],
                                        name=_("answer")))  # fmt: skip
    words = ngettext("Bar chart of {answered} answer: {parts}.",
                     "Bar chart of {answered} answers: {parts}.", answered)  # fmt: skip
    return Alternative(_("The class's answers"), words.format(answered=answered, parts=parts),
                       table)  # fmt: skip
