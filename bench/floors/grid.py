"""The floor's one interaction, for the floor apps to share: a toggle that redraws one 6 x 6
``go.Heatmap`` with its values printed in the cells (nothing of the app's code)."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st


def heatmap_toggle() -> None:
    flip = st.toggle("flip", key="floor_toggle")
    z = np.arange(36, dtype=float).reshape(6, 6) / 7.0  # (6, 6)
    z = -z if flip else z
    labels = [f"t{i}" for i in range(6)]
    heat = go.Heatmap(z=z, x=labels, y=labels, text=np.round(z, 2), texttemplate="%{text}")
    st.plotly_chart(go.Figure(data=[heat], layout={"height": 400}), key="floor_heatmap")
