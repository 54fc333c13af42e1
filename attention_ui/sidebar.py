"""The sidebar every page shares: preset picker and the share link."""

from __future__ import annotations

import streamlit as st

from attention_core import PRESETS
from attention_ui import state


def render() -> None:
    with st.sidebar:
        if st.session_state.get(state.URL_ERROR):
            st.warning(st.session_state[state.URL_ERROR])
        scenario = state.get_scenario()
        st.caption(f"Scenario: **{scenario.name or 'your own'}**")
        keys = list(PRESETS)
        choice = st.selectbox(
            "Load a preset",
            keys,
            index=None,
            format_func=lambda k: PRESETS[k].title,
            key="preset_choice",
            placeholder="Choose an example...",
        )
        if choice is not None and st.button("Load", key="preset_load"):
            state.load_preset(choice)
            st.rerun()
