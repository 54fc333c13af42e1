"""The fair floor for a sidebar page switch (issue 21): a two-page Streamlit app, one 6 x 6
go.Heatmap with its values printed on each page, switched through Streamlit's own sidebar
menu. A page switch cannot be cheaper than this: Streamlit clears the old page and mounts
the new one's chart afresh."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st


def _page(sign: float, key: str):
    def draw() -> None:
        st.title(key)
        z = sign * np.arange(36, dtype=float).reshape(6, 6) / 7.0  # (6, 6)
        labels = [f"t{i}" for i in range(6)]
        heat = go.Heatmap(z=z, x=labels, y=labels, text=np.round(z, 2), texttemplate="%{text}")
        st.plotly_chart(go.Figure(data=[heat], layout={"height": 400}), key=f"{key}_heatmap")

    return draw


st.navigation([st.Page(_page(1.0, "one"), title="one", url_path="one", default=True),
               st.Page(_page(-1.0, "two"), title="two", url_path="two")]).run()  # fmt: skip
