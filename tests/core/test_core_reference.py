"""attention() against the double-loop reference in reference.py, stage by stage."""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference import reference_attention, reference_softmax_row

from attention_core import PRESETS, attention, causal_mask, padding_mask
from tests.tolerance import assert_within, attention_bounds, product_bound, softmax_bound

# (n_q, n_k, d_k, d_v): 1x1, cross-attention (n_q != n_k), d_v != d_k, d_k = 1, bigger ones.
SHAPES = [
    (1, 1, 1, 1),
    (1, 2, 2, 1),
    (1, 5, 3, 2),
    (3, 1, 2, 4),
    (2, 3, 4, 1),
    (4, 4, 3, 5),
    (5, 2, 1, 3),
    (6, 6, 8, 2),
    (3, 7, 5, 5),
    (8, 5, 2, 6),
]
MASKS = ["none", "random", "causal", "padding"]
# A causal mask is square, so it only goes with n_q == n_k (self-attention).
CASES = [
    pytest.param(shape, kind, id="nq{}-nk{}-dk{}-dv{}-".format(*shape) + kind)
    for shape in SHAPES
    for kind in MASKS
    if kind != "causal" or shape[0] == shape[1]
]


def _random_mask(rng: np.random.Generator, n_q: int, n_k: int) -> np.ndarray:
    """Random True/False with at least one True per row."""
    mask = rng.random((n_q, n_k)) < 0.5
    mask[np.arange(n_q), rng.integers(0, n_k, size=n_q)] = True
    return mask


def loop_causal_mask(n: int) -> np.ndarray:
    """Query i may attend to keys 0..i: written as a loop, not with the core's causal_mask."""
    return np.array([[j <= i for j in range(n)] for i in range(n)])


def loop_padding_mask(n_q: int, n_k: int, n_valid: int) -> np.ndarray:
    """Every query sees the first n_valid keys only (the rest are padding)."""
    return np.array([[j < n_valid for j in range(n_k)] for _ in range(n_q)])


def _make_mask(kind: str, rng: np.random.Generator, n_q: int, n_k: int) -> np.ndarray | None:
    if kind == "none":
        return None
    if kind == "random":
        return _random_mask(rng, n_q, n_k)
    if kind == "causal":
        return loop_causal_mask(n_k)
    return loop_padding_mask(n_q, n_k, int(rng.integers(1, n_k + 1)))


def test_the_loop_masks_on_paper():
    """The reference masks themselves, against matrices written out by hand."""
    assert loop_causal_mask(3).tolist() == [
        [True, False, False],
        [True, True, False],
        [True, True, True],
    ]
    assert loop_padding_mask(2, 4, 3).tolist() == [[True, True, True, False]] * 2


@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_core_masks_match_the_loops(n):
    np.testing.assert_array_equal(causal_mask(n), loop_causal_mask(n))
    for n_valid in range(1, n + 1):
        np.testing.assert_array_equal(padding_mask(2, n, n_valid), loop_padding_mask(2, n, n_valid))


@pytest.mark.parametrize(("kind", "n_valid"), [("causal", None), ("padding", 4)])
def test_a_masked_scenario_matches_the_reference(kind, n_valid):
    """The mask a Scenario builds for itself ends up in its trace, as the loops say."""
    s = PRESETS["cat_mat"].build().replace(mask_kind=kind, n_valid=n_valid)
    t = s.trace()
    n = len(s.tokens)
    mask = loop_causal_mask(n) if kind == "causal" else loop_padding_mask(n, n, n_valid)
    np.testing.assert_array_equal(t.mask, mask)
    assert_matches_reference(t, reference_attention(t.Q, t.K, t.V, mask=mask))


def assert_matches_reference(trace, ref) -> None:
    """Every stage within the bound of two float64 evaluations (tests/tolerance.py)."""
    assert trace.d_k == ref.d_k
    assert isinstance(trace.d_k, int)
    assert trace.scale == ref.scale  # 1 / sqrt(d_k): two correctly rounded IEEE operations
    b = attention_bounds(trace.Q, trace.K, trace.V, trace.weights, trace.scale, trace.mask)
    assert_within(trace.scores, ref.scores, b.scores, "scores")
    assert_within(trace.scaled_scores, ref.scaled_scores, b.scaled, "scaled scores")
    # -inf in exactly the same places, and nowhere else
    np.testing.assert_array_equal(
        np.isneginf(trace.masked_scores), np.isneginf(np.array(ref.masked_scores))
    )
    assert_within(trace.masked_scores, ref.masked_scores, b.scaled, "masked scores")
    assert_within(trace.weights, ref.weights, b.weights, "weights")  # bound 0 where masked
    assert_within(trace.output, ref.output, b.output, "output")


@pytest.mark.parametrize(("shape", "mask_kind"), CASES)
@pytest.mark.parametrize("seed", [0, 1])
def test_attention_matches_double_loop_reference(shape, mask_kind, seed):
    n_q, n_k, d_k, d_v = shape
    rng = np.random.default_rng([seed, *shape, MASKS.index(mask_kind)])
    Q = rng.normal(size=(n_q, d_k)) * 2
    K = rng.normal(size=(n_k, d_k)) * 2
    V = rng.normal(size=(n_k, d_v)) * 5
    mask = _make_mask(mask_kind, rng, n_q, n_k)

    trace = attention(Q, K, V, mask=mask)

    assert trace.scores.shape == (n_q, n_k)
    assert trace.weights.shape == (n_q, n_k)
    assert trace.output.shape == (n_q, d_v)
    assert_matches_reference(trace, reference_attention(Q, K, V, mask=mask))
    if mask is None:
        assert trace.mask is None
    else:
        np.testing.assert_array_equal(trace.mask, mask)
    np.testing.assert_array_equal(trace.Q, Q)
    np.testing.assert_array_equal(trace.K, K)
    np.testing.assert_array_equal(trace.V, V)


@pytest.mark.parametrize("shape", SHAPES[:6], ids=lambda s: "nq{}-nk{}-dk{}-dv{}".format(*s))
def test_unscaled_attention_matches_reference(shape):
    n_q, n_k, d_k, d_v = shape
    rng = np.random.default_rng(list(shape))
    Q, K, V = rng.normal(size=(n_q, d_k)), rng.normal(size=(n_k, d_k)), rng.normal(size=(n_k, d_v))
    mask = _random_mask(rng, n_q, n_k)
    trace = attention(Q, K, V, mask=mask, scaled=False)
    assert trace.scale == 1.0
    assert_matches_reference(trace, reference_attention(Q, K, V, mask=mask, scaled=False))


def test_large_scores_match_reference():
    """Scores in the hundreds: the reference and the core both subtract the row maximum."""
    rng = np.random.default_rng(7)
    Q, K, V = rng.normal(size=(3, 4)) * 20, rng.normal(size=(5, 4)) * 20, rng.normal(size=(5, 2))
    trace = attention(Q, K, V)
    assert np.abs(trace.scaled_scores).max() > 100  # really in the range naive exp struggles with
    assert_matches_reference(trace, reference_attention(Q, K, V))


def test_integer_and_list_inputs_match_reference():
    Q, K, V = [[1, 0, 2]], [[1, 1, 1], [0, 2, 0]], [[3, 4], [5, 6]]
    trace = attention(Q, K, V)
    assert trace.Q.dtype == np.float64
    assert_matches_reference(trace, reference_attention(Q, K, V))


def test_reference_itself_on_hand_computed_numbers():
    """The reference is checked too: q = [1, 2], K = I, V = [10, 20] (the paper guide's toy)."""
    ref = reference_attention([[1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]], [[10.0], [20.0]])
    assert ref.scores == [[1.0, 2.0]]
    assert ref.d_k == 2
    assert ref.scale == 1 / math.sqrt(2)  # the same two correctly rounded operations
    # printed to 8 decimals: half a unit in the last digit
    assert ref.scaled_scores[0] == pytest.approx([0.70710678, 1.41421356], abs=5e-9)
    w1 = 1 / (1 + math.exp(1 / math.sqrt(2)))
    # the closed form 1 / (1 + e^{1/√2}) is another evaluation of the same softmax
    b_w = softmax_bound(np.array(ref.scaled_scores), np.array(ref.weights))
    assert_within(ref.weights, [[w1, 1 - w1]], b_w, "weights")
    b_out = product_bound(np.array(ref.weights), np.array([[10.0], [20.0]]), b_w)
    assert_within(ref.output, [[10 * w1 + 20 * (1 - w1)]], b_out, "output")
    masked = reference_attention([[1.0]], [[1.0], [5.0]], [[1.0], [2.0]], mask=[[True, False]])
    assert masked.masked_scores == [[1.0, -math.inf]]
    assert masked.weights == [[1.0, 0.0]]
    assert reference_softmax_row([0.0, 0.0, -math.inf]) == [0.5, 0.5, 0.0]


def test_to_frames_labels_every_stage():
    Q, K, V = [[1.0, 0.0]], [[1.0, 1.0], [0.0, 2.0], [3.0, 0.0]], [[1.0], [2.0], [3.0]]
    mask = np.array([[True, False, True]])
    t = attention(Q, K, V, mask=mask)
    frames = t.to_frames(["it"], ["a", "b", "a'"])
    assert set(frames) == {
        "Q", "K", "V", "scores", "scaled_scores", "masked_scores", "weights", "output", "mask",
    }  # fmt: skip
    assert list(frames["weights"].index) == ["it"]
    assert list(frames["weights"].columns) == ["a", "b", "a'"]
    assert list(frames["V"].columns) == ["v1"]
    assert list(frames["K"].columns) == ["d1", "d2"]
    np.testing.assert_array_equal(frames["weights"].to_numpy(), t.weights)
    np.testing.assert_array_equal(frames["output"].to_numpy(), t.output)
    default = attention(Q, K, V).to_frames()
    assert "mask" not in default
    assert list(default["scores"].index) == ["q1"]
    assert list(default["scores"].columns) == ["k1", "k2", "k3"]
