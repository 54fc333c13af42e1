"""Streamlit's floor for a Plotly page (issue 11): a toggle that redraws one 6 x 6
go.Heatmap with its values printed in the cells. bench/floors/floor_text_app.py is the
text-only floor."""

import streamlit as st

from bench.floors.grid import heatmap_toggle

st.title("floor")
heatmap_toggle()
