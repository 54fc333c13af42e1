"""How the page looks on this screen: the theme the figures follow, and phone-sized screens.

Figures are pure functions of their data and a ``figures.Palette``; this module decides
which palette (from the browser's theme) and whether the screen is a phone's, from what
Streamlit tells the server about the browser (st.context).
"""

from __future__ import annotations

import re

import streamlit as st

from attention_ui.figures import LIGHT, PALETTES, Palette

# Phones and small tablets say so in their user agent ("Mobile", "Android ... Mobile").
_PHONE = re.compile(r"Mobi|iPhone|iPod|Android.+Mobile", re.IGNORECASE)


def palette() -> Palette:
    """The figures' palette for the browser's Streamlit theme (light before the browser says).

    st.context.theme.type is what the browser reported with this run: the settings menu's
    choice, or the system's prefers-color-scheme when the app sets no theme base.
    """
    return PALETTES.get(st.context.theme.type or "light", LIGHT)


def phone() -> bool:
    """Whether the browser is a phone's (its user agent says so): figures print fewer digits."""
    agent = st.context.headers.get("User-Agent") or ""
    return bool(_PHONE.search(agent))
