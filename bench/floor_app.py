"""Streamlit's floor: the smallest app with a widget, to measure what any rerun costs here."""

import streamlit as st

st.title("floor")
value = st.slider("value", 0, 100, 50, key="floor_slider")
with st.container(key="floor_out"):
    st.write(f"value is {value}")
