"""AppTest of the Real model page, with the model present and absent.

The numbers on screen are compared with the core's own run of the same sentence (the core
itself is checked against transformers' BertModel in tests/core/test_pretrained_golden.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core.pretrained import MODEL_DIR_ENV, attention_to
from attention_ui.frame import keys
from attention_ui.real_model import head as real_model_head
from attention_ui.real_model.lab import DEFAULT_TEXT
from tests.core import minilm
from tests.core.minilm import network_tol
from tests.pages.lab_pages import assert_says_what_to_run, chart, open_lab, texts
from tests.spec import cell_texts, chart_specs, numeric
from tests.tolerance import assert_within

PAGE = "app_pages/labs/real_model.py"


@pytest.fixture(scope="module")
def model():
    return minilm.model()  # skips with the reason when absent; fails under CI=true


def open_page(query: dict[str, str] | None = None, session: dict | None = None) -> AppTest:
    return open_lab(PAGE, query, session)


# ---- model present ---------------------------------------------------------------------------
def test_gallery_shows_every_heads_weights(model) -> None:
    at = open_page()
    run = model.encode(DEFAULT_TEXT)
    spec = chart(at, "Attention weights of every head")
    z = numeric(spec["data"][0]["z"])
    n = len(run.tokens)
    step_x = n + 1  # one empty column between heads
    step_y = (z.shape[0]) // 6  # rows of a layer, its label gap included
    for layer in range(6):
        for head in range(12):
            block = z[layer * step_y : layer * step_y + n, head * step_x : head * step_x + n]
            # the page ran its own forward pass (its BLAS threads may block the sums
            # differently): the network's float32 rounding bound (tests/core/minilm.py)
            assert_within(block, run.heads[layer][head].weights, network_tol("full_weights"))
    # labels are the computed patterns, one per labelled head
    notes = spec["layout"]["annotations"]
    names = [a["text"].replace("<br>", " ").replace("/ ", "/") for a in notes]
    expected = [p.name for layer in run.patterns() for p in layer if p.name]
    assert names == expected


def test_tokens_and_from_one_token_show_the_core_run(model) -> None:
    at = open_page()
    run = model.encode(DEFAULT_TEXT)
    shown = texts(at)
    assert "[CLS]" in shown and "didn·'·t" in shown
    assert at.selectbox(key=keys.RM_TOKEN).value == "it"
    assert at.selectbox(key=keys.RM_TARGET).value == "animal"
    z = numeric(chart(at, "Weight from “it” to “animal”")["data"][0]["z"])
    np.testing.assert_allclose(z, attention_to(run, 10, 2), atol=1e-12)
    # independently of the core's ranking helpers: the two heads above one half
    assert sorted(zip(*np.nonzero(z >= 0.5), strict=True)) == [(3, 1), (5, 11)]


def test_default_head_is_the_strong_it_to_animal_head(model) -> None:
    run = model.encode(DEFAULT_TEXT)
    layer, head = real_model_head.DEFAULT_LAYER - 1, real_model_head.DEFAULT_HEAD - 1
    assert run.weights[layer, head, 10].argmax() == 2  # "it" looks most at "animal"


def test_picked_head_stages_equal_its_trace(model) -> None:
    query = {keys.RM_LAYER: "3", keys.RM_HEAD: "1"}
    run = model.encode(DEFAULT_TEXT)
    t = run.heads[2][0]  # 1-based in the URL: layer 3, head 1
    at = open_page(query, {keys.RM_STAGE: "Scores"})
    np.testing.assert_allclose(numeric(chart(at, "Raw scores")["data"][0]["z"]), t.scores)
    assert at.selectbox(key="rm_scores_pick_q").options == run.labels
    at.session_state[keys.RM_STAGE] = "Softmax"
    at.run()
    weights = chart(at, "Attention weights", exact=True)["data"][0]["z"]
    np.testing.assert_allclose(numeric(weights), t.weights)
    at.session_state[keys.RM_STAGE] = "Q, K, V"
    at.run()
    np.testing.assert_array_equal(numeric(chart(at, "K (15 × 32)")["data"][0]["z"]), t.K)
    assert "W_Q, W_K and W_V" in texts(at)


def test_the_stages_start_from_the_token_picked_above(model) -> None:
    """Issue 34: the Softmax stage's "Query row" started at [CLS], not the picked token."""
    at = open_page({keys.RM_TOKEN: "animal"}, {keys.RM_STAGE: "Softmax"})
    assert at.selectbox(key="rm_softmax_row").value == "animal"
    at.session_state[keys.RM_STAGE] = "Scores"
    at.run()
    assert at.selectbox(key="rm_scores_pick_q").value == "animal"
    at.selectbox(key=keys.RM_TOKEN).set_value("street").run()
    at.session_state[keys.RM_STAGE] = "Output"
    at.run()
    assert at.selectbox(key="rm_output_row").value == "street"


def test_mask_tab_shows_padding_with_zero_weight(model) -> None:
    at = open_page(session={keys.RM_STAGE: "Mask"})
    title = "Scaled scores after the mask"
    masked = [s for s in chart_specs(at) if s["layout"]["title"]["text"] == title]
    assert len(masked) == 2  # alone (no mask), then with 3 [PAD] tokens
    z = numeric(masked[1]["data"][0]["z"])
    assert z.shape == (18, 18) and np.isnan(z[:, 15:]).all() and not np.isnan(z[:, :15]).any()


def test_url_carries_sentence_token_layer_and_head(model) -> None:
    text = "The trophy didn't fit in the suitcase because it was too big"
    query = {keys.RM_TEXT: text, keys.RM_TOKEN: "trophy", keys.RM_LAYER: "2", keys.RM_HEAD: "7"}
    at = open_page(query)
    assert at.text_input(key=keys.RM_TEXT).value == text
    assert at.selectbox(key=keys.RM_TOKEN).value == "trophy"
    assert (at.selectbox(key=keys.RM_LAYER).value, at.selectbox(key=keys.RM_HEAD).value) == (2, 7)
    at.selectbox(key=keys.RM_HEAD).set_value(9).run()  # the URL itself: the browser test
    assert at.session_state[keys.RM_HEAD] == 9


def test_comparison_ranks_heads_by_change(model) -> None:
    at = open_page(session={keys.RM_TOKEN_TAB: "Two sentences side by side"})
    z = numeric(chart(at, "How much the attention of “it” changes")["data"][0]["z"])
    assert np.unravel_index(np.argmax(z), z.shape) == (3, 1)  # layer 4, head 2 moves most
    table = next(t.value for t in at.table if "change" in t.value.columns)
    assert list(table.iloc[0][["layer", "head"]].astype(int)) == [4, 2]
    changes = table["change"].astype(float)
    assert changes.is_monotonic_decreasing
    assert changes.iloc[0] == pytest.approx(z.max(), abs=5e-4)  # shown to 3 decimals


def test_strongest_key_per_head_is_each_rows_argmax(model) -> None:
    at = open_page(session={keys.RM_TOKEN_TAB: "Strongest key per head"})
    run = model.encode(DEFAULT_TEXT)
    trace = chart(at, "The key “it” attends to most")["data"][0]
    rows = run.weights[:, :, 10]  # (layers, heads, n): "it"'s row in every head
    np.testing.assert_allclose(numeric(trace["z"]), rows.max(axis=-1))
    assert cell_texts(trace)[3][1].startswith("animal")


def test_bad_input_keeps_the_rest_of_the_page(model) -> None:
    at = open_page()
    at.text_input(key=keys.RM_TEXT).set_value("").run()
    assert not at.exception
    assert "type a sentence" in texts(at)
    assert "What this shows" in [h.value for h in at.header]
    at.text_input(key=keys.RM_TEXT).set_value("<b>x</b> **bold** שלום 🦜 [a](http://e.com)").run()
    assert not at.exception
    shown = texts(at)
    assert "[UNK]" in shown and "🦜" in shown  # the emoji is flagged
    tokens_line = next(m.value for m in at.markdown if "[CLS" in m.value)
    assert r"\<" in tokens_line and r"\*" in tokens_line  # escaped for Markdown
    labels = chart(at, "Weight from")["layout"]["title"]["text"]
    assert "<b>" not in labels
    for spec in chart_specs(at):
        for trace in spec["data"]:
            assert not any("<b>" in str(v) for v in trace.get("x", []) if isinstance(v, str))


def test_long_text_says_where_it_was_cut(model) -> None:
    at = open_page()
    at.text_input(key=keys.RM_TEXT).set_value("word " * 200 + "END").run()
    assert not at.exception
    assert "cut at character" in texts(at) and "128" in texts(at)


def test_open_in_walkthrough_loads_the_head(model) -> None:
    at = open_page({keys.RM_LAYER: "4", keys.RM_HEAD: "2"})
    at.button(key="rm_open").click().run()
    assert not at.exception, [e.message for e in at.exception]
    t = model.encode(DEFAULT_TEXT).heads[3][1]
    scenario = at.session_state[keys.SCENARIO]
    assert scenario.mode == "direct" and scenario.name.startswith("MiniLM layer 4, head 2")
    np.testing.assert_allclose(scenario.Q, t.Q)
    np.testing.assert_allclose(numeric(chart(at, "Raw scores")["data"][0]["z"]), t.scores)
    assert at.title[0].value == "3. Scores"


def test_open_in_walkthrough_refuses_more_than_64_tokens(model) -> None:
    at = open_page({keys.RM_TEXT: "one two three " * 30})
    at.button(key="rm_open").click().run()
    assert not at.exception
    assert "at most 64" in texts(at)
    assert at.title[0].value == "Real model"


# ---- model absent --------------------------------------------------------------------------
def test_without_the_model_the_page_says_what_to_run(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(MODEL_DIR_ENV, str(tmp_path))
    assert_says_what_to_run(open_page())


def test_the_token_table_is_drawn_only_while_open(model) -> None:
    run = model.encode(DEFAULT_TEXT)
    assert not open_page().dataframe  # closed: nothing sent (a sentence change draws no grid)
    at = open_page(session={keys.RM_TOKEN_TABLE: True})
    shown = at.dataframe[0].value
    assert list(shown["token"]) == run.labels  # the core's tokens, [CLS] ... [SEP]
    assert shown["kind"].iloc[0] == "special (added by the model)"
