"""Generation: temperature, top-k and top-p, the seeded draw, and the KV cache against
recomputing everything.

Expected values come from definitions written out here (softmax with math.exp, the cache's
size and the multiply-adds from the architecture's numbers), never from the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from llama_reference import forward as reference_forward
from reference import reference_softmax_row
from smollm2 import WINOGRAD, decoder, network_tol
from test_decoder_parts import TINY, core_weights, reference_bound

from attention_core import InputError
from attention_core.decoder import llama
from attention_core.decoder.cache import cache_bytes, cached_step, multiply_adds, prefill
from attention_core.decoder.sampling import distribution, draw, uniform
from tests.tolerance import assert_within, eps, matmul_bound, softmax_bound

COUNT = "1, 2, 3, 4, 5,"  # greedy continues the count: no end-of-turn within 32 tokens


# ---- temperature, top-k, top-p ------------------------------------------------------------
@pytest.fixture(scope="module")
def logits():
    return decoder().logits(decoder().tokenize(WINOGRAD).ids)[-1]  # (vocab,) float32


RANDOM = np.random.default_rng(1).normal(scale=4.0, size=3000).astype(np.float32)  # no model


def check_softmax_over_t(logits: np.ndarray, t: float) -> None:
    """Against softmax(logits / T) one token at a time with math.exp and math.fsum; the
    bound is softmax_bound's for two evaluations, the division by T rounding each logit
    (u |x| on each side)."""
    d = distribution(logits, t)
    x = [float(v) / t for v in logits.tolist()]
    expected = np.array(reference_softmax_row(x))
    got = np.zeros_like(expected)
    got[d.ids] = d.p
    x = np.array(x)
    assert_within(got, expected, softmax_bound(x, expected, eps(np.float64) * np.abs(x)), f"T={t}")
    assert np.all(np.diff(d.p) <= 0)  # likeliest first
    assert got.round(4).tolist() == expected.round(4).tolist()  # the digits a page shows


@pytest.mark.parametrize("t", [0.1, 0.5, 1.0, 2.0])
def test_the_distribution_is_softmax_of_the_logits_over_t(logits, t):
    check_softmax_over_t(logits, t)


@pytest.mark.parametrize("t", [0.1, 0.7, 2.0])
def test_the_distribution_is_softmax_over_t_on_any_logits(t):
    check_softmax_over_t(RANDOM, t)


def test_temperature_sharpens_and_zero_is_greedy(logits):
    entropies = [distribution(logits, t).entropy for t in (2.0, 1.0, 0.5, 0.1)]
    assert entropies == sorted(entropies, reverse=True) and entropies[-1] < 0.05
    greedy = distribution(logits, 0.0)
    assert greedy.ids.tolist() == [int(np.argmax(logits))] and greedy.p.tolist() == [1.0]
    assert greedy.entropy == 0.0


def test_top_k_keeps_the_k_likeliest_renormalised():
    full = distribution(RANDOM, 0.8)
    cut = distribution(RANDOM, 0.8, top_k=5)
    assert cut.ids.tolist() == full.ids[:5].tolist()
    kept = full.p[:5]
    assert_within(cut.p, kept / math.fsum(kept.tolist()), 8 * eps(np.float64) * kept, "top-k")
    assert abs(cut.p.sum() - 1) <= 8 * eps(np.float64)


def test_top_p_keeps_the_fewest_tokens_that_reach_it():
    logits = np.log(np.array([0.05, 0.5, 0.15, 0.3]))  # sorted: 0.5, 0.3, 0.15, 0.05
    assert distribution(logits, 1.0, top_p=0.75).ids.tolist() == [1, 3]
    assert distribution(logits, 1.0, top_p=0.85).ids.tolist() == [1, 3, 2]
    assert distribution(logits, 1.0, top_p=0.4).ids.tolist() == [1]
    both = distribution(logits, 1.0, top_k=2, top_p=0.6)  # top-p reads the top-k's 5/8, 3/8
    assert both.ids.tolist() == [1] and both.p.tolist() == [1.0]
    assert distribution(logits, 1.0, top_k=2, top_p=0.7).ids.tolist() == [1, 3]


@pytest.mark.parametrize(
    "args", [(-0.1, None, None), (2.5, None, None), ("x", None, None), (1.0, 0, None),
             (1.0, 2.5, None), (1.0, None, 0.0), (1.0, None, 1.5), (1.0, True, None)],
)  # fmt: skip
def test_bad_settings_are_clear_input_errors(args):
    with pytest.raises(InputError):
        distribution(np.zeros(4), *args)


# ---- the seeded draw ----------------------------------------------------------------------
def test_uniform_is_the_top_53_bits_of_pcg64():
    """PCG64's raw stream is the same on every machine (numpy guarantees its bit
    generators' streams); the uniform number is its top 53 bits, exactly."""
    rng, raw = np.random.default_rng(7), np.random.PCG64(7)
    for _ in range(5):
        bits = int(raw.random_raw())
        assert uniform(rng) == math.ldexp(bits >> 11, -53)


def test_draws_follow_the_probabilities():
    """20,000 draws from 0.5, 0.3, 0.15, 0.05: each count within 5 standard deviations."""
    d = distribution(np.log(np.array([0.5, 0.3, 0.15, 0.05])), 1.0)
    rng = np.random.default_rng(0)
    n = 20_000
    counts = np.bincount([draw(d, uniform(rng)) for _ in range(n)], minlength=4)
    p = np.array([0.5, 0.3, 0.15, 0.05])
    assert (np.abs(counts - n * p) <= 5 * np.sqrt(n * p * (1 - p))).all(), counts


def test_a_draw_reads_the_running_sum():
    d = distribution(np.log(np.array([0.25, 0.75])), 1.0)  # likeliest first: 1 then 0
    assert [draw(d, u) for u in (0.0, 0.7499, 0.7501, 0.999)] == [1, 1, 0, 0]


# ---- the KV cache -------------------------------------------------------------------------
def test_greedy_32_tokens_with_and_without_the_cache_are_the_same():
    d = decoder()
    with_cache = d.generate(COUNT, 32, 0.0)
    assert len(with_cache) == 32 and d.eos_id not in with_cache
    assert d.generate(COUNT, 32, 0.0, cache=False) == with_cache
    assert d.decode(with_cache).startswith(" 6, 7, 8")


def test_sampling_is_the_same_with_and_without_the_cache_and_on_every_run():
    d = decoder()
    first = d.generate(WINOGRAD, 6, 0.9, top_p=0.95, seed=11)
    assert d.generate(WINOGRAD, 6, 0.9, top_p=0.95, seed=11) == first
    assert d.generate(WINOGRAD, 6, 0.9, top_p=0.95, seed=11, cache=False) == first
    others = {tuple(d.generate(WINOGRAD, 3, 2.0, seed=s)) for s in range(3)}
    assert len(others) > 1  # the seed matters


def test_cached_steps_on_a_tiny_model_equal_the_reference():
    """No model needed: a tiny random Llama (float64) prefilled with 3 tokens, then 5 cached
    steps, each step's logits and attention row against llama_reference's whole forward
    pass (code shared with nothing here), within the reference's own float32 rounding."""
    t, ids = TINY.weights(), [3, 17, 5, 5, 22, 9, 30, 1]
    lg32, w32 = reference_forward(t, TINY, ids, np.float32)
    lg64, w64 = reference_forward(t, TINY, ids, np.float64)
    w = core_weights(TINY, t, np.float64)
    logits, cache = prefill(w, ids[:3])
    assert_within(logits, lg64[2], reference_bound(lg32, lg64), "prefill")
    for i in range(3, len(ids)):
        step = cached_step(w, cache, ids[i])
        assert_within(step.logits, lg64[i], reference_bound(lg32, lg64), f"step {i}")
        assert_within(step.weights, w64[:, :, i, : i + 1], reference_bound(w32, w64), f"row {i}")
        assert step.cache.n == i + 1
        cache = step.cache


def test_a_cached_step_equals_recomputing_the_whole_text():
    """Four steps. The logits: two float32 evaluations of the whole network (the cached one
    sums each product over one row, the recomputation over all rows, in other orders), so
    the bound is the decoder's float32 noise for its logits (smollm2.network_tol). Layer 1's
    new key and value: one 576-term product of the same normalised row, matmul_bound."""
    d = decoder()
    w = d.weights
    ids = list(d.tokenize(WINOGRAD).ids)
    logits, cache = prefill(w, ids)
    tol = network_tol("logits")
    for _ in range(4):
        token = int(np.argmax(logits))
        step = cached_step(w, cache, token)
        ids.append(token)
        again, layers = llama.forward(w, ids, last_only=True)
        assert_within(step.logits, again[0], tol, f"logits at {len(ids)} tokens")
        H = layers[0].H[-1:]
        bound = matmul_bound(H, w.layers[0].Wt_qkv)[0, 576:].reshape(2, 3, 64)  # K, V
        assert_within(step.cache.K[0][-1], layers[0].K[-1], rope_bound(bound[0],
                      layers[0].K_pre[-1]), "layer 1 key")  # fmt: skip
        assert_within(step.cache.V[0][-1], layers[0].V[-1], bound[1], "layer 1 value")
        for layer in (0, 29):  # the rest of the cache is kept as it was
            np.testing.assert_array_equal(step.cache.K[layer][:-1], cache.K[layer])
        assert step.weights.shape == (30, 9, len(ids))
        assert (np.abs(step.weights.sum(axis=-1) - 1) < 1e-12).all()
        logits, cache = step.logits, step.cache


def rope_bound(before: np.ndarray, K_pre: np.ndarray) -> np.ndarray:
    """|two evaluations of RoPE(K_pre)| when K_pre's differ by ``before`` (g, 64): a turned
    component x_i cos - x_j sin (j = i's pair) carries both inputs' differences (|cos|,
    |sin| <= 1) and rounds two products and a sum in float32 (3 u (|x_i| + |x_j|) each
    side)."""
    pair = np.roll(before, 32, axis=-1)
    mag = np.abs(K_pre.astype(np.float64))
    return before + pair + 3 * eps(np.float32) * (mag + np.roll(mag, 32, axis=-1))


def test_cache_size_and_work():
    """SmolLM2: 30 layers, 3 key/value heads (9 query heads) of 64 numbers, float32."""
    c = decoder().config
    per_token = 2 * 30 * 3 * 64 * 4  # keys and values, layers, kv heads, d_head, bytes
    assert cache_bytes(c, 1) == per_token == 46_080
    assert cache_bytes(c, 32, grouped=False) == 3 * 32 * per_token
    _, cache = prefill(decoder().weights, list(decoder().tokenize(WINOGRAD).ids))
    assert cache.nbytes == cache_bytes(c, cache.n)
    # one token, 32 keys: projections 576 x (9 + 6) x 64, heads 2 x 9 x 32 x 64, W_o 576 x
    # 576, MLP 3 x 576 x 1536, per layer; the output matrix 576 x 49152
    layer = 576 * 15 * 64 + 2 * 9 * 32 * 64 + 576 * 576 + 3 * 576 * 1536
    assert multiply_adds(c, 1, 32) == 30 * layer + 576 * 49_152
    full = 30 * (32 * (576 * 15 * 64 + 576 * 576 + 3 * 576 * 1536) + 2 * 9 * 32 * 32 * 64)
    assert multiply_adds(c, 32, 32) == full + 576 * 49_152
    assert multiply_adds(c, 32, 32) > 20 * multiply_adds(c, 1, 32)


@pytest.mark.parametrize("n, seed", [(0, 0), (33, 0), (2.0, 0), (1, -1), (1, True)])
def test_bad_generation_settings_are_clear_input_errors(n, seed):
    with pytest.raises(InputError):
        decoder().generate(WINOGRAD, n, 1.0, seed=seed)


def test_the_first_draw_a_page_announces_is_generates_first_token():
    d = decoder()
    run = d.run(WINOGRAD)
    for t, k, p, seed in ((1.0, None, None, 0), (1.5, 20, None, 3), (0.8, None, 0.9, 7)):
        assert run.first_draw(t, k, p, seed) == d.generate(WINOGRAD, 1, t, k, p, seed)[0]
