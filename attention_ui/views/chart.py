"""The one way a figure reaches the page: st.plotly_chart with the app's settings and theme,
its text alternative as the chart's accessible name, and its numbers as a table on demand."""

from __future__ import annotations

import re
from contextlib import AbstractContextManager, nullcontext

import plotly.graph_objects as go
import streamlit as st

from attention_ui.draw.describe import Alternative, alternative
from attention_ui.draw.text import md_escape
from attention_ui.draw.widths import min_width
from attention_ui.frame import look
from attention_ui.frame.widgets import static_table
from attention_ui.i18n import _
from attention_ui.views.cache import Finished, Lazy, ready, resolve

CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}
PHONE_CONFIG = {"displayModeBar": False}


def plot(
    figure: go.Figure | Lazy,
    key: str,
    alt: str | Alternative | None = None,
    table: bool = True,
    toolbar: bool = True,
    **kwargs: object,
) -> object:
    """st.plotly_chart with the app's settings (PNG download kept, no logo), in the colours
    of the browser's theme (Streamlit's own chart theme is off: it would restyle the scales).

    ``figure``: a built figure (themed here, in place), a finished one from the cache, or
    ``lazy(build, ...)`` to reuse the finished figure any session built from the same
    inputs (``views.cache``).

    Accessibility (WCAG 1.1.1, 1.3.1): the text alternative computed from the figure
    (``describe.alternative``) becomes the chart's accessible name (Streamlit puts it on
    the chart as role=figure with an aria-label); ``toolbar``: Plotly's, shown while the
    pointer rests on the chart (never on a phone, nor on a projected slide, where it covered
    the title); with ``table``, a closed expander under
    the chart holds its numbers as a table (``numbers``). ``alt`` replaces the text (a
    string) or both (an ``Alternative``) where the figure alone cannot say it.
    """
    figure = resolve(figure) if isinstance(figure, Lazy) else ready(figure)
    described = alt if isinstance(alt, Alternative) else described_by(figure)
    name = alt if isinstance(alt, str) else described.text
    # a figure that asks for its width (a heatmap's square cells) gets it; a phone gets no
    # toolbar over the title (touch screens always show it)
    kwargs = {"width": "content" if figure.layout.width else "stretch", **kwargs}
    config = CONFIG if toolbar and not look.phone() else PHONE_CONFIG
    with sideways(min_width(figure), key, stretch=kwargs.get("height") == "stretch"):
        chart = st.plotly_chart(figure, key=key, config=config, theme=None, alt=name, **kwargs)
    if table:
        numbers(described, key)
    return chart


SAFE_KEY = re.compile(r"[A-Za-z0-9_-]+")
SIDEWAYS = "__sideways"  # the key suffix of a chart's own box that scrolls (frame/look SCROLLERS)


def sideways(least: int | None, key: str, stretch: bool = False) -> AbstractContextManager[object]:
    """Where chart ``key`` goes: a box of its own that scrolls sideways when the figure may
    not be drawn narrower than ``least`` px and the page gives less (Streamlit fits a chart
    to its column whatever width the figure asks, and 64 columns on a phone ran their labels
    together), else the page itself. The chart's element is held at ``least`` px, so
    Streamlit draws it that wide; the box is then a keyboard stop with a name."""
    if least is None or not SAFE_KEY.fullmatch(key):
        return nullcontext()
    st.html(f"<style>.st-key-{key}{SIDEWAYS} {{ overflow-x: auto; }} "
            f".st-key-{key} {{ min-width: {least}px; }}</style>")  # fmt: skip
    # ``stretch``: a chart stretched to its parent's height (a slide's) is stretched to the
    # box's, and the box to the parent's
    return st.container(key=key + SIDEWAYS, height="stretch" if stretch else "content")


def described_by(figure: go.Figure) -> Alternative:
    """The figure's text alternative; a finished (cached, never changed) figure keeps its own."""
    if isinstance(figure, Finished):
        found = getattr(figure, "_alternative", None)
        if found is None:
            found = figure._alternative = alternative(figure)
        return found
    return alternative(figure)


def numbers(described: Alternative, key: str) -> None:
    """The figure's numbers in a lazy expander: the table is sent only while it is open.

    st.table writes Markdown in its cells, so every header and cell is escaped.
    """
    if described.table is None:
        return
    label = _("Numbers: {name}").format(name=md_escape(described.name))
    box = st.expander(label, key=f"{key}_numbers", on_change="rerun")
    if box.open is False:
        return
    with box:
        table(described)


def numbers_of_parts(parts: list[Alternative], key: str) -> None:
    """A chart made of several figures (its panels): one lazy expander for the chart, with
    each part's numbers under the part's name. One expander, not one per panel: every
    element is sent and drawn again on each rerun (the Scaling lab's slider redrew seven)."""
    if all(p.table is None for p in parts):
        return
    title = "; ".join(md_escape(p.name) for p in parts)
    box = st.expander(_("Numbers: {name}").format(name=title), key=f"{key}_numbers",
                      on_change="rerun")  # fmt: skip
    if box.open is False:
        return
    with box:
        for part in parts:
            if part.table is not None:
                st.markdown(f"**{md_escape(part.name)}**")
                table(part)


def table(described: Alternative) -> None:
    """The figure's numbers as a static table (``widgets.static_table``: every cell escaped)."""
    if described.table is not None:
        static_table(described.table)
