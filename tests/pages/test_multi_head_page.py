"""AppTest of the Multi-head page: every figure equals an independent reference, links, errors.

Expected numbers come from tests/core/reference.py (plain loops) fed with slices taken here,
never from multi_head_attention.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS, Scenario, random_scenario, shapes
from attention_ui.draw import contrast
from attention_ui.frame.pages import BY_KEY
from tests.core.reference import reference_attention
from tests.spec import chart_specs, numeric
from tests.tolerance import assert_within, eps, matmul_bound, multi_head_bounds

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = BY_KEY["multi-head"].path


def scenario(n_heads: int, width: int = 8, n_tokens: int = 6) -> Scenario:
    """6 tokens, d_model = width, d_k = d_v = width, W_O random, split into n_heads."""
    s = random_scenario(seed=3, n_tokens=n_tokens, d_model=width, d_k=width, d_v=width)
    rng = np.random.default_rng(5)
    W_o = np.round(rng.normal(size=(width, width)) / np.sqrt(width), 2)
    return s.replace(W_o=W_o, n_heads=n_heads, name="")


def expected(s: Scenario) -> dict:
    """Per-head weights, the concatenation, the output and X + output, by plain loops."""
    d_head = s.W_q.shape[1] // s.n_heads
    heads = []
    for h in range(s.n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        Q, K, V = s.X @ s.W_q[:, cols], s.X @ s.W_k[:, cols], s.X @ s.W_v[:, cols]
        heads.append(reference_attention(Q, K, V, mask=s.mask(), scaled=s.scaled))
    concat = np.hstack([np.array(h.output) for h in heads])
    output = concat @ s.W_o
    return {"heads": heads, "concat": concat, "output": output, "residual": s.X + output}


def bounds(s: Scenario, want: dict) -> dict:
    """How far the page's multi-head numbers may be from ``expected``'s: two float64
    evaluations (tests/tolerance.py). X + output adds one rounding to each, eps |X + out|."""
    heads = want["heads"]
    b = multi_head_bounds(s.X, s.W_q, s.W_k, s.W_v, s.W_o, [np.array(h.weights) for h in heads],
                          [h.scale for h in heads], mask=s.mask())  # fmt: skip
    b["residual"] = b["output"] + eps(np.float64) * np.abs(want["residual"])
    return b


def open_lab(s: Scenario | None = None, query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if s is not None:
        at.query_params["s"] = s.to_url()
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def titled(at: AppTest, start: str) -> list[dict]:
    return [c for c in chart_specs(at) if c["layout"]["title"]["text"].startswith(start)]


def panels(at: AppTest, start: str) -> list[tuple[str, dict]]:
    """The panels of the one figure titled ``start`` (a section of the lab is one figure):
    (panel title, its heatmap trace), in order. Operators (×, =) are not panel titles."""
    (spec,) = titled(at, start)
    names = [a["text"] for a in spec["layout"]["annotations"] if "<b>" not in a["text"]]
    return list(zip(names, spec["data"], strict=True))


def heads(at: AppTest) -> list[tuple[str, dict]]:
    """Every head's small multiple: (its title, its heatmap trace)."""
    return panels(at, "Every head's weights")


@pytest.mark.parametrize("n_heads", [1, 2, 4])
def test_every_figure_equals_the_reference(n_heads: int) -> None:
    s = scenario(n_heads)
    want = expected(s)
    bound = bounds(s, want)
    at = open_lab(s)
    assert at.title[0].value == "Multi-head"
    small = heads(at)
    assert titled(at, "Every head's")[0]["layout"]["title"]["text"] == "Every head's weights"
    assert [name for name, _ in small] == [f"Head {h + 1}" for h in range(n_heads)]
    for (_, trace), ref, b in zip(small, want["heads"], bound["heads"], strict=True):
        assert_within(numeric(trace["z"]), ref.weights, b.weights, "head weights")
        assert trace["zmin"] == 0 and trace["zmax"] == 1  # one shared scale
        assert trace["y"] == list(s.query_labels)
        assert trace["x"] == list(s.key_labels)
        assert f"(d_head = {8 // n_heads}): query" in trace["hovertemplate"]
    assert not titled(at, "Concat × W_O"), "drawn while its expander is closed"
    at.session_state["mh_after"] = True  # open it (lazy: drawn only while open)
    at.run()
    out = dict(panels(at, "Concat × W_O"))
    assert list(out) == ["Concat (6 × 8)", "W_O (8 × 8)", "Output (6 × 8)"]
    assert_within(numeric(out["Concat (6 × 8)"]["z"]), want["concat"], bound["concat"], "concat")
    np.testing.assert_array_equal(numeric(out["W_O (8 × 8)"]["z"]), s.W_o)  # copied
    res = dict(panels(at, "X + Output"))
    assert list(res) == ["X (6 × 8)", "Output (6 × 8)", "X + output (6 × 8)"]
    for c in (out["Output (6 × 8)"], res["Output (6 × 8)"]):
        assert_within(numeric(c["z"]), want["output"], bound["output"], "output")
    np.testing.assert_array_equal(numeric(res["X (6 × 8)"]["z"]), s.X)
    residual = numeric(res["X + output (6 × 8)"]["z"])
    assert_within(residual, want["residual"], bound["residual"], "X + output")


@pytest.mark.parametrize("n_heads", [2, 4])
def test_the_picked_head_is_drawn_with_the_stage_views(n_heads: int) -> None:
    s = scenario(n_heads)
    want = expected(s)
    ref, b = want["heads"][-1], bounds(s, want)["heads"][-1]
    at = open_lab(s, {"head": str(n_heads)})
    assert at.session_state["head"] == n_heads
    scores = titled(at, "Raw scores")  # the Scores tab is open first
    assert len(scores) == 1
    assert_within(numeric(scores[0]["data"][0]["z"]), ref.scores, b.scores, "scores")
    latex = " ".join(e.value for e in at.latex)
    assert "q_{" in latex  # the per-cell breakdown
    at.session_state["mh_stage"] = "Softmax"
    at.run()
    weights = titled(at, "Attention weights")
    assert_within(numeric(weights[0]["data"][0]["z"]), ref.weights, b.weights, "weights")
    at.session_state["mh_stage"] = "Scaling"
    at.run()
    d_head = 8 // n_heads
    assert at.metric[0].value == str(d_head)
    assert any(f"own d_head = {d_head}" in c.value for c in at.caption)
    scaled = numeric(titled(at, "Q Kᵀ ×")[0]["data"][0]["z"])
    assert_within(scaled, ref.scaled_scores, b.scaled, "scaled scores")
    at.session_state["mh_stage"] = "Projections"
    at.run()
    cols = slice((n_heads - 1) * d_head, n_heads * d_head)
    w_q = [c for c in titled(at, "W_Q (") if len(c["data"][0]["x"]) == d_head]
    np.testing.assert_array_equal(numeric(w_q[0]["data"][0]["z"]), s.W_q[:, cols])  # copied


def test_changing_the_head_count_changes_the_scenario_and_the_link() -> None:
    at = open_lab(scenario(1))
    options = [o.content for o in at.get("button_group")[0].proto.options]
    assert options == ["1", "2", "4", "8"]
    at.get("button_group")[0].set_value(4).run()
    s = at.session_state["scenario"]
    assert s.n_heads == 4
    assert len(heads(at)) == 4
    again = Scenario.from_url(at.query_params["s"])
    assert again.n_heads == 4
    np.testing.assert_array_equal(again.W_o, s.W_o)


def test_share_link_restores_heads_and_w_o() -> None:
    s = scenario(2)
    at = open_lab(s)
    assert at.session_state["scenario"].n_heads == 2
    np.testing.assert_array_equal(at.session_state["scenario"].W_o, s.W_o)
    assert len(heads(at)) == 2


def test_a_scenario_that_cannot_split_explains_and_fixes_itself() -> None:
    at = open_lab()  # the default scenario: d_k = 3, d_v = 4, no W_O
    text = " ".join(m.value for m in at.markdown)
    assert "d_v = d_k" in text and "output projection W_O" in text
    assert not titled(at, "Every head's")
    before = dict(panels(at, "Your projections today"))  # what the fix will change
    assert list(before) == ["W_Q (4 × 3)", "W_K (4 × 3)", "W_V (4 × 4)"]
    assert before["W_V (4 × 4)"]["x"] == ["h1·1", "h1·2", "h1·3", "h1·4"]  # one head, 4 wide
    W_v = PRESETS["cat_mat"].build().W_v
    printed = [[contrast.plain(t) for t in row] for row in before["W_V (4 × 4)"]["text"]]
    assert printed == [[f"{x:.2f}".replace("-", "−") for x in row] for row in W_v]
    at.button(key="heads_fix").click().run()
    s = at.session_state["scenario"]
    assert s.W_v.shape == (4, 3) and s.W_o.shape == (3, 4) and s.n_heads == 1
    np.testing.assert_array_equal(s.W_v, PRESETS["cat_mat"].build().W_v[:, :3])
    assert len(heads(at)) == 1


def test_direct_mode_is_offered_embeddings_mode() -> None:
    at = open_lab(PRESETS["hungry"].build())
    assert "Embeddings that give your Q, K and V" in " ".join(m.value for m in at.markdown)
    at.button(key="heads_fix").click().run()
    assert not at.exception
    s = at.session_state["scenario"]
    assert s.mode == "embeddings" and s.W_o is not None


def test_the_example_loads_and_its_heads_differ() -> None:
    at = open_lab()
    at.button(key="mh_load_example").click().run()
    s = at.session_state["scenario"]
    assert s.n_heads == 2
    first, second = (numeric(trace["z"]) for _, trace in heads(at))
    labels = list(s.key_labels)
    # head 1: each token after the first looks at the one before it
    assert [int(np.argmax(r)) for r in first[1:]] == [0, 1, 2, 3, 4]
    # head 2: "it" looks at "cat"
    assert labels[int(np.argmax(second[labels.index("it")]))] == "cat"


def test_open_a_head_in_the_walkthrough() -> None:
    s = scenario(2)
    at = open_lab(s, {"head": "2"})
    at.button(key="mh_open").click().run()
    assert not at.exception
    loaded = at.session_state["scenario"]
    assert loaded.mode == "direct"
    # (X W)[:, 4:8] against X (W[:, 4:8]): two evaluations of the same products
    assert_within(loaded.Q, s.X @ s.W_q[:, 4:8], matmul_bound(s.X, s.W_q[:, 4:8]), "Q")
    assert_within(loaded.V, s.X @ s.W_v[:, 4:8], matmul_bound(s.X, s.W_v[:, 4:8]), "V")
    assert at.title[0].value == BY_KEY["scores"].title
    # under the title, in the page's flow (issue 22: a toast covered the colour bar)
    assert [m.value.startswith("Head 2's Q, K and V") for m in at.main.success] == [True]
    assert not at.toast


def test_an_old_link_loads_as_one_head() -> None:
    old = PRESETS["cat_mat"].build()
    payload = old.to_dict()
    assert "n_heads" not in payload and "W_o" not in payload["matrices"]
    at = open_lab(old)
    loaded = at.session_state["scenario"]
    assert loaded.n_heads == 1 and loaded.W_o is None


def test_a_link_with_a_bad_head_count_says_so() -> None:
    bad = scenario(3).to_url()  # packing does not validate: 8 columns do not split into 3
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["s"] = bad
    at.run()
    warning = " ".join(w.value for w in at.sidebar.warning).replace("\\", "")
    assert "do not split into 3 heads" in warning and "[1, 2, 4, 8]" in warning


def test_head_count_fits_when_the_width_changes() -> None:
    s = shapes.with_size(scenario(4), "d_k", 6)
    assert s.W_q.shape[1] == s.W_v.shape[1] == s.W_o.shape[0] == 6
    assert s.n_heads == 1  # 6 columns do not split into 4
    s = shapes.with_size(scenario(2), "d_v", 6)
    assert s.n_heads == 2 and s.W_k.shape[1] == 6
