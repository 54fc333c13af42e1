"""Which axis holds the queries and which the keys, on a scenario where the two differ.

Self-attention is square, so a figure with its row and column labels swapped still looks
right there. Here 2 queries attend over 3 keys (direct mode, cross-attention): every
stage figure must put the queries down the side (y, titled "query") and the keys along
the top (x, titled "key"). Expected labels and numbers are written out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import Scenario

# The one import of the function under test (the stage registry's summary figures).
from attention_ui.stages.data import Labels
from attention_ui.stages.registry import stage_figure

QUERIES, KEYS = ("why", "how"), ("a", "b", "c")
CROSS = Scenario(
    tokens=KEYS,
    query_tokens=QUERIES,
    mode="direct",
    Q=np.array([[1.0, 0.0], [0.0, 2.0]]),  # (2, d_k = 2)
    K=np.array([[1.0, 1.0], [2.0, 0.0], [0.0, 1.0]]),  # (3, 2)
    V=np.array([[1.0], [2.0], [3.0]]),  # (3, d_v = 1)
    mask_kind="padding",
    n_valid=2,  # the last key is padding: the mask stage has a figure too
)
LABELS = Labels.of(CROSS)
RAW_SCORES = [[1.0, 2.0, 0.0], [2.0, 0.0, 2.0]]  # q_i . k_j by hand

# stage: (y labels, y title, x labels, x title)
AXES = {
    "projections": (["why", "how"], "token", ["d1", "d2"], "dimension"),
    "scores": (["why", "how"], "query", ["a", "b", "c"], "key"),
    "scaling": (["why", "how"], "query", ["a", "b", "c"], "key"),
    "mask": (["why", "how"], "query", ["a", "b", "c"], "key"),
    "softmax": (["why", "how"], "query", ["a", "b", "c"], "key"),
    "output": (["why", "how"], "query", ["out1"], "dimension"),
}


@pytest.mark.parametrize("stage", list(AXES))
def test_queries_down_the_side_keys_along_the_top(stage: str) -> None:
    figure = stage_figure(stage, LABELS, CROSS.trace())
    y_labels, y_title, x_labels, x_title = AXES[stage]
    heat = figure.data[0]
    assert list(heat.y) == y_labels
    assert list(heat.x) == x_labels
    assert figure.layout.yaxis.title.text == y_title
    assert figure.layout.xaxis.title.text == x_title
    assert np.shape(heat.z) == (len(y_labels), len(x_labels))


def test_score_cells_sit_under_their_query_and_key() -> None:
    heat = stage_figure("scores", LABELS, CROSS.trace()).data[0]
    np.testing.assert_array_equal(np.asarray(heat.z, dtype=float), RAW_SCORES)
    assert heat.text[0][1] == "2.00"  # row "why", column "b"
    assert heat.text[1][1] == "0.00"  # row "how", column "b"


def test_heatmap_margins_fit_the_labels_without_plotly_automargin() -> None:
    """The heatmap sets its own margins (Plotly's automargin draws every figure twice in
    the browser): the left one grows with the longest row label, in px of 14 px type."""
    from attention_ui.draw import figures as fig

    M = np.zeros((2, 3))
    short = fig.heatmap(M, ["a", "b"], ["x", "y", "z"], "t")
    long = fig.heatmap(M, ["a", "a much longer row"], ["x", "y", "z"], "t")
    for figure in (short, long):
        assert not figure.layout.xaxis.automargin and not figure.layout.yaxis.automargin
    # 17 characters of ~0.55 em each (at least) beside the 14 px axis title
    assert long.layout.margin.l >= 17 * 0.55 * 14 + 14
    assert long.layout.margin.l - short.layout.margin.l >= 16 * 0.55 * 14
