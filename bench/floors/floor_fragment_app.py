"""The floor's toggle and 6 x 6 heatmap (bench/floors/floor_app.py), in an ``st.fragment``, beside
$FLOOR_EXTRA static elements outside it (captions, select boxes, markdown, expanders: what a
lab page holds around its pickers); $FLOOR_FULL=1 puts the toggle outside the fragment, so a
toggle reruns the whole page. bench/pages/floor_fragment.py sets them and times each server."""

import os

import streamlit as st

from bench.floors.grid import heatmap_toggle

extra = int(os.environ.get("FLOOR_EXTRA", "0"))
full = os.environ.get("FLOOR_FULL") == "1"


def static(n: int) -> None:
    kinds = (lambda i: st.caption(f"caption {i}"),
             lambda i: st.selectbox(f"select {i}", ["a", "b"], key=f"sel_{i}"),
             lambda i: st.markdown(f"**markdown** {i}"),
             lambda i: st.expander(f"expander {i}").write("inside"))  # fmt: skip
    for i in range(n):
        kinds[i % len(kinds)](i)


st.title("floor in a fragment")
static(extra)
(heatmap_toggle if full else st.fragment(heatmap_toggle))()
