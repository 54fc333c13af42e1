"""Streamlit's text-only floor: a slider that rewrites one line of text (no Plotly)."""

import streamlit as st

st.title("floor")
value = st.slider("value", 0, 100, 50, key="floor_slider")
with st.container(key="floor_out"):
    st.write(f"value is {value}")
