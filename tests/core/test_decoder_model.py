"""The real decoder's runs: causal heads, shared keys and values, what it predicts, bad input,
missing files, and one copy of the weights in memory."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from smollm2 import PARIS, WINOGRAD, decoder

from attention_core import InputError, attention, causal_mask
from attention_core.decoder import (
    MAX_PROMPT_TOKENS,
    DecoderMissing,
    apply_rope,
    decoder_head_scenario,
    load_decoder,
    rope_tables,
)
from attention_core.decoder.files import INDEX_FILE, WEIGHTS_FILE
from tests.tolerance import assert_within, matmul_bound, row_sum_bound


@pytest.fixture(scope="module")
def winograd():
    return decoder().run(WINOGRAD)


# ---- every head ----------------------------------------------------------------------------
def test_every_head_sums_to_one_and_never_sees_the_future(winograd):
    n = winograd.n
    assert winograd.weights.shape == (30, 9, n, n)
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    assert (winograd.weights[..., upper] == 0.0).all()  # exactly 0, in all 270 heads
    assert (np.abs(winograd.weights.sum(axis=-1) - 1.0) <= row_sum_bound(n)).all()


def test_a_head_is_attention_on_its_own_q_and_its_groups_k_and_v(winograd):
    """Q, K and V rebuilt from the layer's normalised input and its weights (another float32
    product: matmul_bound's worst case for 576 terms), RoPE applied again (the same
    function on the same arrays: equal), then attention() again: the same numbers."""
    d = decoder()
    cos, sin = rope_tables(winograd.n, 64, 100_000.0)
    for layer in (0, 17, 29):
        la, lw = winograd.layers[layer], d.weights.layers[layer]
        for name, W, M in (("Q", lw.W_q, la.Q_pre), ("K", lw.W_k, la.K_pre)):
            rebuilt = la.H @ W.T
            assert_within(M.reshape(winograd.n, -1), rebuilt, matmul_bound(la.H, W.T), name)
        np.testing.assert_array_equal(la.Q, apply_rope(la.Q_pre, cos, sin))
        mask = causal_mask(winograd.n)
        for head in range(9):
            trace, g = winograd.head(layer, head), head // 3
            np.testing.assert_array_equal(trace.K, la.K[:, g])  # shared by heads 3g..3g+2
            np.testing.assert_array_equal(trace.V, la.V[:, g])
            again = attention(la.Q[:, head], la.K[:, g], la.V[:, g], mask=mask)
            np.testing.assert_array_equal(again.weights, winograd.weights[layer, head])
            assert trace.d_k == 64 and trace.scale == 0.125


def test_grouped_heads_share_keys_but_not_queries(winograd):
    la = winograd.layers[5]
    assert la.Q.shape == (winograd.n, 9, 64) and la.K.shape == (winograd.n, 3, 64)
    first, second = winograd.head(5, 0), winograd.head(5, 1)
    assert first.K is not None and np.array_equal(first.K, second.K)
    assert not np.array_equal(first.Q, second.Q)
    assert not np.array_equal(first.weights, second.weights)


# ---- what it predicts ------------------------------------------------------------------------
def test_the_greedy_continuation_of_the_capital_of_france_starts_with_paris():
    d = decoder()
    new = d.greedy(PARIS, 3)
    assert d.decode(new[:1]) == " Paris"
    assert d.decode(new).startswith(" Paris")
    top = d.run(PARIS).next_tokens
    assert top[0].text == " Paris" and 0.5 < top[0].p < 1.0
    assert [t.p for t in top] == sorted((t.p for t in top), reverse=True)


def test_the_trophy_is_too_large(winograd):
    """The Winograd sentence: the model's own answer (issue 23: " large", " big", " small")."""
    assert [t.text for t in winograd.next_tokens[:3]] == [" large", " big", " small"]


def test_patterns_find_sinks_in_the_later_layers(winograd):
    labels = [[p.label for p in layer] for layer in winograd.patterns()]
    late = [label for layer in labels[15:] for label in layer]
    assert late.count("sink") >= len(late) // 2  # most later heads park on the first token


# ---- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_an_empty_prompt_says_so(text: str):
    with pytest.raises(InputError, match="type a prompt"):
        decoder().run(text)


def test_a_prompt_of_only_special_tokens_says_so():
    with pytest.raises(InputError, match=r"only special tokens \(<\|im_start\|>, <\|im_end\|>\)"):
        decoder().run("<|im_start|><|im_end|><|im_start|>")


def test_special_tokens_among_text_are_marked():
    run = decoder().run("<|im_start|>user\nHi")
    assert run.special == (True, False, False, False)
    assert run.labels == ["<|im_start|>", "user", "⏎", "Hi"]


def test_a_long_prompt_is_cut_at_64_tokens_saying_where():
    text = " ".join(f"word{i}" for i in range(100))
    run = decoder().run(text)
    assert run.n == MAX_PROMPT_TOKENS
    cut = run.prompt.cut
    assert cut is not None and cut.n_kept == 64 and cut.n_tokens > 64
    assert text[: cut.cut_char] == decoder().decode(run.ids)  # the part read, exactly
    assert f"cut at character {cut.cut_char + 1}" in cut.message
    assert cut.dropped_preview.split()[0] in text[cut.cut_char :]


def test_a_missing_model_names_make_model(tmp_path):
    with pytest.raises(DecoderMissing) as err:
        load_decoder(tmp_path)
    assert "`make model`" in err.value.message
    assert err.value.command == "make model"
    assert set(err.value.missing) == {"decoder.json", "tokenizer.json", "weights.f32.npy"}


def test_a_cache_of_another_version_or_cut_short_names_make_model(tmp_path):
    d = decoder()
    for name in ("decoder.json", "tokenizer.json"):
        shutil.copy(d.path / name, tmp_path / name)
    (tmp_path / WEIGHTS_FILE).write_bytes(b"\x93NUMPY" + b"\0" * 100)  # cut short
    with pytest.raises(DecoderMissing, match="make model"):
        load_decoder(tmp_path)
    info = json.loads((tmp_path / INDEX_FILE).read_text())
    (tmp_path / INDEX_FILE).write_text(json.dumps({**info, "version": 0}))
    with pytest.raises(DecoderMissing, match="cache version 0"):
        load_decoder(tmp_path)


# ---- in the walkthrough ------------------------------------------------------------------------
def test_a_head_opens_as_a_causal_scenario(winograd):
    scenario = decoder_head_scenario(winograd, 3, 4)
    assert scenario.mask_kind == "causal" and scenario.mode == "direct"
    assert scenario.tokens[:3] == ("The", "trophy", "did")
    assert scenario.name.startswith("SmolLM2 layer 4, head 5 (K/V head 2)")
    np.testing.assert_array_equal(scenario.trace().weights, winograd.weights[3, 4])


def test_there_is_no_layer_31(winograd):
    with pytest.raises(InputError, match="no layer 31, head 1"):
        winograd.head(30, 0)


# ---- one copy in memory --------------------------------------------------------------------------
def test_the_weights_are_read_only_views_of_one_mapped_file():
    w = decoder().weights
    base = w.embed
    while base.base is not None and not isinstance(base, np.memmap):
        base = base.base
    assert isinstance(base, np.memmap) and str(base.filename).endswith(WEIGHTS_FILE)
    for a in (w.embed, w.output, w.layers[0].Wt_qkv, w.layers[29].W_down):
        assert not a.flags.writeable
        assert np.shares_memory(a, base)
