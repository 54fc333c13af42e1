"""A fair floor for the Multi-head head count (issue 21): a toggle between 4 and 2 heads
that redraws only what a head count change must redraw, the split W_Q, W_K, W_V and every
head's weights (the lab's own two figures, themed as the app does), and nothing else."""

import streamlit as st

from attention_core import PRESETS, shapes
from attention_core.heads import multi_head_trace
from attention_ui.draw import figures as fig
from attention_ui.multi_head import figures as mf
from attention_ui.views.cache import finish

st.title("floor: heads")
flip = st.toggle("flip", key="floor_toggle")
s = shapes.with_heads(PRESETS["two_heads"].build(), 2 if flip else 4)
mh, labels = multi_head_trace(s), list(s.query_labels)
Ws = {n: getattr(s, f"W_{n.lower()}") for n in "QKV"}
split = mf.split_figure(Ws, mh.n_heads)
heads = mf.heads_figure([h.weights for h in mh.heads], [h.mask for h in mh.heads], labels,
                        labels, mh.d_head)  # fmt: skip
st.plotly_chart(finish(split, fig.LIGHT, False), key="floor_split", theme=None)
st.plotly_chart(finish(heads, fig.LIGHT, False), key="floor_heatmap", theme=None)
