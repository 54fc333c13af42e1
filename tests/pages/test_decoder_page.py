"""AppTest of the Decoder lab, with the decoder present and absent.

The numbers on screen are compared with the run the page drew them from: the page's own
cached run (frame/models, process-wide, so a test in the same process gets the same
object), and must equal it exactly. That run is the core's, which is checked against
transformers' Llama in tests/core/test_decoder_golden.py.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core.decoder import DECODER_DIR_ENV
from attention_ui.decoder import data
from attention_ui.decoder import head as decoder_head
from attention_ui.decoder.lab import DEFAULT_PROMPT
from attention_ui.frame import keys, models
from tests.core import smollm2
from tests.core.smollm2 import rope_float32_error
from tests.pages.lab_pages import assert_says_what_to_run, chart, open_lab, texts
from tests.spec import chart_specs, numeric

PAGE = "app_pages/labs/decoder.py"
SHORT = "The capital of France is"


@pytest.fixture(scope="module")
def decoder():
    return smollm2.decoder()  # skips with the reason when absent; fails under CI=true


def page_run(text: str = DEFAULT_PROMPT):
    """The run the page drew (its cache is process-wide: the same object, once it ran)."""
    return models.run_decoder(models.decoder(), text)


@pytest.fixture(scope="module")
def winograd(decoder):
    open_page()  # the page runs the default prompt first: its run is the one compared
    return page_run()


def open_page(query: dict[str, str] | None = None, session: dict | None = None) -> AppTest:
    return open_lab(PAGE, query, session)


# ---- decoder present ----
def test_the_next_tokens_are_the_core_runs(winograd) -> None:
    at = open_page()
    bars = chart(at, "The 10 likeliest next tokens")["data"][0]
    assert bars["y"][0] == "1. ␣large" and bars["y"][1] == "2. ␣big"
    probs = np.asarray(bars["x"], dtype=float)
    np.testing.assert_array_equal(probs, [t.p for t in winograd.next_tokens])
    assert "large" in at.button(key="dec_append").label


def test_the_gallery_shows_every_heads_weights_and_pattern(winograd) -> None:
    at = open_page()
    codes, _ = data.pattern_grid(winograd)
    z = numeric(chart(at, "What each head does")["data"][0]["z"])
    # labels sit on thresholds (CLEAR, BROAD): a weight within WEIGHTS_TOL of one could
    # flip; none of the default prompt's heads is that close, so they must all agree
    np.testing.assert_array_equal(z, codes)
    n = winograd.n
    mosaic = numeric(chart(at, "Attention weights, layers 1–10")["data"][0]["z"])
    step_y = mosaic.shape[0] // 10
    for layer in (0, 9):
        for head in (0, 8):
            block = mosaic[layer * step_y : layer * step_y + n, head * (n + 1) : head * (n + 1) + n]
            expected = winograd.weights[layer, head].astype(np.float32)  # the mosaic's dtype
            np.testing.assert_array_equal(block, expected)
            assert (np.triu(block, 1) == 0).all()


def test_the_gallery_draws_the_chosen_layers_only(winograd) -> None:
    at = open_page(session={keys.DEC_GALLERY_TAB: "Layers 21–30"})
    titles = [s["layout"].get("title", {}).get("text", "") for s in chart_specs(at)]
    assert [t for t in titles if t.startswith("Attention weights, layers")] == [
        "Attention weights, layers 21–30"
    ]
    mosaic = numeric(chart(at, "Attention weights, layers 21–30")["data"][0]["z"])
    n, step_y = winograd.n, mosaic.shape[0] // 10
    block = mosaic[9 * step_y : 9 * step_y + n, 8 * (n + 1) : 8 * (n + 1) + n]  # layer 30, head 9
    np.testing.assert_array_equal(block, winograd.weights[29, 8].astype(np.float32))


def test_from_one_token_starts_on_it_and_trophy(winograd) -> None:
    at = open_page()
    assert at.selectbox(key=keys.DEC_TOKEN).value == "it"
    assert at.selectbox(key=keys.DEC_TARGET).value == "trophy"
    assert at.selectbox(key=keys.DEC_TARGET).options == winograd.labels[:11]  # "it" and before
    z = numeric(chart(at, "Weight from “it” to “trophy”")["data"][0]["z"])
    np.testing.assert_array_equal(z, winograd.weights[:, :, 10, 1])


def test_the_default_head_is_the_it_to_trophy_head(winograd) -> None:
    layer, head = decoder_head.DEFAULT_LAYER - 1, decoder_head.DEFAULT_HEAD - 1
    row = winograd.weights[layer, head, 10]  # "it"
    assert row.argmax() == 1 and row[1] > 0.5  # "trophy", more than half
    assert row[1] == winograd.weights[:, :, 10, 1].max()


@pytest.mark.parametrize("stage", ["Scores", "Mask", "Softmax"])
def test_a_picked_heads_stages_equal_its_trace(winograd, stage: str) -> None:
    t = winograd.head(2, 7)  # 1-based in the URL: layer 3, head 8
    at = open_page({keys.DEC_LAYER: "3", keys.DEC_HEAD: "8"}, {keys.DEC_STAGE: stage})
    assert "Layer 3, head 8 (reads key/value head 3)" in texts(at)
    if stage == "Scores":
        np.testing.assert_array_equal(numeric(chart(at, "Raw scores")["data"][0]["z"]), t.scores)
    elif stage == "Mask":
        masked = numeric(chart(at, "Scaled scores after the mask")["data"][0]["z"])
        upper = np.triu(np.ones(masked.shape, dtype=bool), 1)
        assert np.isnan(masked[upper]).all() and not np.isnan(masked[~upper]).any()
        grid = numeric(chart(at, "Mask (1 = may attend)")["data"][0]["z"])
        np.testing.assert_array_equal(grid, np.tril(np.ones_like(grid)))
        assert "exactly 0" in texts(at)
    else:
        weights = numeric(chart(at, "Attention weights", exact=True)["data"][0]["z"])
        upper = np.triu(np.ones(weights.shape, dtype=bool), 1)
        assert np.isnan(weights[upper]).all()  # masked: greyed, not drawn
        np.testing.assert_array_equal(weights[~upper], t.weights[~upper])


def test_rope_is_a_stage_with_q_and_k_before_and_after(winograd) -> None:
    at = open_page({keys.DEC_LAYER: "17", keys.DEC_HEAD: "4"}, {keys.DEC_STAGE: "RoPE"})
    la = winograd.layers[16]
    before = numeric(chart(at, "Q before RoPE")["data"][0]["z"])
    after = numeric(chart(at, "Q after RoPE")["data"][0]["z"])
    np.testing.assert_array_equal(before, la.Q_pre[:, 3])  # this head's own 64 columns
    np.testing.assert_array_equal(after, la.Q[:, 3])
    np.testing.assert_array_equal(before[0], after[0])  # position 0 is not turned
    assert not np.array_equal(before[1:], after[1:])
    k_after = numeric(chart(at, "K after RoPE")["data"][0]["z"])
    np.testing.assert_array_equal(k_after, la.K[:, 1])  # key/value head 2 serves head 4
    m = data.default_query(winograd)  # "it": the token picked above, by default
    curve = chart(at, f"Score of “{winograd.labels[m]}” against")
    distances, scores = numeric(curve["data"][0]["x"]), numeric(curve["data"][0]["y"])
    here = curve["data"][2]  # the head's own scaled score, at the pair's real distance
    d = int(here["x"][0])
    q, k = la.Q_pre[m, 3].astype(float), la.K_pre[m - d, 1].astype(float)
    closed_form = scores[distances.tolist().index(d)]  # float64 angles
    assert abs(closed_form - here["y"][0]) <= rope_float32_error(q, k, m, m - d)


def test_the_stages_start_from_the_token_picked_above(winograd) -> None:
    """Issue 34: the RoPE stage used the last token, the Softmax stage's row the first."""
    options = data.token_options(winograd)
    picked = options[4]
    m = winograd.labels.index(picked)
    at = open_page({keys.DEC_TOKEN: picked}, {keys.DEC_STAGE: "RoPE"})
    assert chart(at, f"Score of “{picked}” against")
    assert at.selectbox(key=keys.DEC_ROPE_KEY).options == winograd.labels[: m + 1]
    at.session_state[keys.DEC_STAGE] = "Softmax"
    at.run()
    assert at.selectbox(key="dec_softmax_row").value == picked
    at.selectbox(key=keys.DEC_TOKEN).set_value(options[2]).run()
    assert at.selectbox(key="dec_softmax_row").value == options[2]


def test_shared_keys_and_values_are_drawn_once_for_the_group(winograd) -> None:
    at = open_page({keys.DEC_LAYER: "5", keys.DEC_HEAD: "5"}, {keys.DEC_STAGE: "Shared K and V"})
    k_charts = [s for s in chart_specs(at) if s["layout"]["title"]["text"].startswith("K of")]
    assert len(k_charts) == 1 and "key/value head 2" in k_charts[0]["layout"]["title"]["text"]
    titles = [s["layout"]["title"]["text"] for s in chart_specs(at)]
    assert {"Head 4", "Head 5 (this one)", "Head 6"} <= set(titles)
    lines = chart(at, "9 query heads, 3 key/value heads")["data"]
    assert len(lines) == 9 + 2  # a line per query head, then the two rows of squares


def test_the_url_carries_prompt_token_layer_and_head(decoder) -> None:
    query = {keys.DEC_TEXT: SHORT, keys.DEC_TOKEN: "France", keys.DEC_LAYER: "30",
             keys.DEC_HEAD: "9"}  # fmt: skip
    at = open_page(query)
    assert at.text_input(key=keys.DEC_TEXT).value == SHORT
    assert at.selectbox(key=keys.DEC_TOKEN).value == "France"
    assert (at.selectbox(key=keys.DEC_LAYER).value, at.selectbox(key=keys.DEC_HEAD).value) == (
        30, 9)  # fmt: skip
    assert chart(at, "The 10 likeliest")["data"][0]["y"][0] == "1. ␣Paris"


def test_append_the_top_token_and_predict_again(decoder) -> None:
    at = open_page({keys.DEC_TEXT: SHORT})
    at.button(key="dec_append").click().run()
    assert not at.exception
    assert at.text_input(key=keys.DEC_TEXT).value == SHORT + " Paris"


def test_open_in_the_walkthrough_loads_the_causal_head(winograd) -> None:
    at = open_page({keys.DEC_LAYER: "17", keys.DEC_HEAD: "4"})
    at.button(key="dec_open").click().run()
    assert not at.exception, [e.message for e in at.exception]
    scenario = at.session_state[keys.SCENARIO]
    assert scenario.name.startswith("SmolLM2 layer 17, head 4 (K/V head 2)")
    assert scenario.mask_kind == "causal" and scenario.mode == "direct"
    np.testing.assert_array_equal(scenario.trace().weights, winograd.weights[16, 3])
    assert at.title[0].value == "3. Scores"


def test_the_encoder_beside_the_decoder(decoder) -> None:
    at = open_page(session={keys.DEC_SIDE_BY_SIDE: True})
    enc = numeric(chart(at, "Encoder (MiniLM)")["data"][0]["z"])
    dec = numeric(chart(at, "Decoder (SmolLM2)")["data"][0]["z"])
    upper = np.triu(np.ones(dec.shape, dtype=bool), 1)
    assert np.isnan(dec[upper]).all() and (enc[np.triu(np.ones(enc.shape, bool), 1)] > 0).all()
    assert "in the decoder **0%**" in texts(at).replace("\n", " ")


# ---- bad input ----
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "type a prompt"),
        ("<|im_start|><|im_end|>", "only special tokens"),
    ],
)
def test_bad_prompts_say_why_and_keep_the_page(decoder, text: str, says: str) -> None:
    at = open_page()
    at.text_input(key=keys.DEC_TEXT).set_value(text).run()
    assert not at.exception
    assert says in texts(at)
    assert "What this shows" in [h.value for h in at.header]
    assert not chart_specs(at)


def test_a_long_prompt_says_where_it_was_cut(decoder) -> None:
    at = open_page()
    at.text_input(key=keys.DEC_TEXT).set_value("one two three " * 30).run()
    assert not at.exception
    shown = texts(at)
    assert "cut at character" in shown and "64" in shown
    assert at.selectbox(key=keys.DEC_TOKEN).options[-1].startswith("one")  # the 64th token


def test_learner_text_stays_text(decoder) -> None:
    at = open_page()
    at.text_input(key=keys.DEC_TEXT).set_value("<b>x</b> **bold** [a](http://e.com) 😀").run()
    assert not at.exception
    line = next(m.value for m in at.markdown if "bold" in m.value)
    assert r"\*\*" in line or r"\*" in line
    for spec in chart_specs(at):
        assert "<b>x" not in spec["layout"]["title"]["text"]


# ---- decoder absent ----
def test_without_the_decoder_the_page_says_what_to_run(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(DECODER_DIR_ENV, str(tmp_path))
    assert_says_what_to_run(open_page())


def test_strongest_key_per_head_prints_each_heads_key_and_weight(winograd) -> None:
    """Each cell: the key the query "it" weights most in that head, and the weight, on one
    line (a <br> passed through the cells' escaping once printed as "the<br>0.27")."""
    at = open_page(session={keys.DEC_TOKEN_TAB: "Strongest key per head"})
    printed = chart(at, "The key “it” attends to most")["data"][0]["text"]
    assert not any("br" in c for line in printed for c in line)
    cells = [[re.sub(r"<[^>]+>", "", c) for c in line] for line in printed]  # its colour span
    query = len(winograd.labels) - 1 - winograd.labels[::-1].index("it")  # its last "it"
    for layer in (0, 14, 29):
        for head in (0, 8):
            row = winograd.weights[layer, head, query, : query + 1]  # (query + 1,) causal
            j = max(range(query + 1), key=lambda k: row[k])  # the slow argmax
            assert cells[layer][head] == f"{winograd.labels[j][:8]} {row[j]:.2f}"
