"""Stage views render any trace, several on one page, with no key clash."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

from tests.spec import chart_specs, numeric


def _two_traces_page() -> None:
    import numpy as np

    from attention_core import attention
    from attention_ui.stages.data import Labels
    from attention_ui.views import stage_views as views

    rng = np.random.default_rng(0)
    Q, K, V = (rng.normal(size=(3, 2)) for _ in range(3))
    first = attention(Q, K, V)
    second = attention(Q[:2] * 3, K, V, mask=np.array([[1, 0, 1], [1, 1, 0]], bool))
    for key, labels, t in (
        ("a", Labels.plain(["x", "y", "z"]), first),
        ("b", Labels(["p", "q"], ["x", "y", "z"]), second),
    ):
        views.projections(labels, t, f"{key}_proj")
        views.scores(labels, t, f"{key}_scores")
        views.scaling(labels, t, f"{key}_scaling")
        views.mask(labels, t, f"{key}_mask")
        views.softmax_view(labels, t, f"{key}_softmax")
        views.output(labels, t, f"{key}_output")


def test_two_traces_on_one_page_draw_without_a_key_clash() -> None:
    at = AppTest.from_function(_two_traces_page, default_timeout=60).run()
    assert not at.exception, [e.message for e in at.exception]
    # Each view's pickers exist once per trace, keyed by its prefix.
    assert at.selectbox(key="a_scores_pick_q").options == ["x", "y", "z"]
    assert at.selectbox(key="b_scores_pick_q").options == ["p", "q"]
    rng = np.random.default_rng(0)
    Q, K, _ = (rng.normal(size=(3, 2)) for _ in range(3))
    raw_b = (Q[:2] * 3) @ K.T  # computed here, not by the core
    charts = chart_specs(at)
    scores = [c for c in charts if c["layout"]["title"]["text"].startswith("Raw scores")]
    assert len(scores) == 2
    # the same matmul of the same numbers as the page's attention(): exactly equal
    np.testing.assert_array_equal(numeric(scores[1]["data"][0]["z"]), raw_b)
    assert scores[1]["data"][0]["y"] == ["p", "q"]
    assert scores[1]["data"][0]["x"] == ["x", "y", "z"]


def _clicks_page() -> None:
    from attention_ui.stages.data import Labels
    from attention_ui.views import stage_views as views

    labels = Labels.plain(["<b>x</b>", "y", "z"])  # learner text: the chart holds it escaped
    views._on_cell_click(labels, "q", "k", 0, 2)  # what cell_pick hands over: (row, column)
    views._on_cell_click(labels, "q2", "k2", 3, 0)  # no such row: nothing is picked


def test_a_click_on_a_cell_picks_its_raw_labels() -> None:
    at = AppTest.from_function(_clicks_page).run()
    assert not at.exception
    assert (at.session_state["q"], at.session_state["k"]) == ("<b>x</b>", "z")
    assert "q2" not in at.session_state and "k2" not in at.session_state
