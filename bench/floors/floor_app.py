"""Streamlit's floor for a Plotly page (issue 11): a toggle that redraws one 6 x 6
go.Heatmap with its values printed in the cells. bench/floors/floor_text_app.py is the
text-only floor."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

st.title("floor")
flip = st.toggle("flip", key="floor_toggle")
z = np.arange(36, dtype=float).reshape(6, 6) / 7.0  # (6, 6)
z = -z if flip else z
labels = [f"t{i}" for i in range(6)]
heat = go.Heatmap(z=z, x=labels, y=labels, text=np.round(z, 2), texttemplate="%{text}")
st.plotly_chart(go.Figure(data=[heat], layout={"height": 400}), key="floor_heatmap")
