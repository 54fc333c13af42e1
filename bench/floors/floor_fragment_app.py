"""The floor's toggle and 6 x 6 heatmap (bench/floors/floor_app.py), in an ``st.fragment``, beside
$FLOOR_EXTRA static elements outside it (captions, select boxes, markdown, expanders: what a
lab page holds around its pickers); $FLOOR_FULL=1 puts the toggle outside the fragment, so a
toggle reruns the whole page. bench/pages/floor_fragment.py sets them and times each server."""

import os

import numpy as np
import plotly.graph_objects as go
import streamlit as st

extra = int(os.environ.get("FLOOR_EXTRA", "0"))
full = os.environ.get("FLOOR_FULL") == "1"


def static(n: int) -> None:
    kinds = (lambda i: st.caption(f"caption {i}"),
             lambda i: st.selectbox(f"select {i}", ["a", "b"], key=f"sel_{i}"),
             lambda i: st.markdown(f"**markdown** {i}"),
             lambda i: st.expander(f"expander {i}").write("inside"))  # fmt: skip
    for i in range(n):
        kinds[i % len(kinds)](i)


def grid() -> None:
    flip = st.toggle("flip", key="floor_toggle")
    z = np.arange(36, dtype=float).reshape(6, 6) / 7.0  # (6, 6)
    z = -z if flip else z
    labels = [f"t{i}" for i in range(6)]
    heat = go.Heatmap(z=z, x=labels, y=labels, text=np.round(z, 2), texttemplate="%{text}")
    st.plotly_chart(go.Figure(data=[heat], layout={"height": 400}), key="floor_heatmap")


st.title("floor in a fragment")
static(extra)
(grid if full else st.fragment(grid))()
