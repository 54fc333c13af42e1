"""Streamlit's floor for a Plotly page (issue 11): a toggle that redraws one 6 x 6
go.Heatmap with its values printed in the cells. ``?only=text``: the text-only floor,
a slider that rewrites one line of text (no Plotly on the page)."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

st.title("floor")
if st.query_params.get("only") == "text":
    value = st.slider("value", 0, 100, 50, key="floor_slider")
    with st.container(key="floor_out"):
        st.write(f"value is {value}")
else:
    flip = st.toggle("flip", key="floor_toggle")
    z = np.arange(36, dtype=float).reshape(6, 6) / 7.0  # (6, 6)
    z = -z if flip else z
    labels = [f"t{i}" for i in range(6)]
    heat = go.Heatmap(z=z, x=labels, y=labels, text=np.round(z, 2), texttemplate="%{text}")
    st.plotly_chart(go.Figure(data=[heat], layout={"height": 400}), key="floor_heatmap")
