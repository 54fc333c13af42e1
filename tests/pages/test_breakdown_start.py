"""Where the Scores page opens its breakdown: on the largest raw score, found independently.

The expected cell comes from the slow double loop (tests/core/reference.py) on the
preset's own Q and K, never from the app's ``strongest_cell``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS
from attention_ui.frame.pages import BY_KEY
from tests.core.reference import reference_attention

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def largest_cell(scores: list[list[float]]) -> tuple[int, int]:
    """(row, column) of the largest score, by a plain scan; the first one on a tie."""
    best = (0, 0)
    for i, row in enumerate(scores):
        for j, x in enumerate(row):
            if x > scores[best[0]][best[1]]:
                best = (i, j)
    return best


@pytest.mark.parametrize("preset", ["cat_mat", "paper_toy", "hungry", "quiz88"])
def test_breakdown_starts_on_the_largest_score(preset: str) -> None:
    s = PRESETS[preset].build()
    t = s.trace()
    ref = reference_attention(t.Q, t.K, t.V)
    i, j = largest_cell(ref.scores)
    flat = [x for row in ref.scores for x in row]
    assert max(flat) > min(flat), "a grid of equal scores cannot tell the start apart"
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["s"] = s.to_url()
    at.run()
    at.switch_page(BY_KEY["scores"].path).run()
    assert not at.exception, [e.value for e in at.exception]
    q, k = s.query_labels[i], s.key_labels[j]
    assert at.selectbox(key="scores_pick_q").value == q
    assert at.selectbox(key="scores_pick_k").value == k
    heading = f"Score of query {q} against key {k}"
    assert any(heading in m.value.replace("\\", "") for m in at.markdown), heading
