"""The one way a figure reaches the page: st.plotly_chart with the app's settings and theme."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from attention_ui.frame import look
from attention_ui.views.cache import Lazy, ready, resolve

CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}
PHONE_CONFIG = {"displayModeBar": False}


def plot(figure: go.Figure | Lazy, key: str, **kwargs: object) -> object:
    """st.plotly_chart with the app's settings (PNG download kept, no logo), in the colours
    of the browser's theme (Streamlit's own chart theme is off: it would restyle the scales).

    ``figure``: a built figure (themed here, in place), a finished one from the cache, or
    ``lazy(build, ...)`` to reuse the finished figure any session built from the same
    inputs (``views.cache``).
    """
    figure = resolve(figure) if isinstance(figure, Lazy) else ready(figure)
    if look.phone():  # no toolbar over the title (touch screens always show it)
        kwargs = {"width": "content" if figure.layout.width else "stretch", **kwargs}
        return st.plotly_chart(figure, key=key, config=PHONE_CONFIG, theme=None, **kwargs)
    return st.plotly_chart(figure, key=key, config=CONFIG, theme=None, **kwargs)
