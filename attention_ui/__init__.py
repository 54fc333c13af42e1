"""Presentation layer: Plotly figures (pure functions), Streamlit widgets, session and URL state.

Imports point down only: attention_ui uses attention_core; app_pages use both.
"""
