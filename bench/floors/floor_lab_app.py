"""A lab's head pick in bare Streamlit: what the pick would cost with none of the app's code
around it (bench/pages/floor_lab.py times it against the floor and the Real model lab).

$FLOOR_LAB chooses how much of a head pick's content the fragment holds:

- ``grid``: a Head select box and a bare 15 x 15 ``go.Heatmap`` (no printed numbers, a
  hover box), the size of a real sentence's grid;
- ``figure``: the same select box and the app's own score chart for a 15 x 15 grid
  (``draw.figures.heatmap`` drawn by ``views.chart.plot``: labels, colour bar, the outlined
  picked cell, the click layer's hover, the text alternative, the lazy Numbers expander);
- ``page``: what the Real model's head pick reruns, element for element, in bare Streamlit:
  the layer and head select boxes, the pattern caption, six tabs (only Scores drawn), the
  caption, the figure, the query and key select boxes, the breakdown's title, formula and
  expander, the CSV button, the code expander, and "Open in the walkthrough" with its caption.

The numbers are random (seeded by the head): only their drawing is measured.
"""

import os

import numpy as np
import streamlit as st

from attention_ui.draw.figures import heatmap
from attention_ui.views.chart import plot

LEVEL = os.environ.get("FLOOR_LAB", "page")
# Parts of "page" left out, by name; "+frame" adds the app's frame (its CSS and script).
DROP = set(os.environ.get("FLOOR_LAB_DROP", "").split(","))
N = int(os.environ.get("FLOOR_LAB_N", "15"))  # tokens: MiniLM's sentence 15, the decoder's 13
D_K = 32 if N == 15 else 64  # MiniLM's head size, SmolLM2's
TOKENS = [f"tok{i}" for i in range(N)]
TABS = ["Q, K, V", "Scores", "Scaling", "Mask", "Softmax", "Output"]


def grid(head: int, pick: tuple[int, int]) -> None:
    z = np.random.default_rng(head).normal(size=(N, N)) * 3  # (15, 15)
    if LEVEL == "grid":
        import plotly.graph_objects as go

        figure = go.Figure(go.Heatmap(z=z, x=TOKENS, y=TOKENS), layout={"height": 560})
        st.plotly_chart(figure, key="floor_lab_chart")
        return
    figure = heatmap(z, TOKENS, TOKENS, f"Raw scores Q Kᵀ ({N} × {N})", highlight=pick,
                     colorbar_title="score", clickable=True)  # fmt: skip
    plot(figure, key="floor_lab_chart")  # the app's chart: its theme, toolbar, alt, Numbers


def breakdown(head: int) -> None:
    rng = np.random.default_rng(head)
    q, k = rng.normal(size=D_K), rng.normal(size=D_K)  # (32,) each
    shown = " + ".join(f"({a:.2f})({b:.2f})" for a, b in zip(q[:4], k[:4], strict=True))
    st.markdown("**Score of query tok3 against key tok5**")
    st.latex(rf"q_{{4}} \cdot k_{{6}} = {shown} + \dots = {q @ k:.3f}")
    with st.expander(f"All {D_K} terms"):
        st.write("the terms")


def pickers() -> tuple[int, int]:
    left, right = st.columns(2)
    layer = left.selectbox("Layer", range(1, 7), key="floor_lab_layer")
    head = right.selectbox("Head", range(1, 13), key="floor_lab_head")
    return layer, head


@st.fragment
def head_section() -> None:
    """Pickers, then the stage tabs: a head pick resends the tab bar too."""
    layer, head = pickers()
    if LEVEL != "page":
        grid(layer * 100 + head, (3, 5))
        return
    caption(layer, head)
    if "seg" in DROP:  # the stage as a segmented control above a plain container
        st.segmented_control("Stage", TABS, default="Scores", key="floor_lab_stage")
    box = (
        st.container()
        if "tabs" in DROP or "seg" in DROP
        else st.tabs(TABS, key="floor_lab_tabs", on_change="rerun", default="Scores")[1]
    )
    with box:
        scores_stage(layer, head)
    open_button(layer, head)


@st.fragment
def head_in_tab() -> None:
    """ "tabs_out": the tab bar outside, the pickers and the stage inside the open tab."""
    layer, head = pickers()
    caption(layer, head)
    scores_stage(layer, head)
    open_button(layer, head)


def caption(layer: int, head: int) -> None:
    st.caption(f"Layer {layer}, head {head}: **broad** (measured: previous token 0.12, ...).")


def scores_stage(layer: int, head: int) -> None:
    st.caption("Too many cells to print every number: hover over a cell for its score.")
    grid(layer * 100 + head, (3, 5))
    if "pickers" not in DROP:
        c1, c2 = st.columns(2)
        c1.selectbox("Query (row)", TOKENS, index=3, key="floor_lab_q")
        c2.selectbox("Key (column)", TOKENS, index=5, key="floor_lab_k")
    if "breakdown" not in DROP:
        breakdown(layer * 100 + head)
    if "tools" not in DROP:
        st.download_button("Download the scores (CSV)", "a,b\n1,2\n", "scores.csv",
                           key="floor_lab_csv", on_click="ignore")  # fmt: skip
        with st.expander("The code"):
            st.code("scores = Q @ K.T")


def open_button(layer: int, head: int) -> None:
    if "open" not in DROP:
        st.button(f"Open layer {layer}, head {head} in the walkthrough", key="floor_lab_open",
                  type="primary")  # fmt: skip
        st.caption("Makes this head's Q, K and V the app's scenario.")


st.title("a lab's head pick, bare")
if "+frame" in DROP:
    from attention_ui.frame import look

    look.frame()
if LEVEL == "page" and "tabs_out" in DROP:
    with st.tabs(TABS, key="floor_lab_tabs", on_change="rerun", default="Scores")[1]:
        head_in_tab()
else:
    head_section()
