"""AppTest of the Decoder lab's generation parts: temperature and sampling, the KV-cache
stage and the online-softmax stage. Expected numbers come from definitions computed here
(softmax with math.exp, the architecture's sizes), or from the core functions the page is
meant to show, never from the page's own text."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_core import online_attention
from attention_core.decoder import cache_bytes
from attention_ui.frame import keys, models
from tests.core import smollm2
from tests.pages.lab_pages import chart, open_lab, texts
from tests.spec import numeric

PAGE = "app_pages/labs/decoder.py"
SHORT = "The capital of France is"


@pytest.fixture(scope="module")
def decoder():
    return smollm2.decoder()


def run_of(text: str):
    return models.run_decoder(models.decoder(), text)


def test_the_chart_is_softmax_of_the_logits_over_t_with_the_cut_off(decoder) -> None:
    at = open_lab(PAGE, {keys.DEC_TEXT: SHORT, keys.DEC_TEMP: "0.7", keys.DEC_TOP_K: "3"})
    assert not at.exception
    bars = chart(at, "The next token at T = 0.7")["data"][0]
    logits = run_of(SHORT).logits.astype(np.float64)
    z = [float(x) / 0.7 for x in logits.tolist()]
    top = max(z)
    total = math.fsum(math.exp(x - top) for x in z)
    ids = np.argsort(-logits, kind="stable")[:12]
    expected = [math.exp(z[i] - top) / total for i in ids]
    assert [f"{p:.3f}" for p in bars["x"]] == [f"{p:.3f}" for p in expected]  # as printed
    assert bars["text"] == [f"{p:.3f}" for p in expected]
    assert bars["y"][0] == "1. ␣Paris"
    colours = bars["marker"]["color"]
    assert len(set(colours[:3])) == 1 and colours[3] != colours[0]  # top-k = 3: 3 kept
    assert "3 tokens are kept" in texts(at)
    assert at.button(key="dec_append").label.startswith("Append")


def test_generate_appends_the_seeded_draws_and_a_link_reproduces_them(decoder) -> None:
    query = {keys.DEC_TEXT: SHORT, keys.DEC_TEMP: "1.2", keys.DEC_SEED: "5", keys.DEC_N: "4"}
    at = open_lab(PAGE, query)
    at.button(key="dec_generate").click().run()
    assert not at.exception
    new = decoder.generate(SHORT, 4, 1.2, seed=5)
    assert at.text_input(key=keys.DEC_TEXT).value == SHORT + decoder.decode(new)
    again = open_lab(PAGE, query)  # the same link, another session: the same draws
    again.button(key="dec_generate").click().run()
    assert again.text_input(key=keys.DEC_TEXT).value == SHORT + decoder.decode(new)


def test_the_kv_cache_stage(decoder) -> None:
    at = open_lab(PAGE, {keys.DEC_TEXT: SHORT, keys.DEC_LAYER: "3", keys.DEC_HEAD: "8"},
                  {keys.DEC_STAGE: "KV cache"})  # fmt: skip
    assert not at.exception, [e.message for e in at.exception]
    run = run_of(SHORT)
    n = run.n + 1
    page = texts(at)
    table = next(t.value for t in at.table if "cache" in t.value.columns)
    assert table.iloc[:, -1].tolist() == [f"{cache_bytes(run.config, n):,}",
                                          f"{2 * 30 * 9 * n * 64 * 4:,}"]  # fmt: skip
    keys_map = numeric(chart(at, "Cached keys of key/value head 3, layer 3")["data"][0]["z"])
    np.testing.assert_array_equal(keys_map[:-1], run.layers[2].K[:, 2])  # the prompt's own
    w = chart(at, "The new query of head 8")["data"][0]["y"]
    assert len(w) == n and abs(sum(w) - 1) < 1e-9
    after = decoder.decode(decoder.generate(SHORT, 2, 0.0)[1:]).replace(" ", "␣")
    assert f"“{after}” with the cache, “{after}” recomputed" in page


def test_the_online_softmax_stage_equals_the_full_row(decoder) -> None:
    query = {keys.DEC_TEXT: SHORT, keys.DEC_TOKEN: "is", keys.DEC_LAYER: "5", keys.DEC_HEAD: "2",
             keys.DEC_TILE: "2"}  # fmt: skip
    at = open_lab(PAGE, query, {keys.DEC_STAGE: "Online softmax"})
    assert not at.exception, [e.message for e in at.exception]
    run = run_of(SHORT)
    q = run.labels.index("is")
    t = run.head(4, 1)
    heat = numeric(chart(at, "The row's output after each tile")["data"][0]["z"])
    tiles = online_attention(t.Q[q : q + 1], t.K[: q + 1], t.V[: q + 1], 2).tiles
    assert heat.shape == (len(tiles) + 1, 64) and len(tiles) == math.ceil((q + 1) / 2)
    np.testing.assert_array_equal(heat[:-1], [s.partial[0] for s in tiles])  # the core's
    np.testing.assert_array_equal(heat[-1], t.output[q])  # the full softmax's row
    assert f"the {q + 1} keys it may see, in {len(tiles)} tiles" in texts(at)
    frame = next(x.value for x in at.table if "m" in x.value.columns)
    assert frame["m"].tolist() == [f"{s.m[0]:.4f}" for s in tiles]


BAD_LINK = {keys.DEC_TOP_K: "999", keys.DEC_TOP_P: "abc", keys.DEC_SEED: "-3",
            keys.DEC_N: "0", keys.DEC_TEMP: "1e9"}  # fmt: skip


def test_a_link_with_bad_sampling_values_says_what_it_refused_and_keeps_the_rest() -> None:
    """Each refused value is named with why; the prompt, the layer and the one good setting
    (the tile) are kept, and the refused ones show their defaults. Before: silent defaults."""
    query = {keys.DEC_TEXT: SHORT, keys.DEC_TILE: "2", **BAD_LINK}
    at = open_lab(PAGE, query, {keys.DEC_STAGE: "Online softmax"})
    page = texts(at)
    for said in ("dec_top_k = 999 is not a whole number from 0 to 50",
                 "dec_top_p = abc is not a number from 0.05 to 1",
                 "dec_seed = -3 is not a whole number from 0 to 1,000,000",
                 "dec_n = 0 is not a whole number from 1 to 32",
                 "dec_temp = 1e9 is not a number from 0 to 2"):  # fmt: skip
        assert f"The link's {said}, so the default is shown." in page, said
    assert at.text_input(key=keys.DEC_TEXT).value == SHORT
    assert at.slider(key=keys.DEC_TILE).value == 2  # the good value next to the bad ones
    assert (at.number_input(key=keys.DEC_TOP_K).value, at.slider(key=keys.DEC_TOP_P).value,
            at.number_input(key=keys.DEC_SEED).value, at.number_input(key=keys.DEC_N).value,
            at.slider(key=keys.DEC_TEMP).value) == (0, 1.0, 0, 8, 0.0)  # fmt: skip


def test_a_bad_tile_in_a_link_is_refused_in_the_learners_language() -> None:
    """A tile larger than the row (the picked token's keys) and a good top-k beside it, in
    German."""
    n = run_of(SHORT).labels.index("capital") + 1
    query = {keys.DEC_TEXT: SHORT, keys.DEC_TOKEN: "capital", keys.DEC_TILE: "40",
             keys.DEC_TOP_K: "3", keys.LANG: "de"}  # fmt: skip
    at = open_lab(PAGE, query, {keys.DEC_STAGE: "Online softmax"})
    page = texts(at)
    assert f"Der Wert dec_tile = 40 im Link ist nicht eine ganze Zahl von 1 bis {max(2, n)}" in page
    assert at.number_input(key=keys.DEC_TOP_K).value == 3
    assert at.slider(key=keys.DEC_TILE).value == min(4, n)  # the default
