"""attention_backward against the core's own forward (central differences), against the
double-loop reference, and the properties the Training lab's lesson rests on."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import InputError, attention, attention_backward, batched_attention
from tests.core.reference import reference_backward
from tests.tolerance import (
    UNDERFLOW,
    assert_within,
    attention_bounds,
    backward_bounds,
    eps,
    gamma,
)

FAST = settings(max_examples=40, deadline=None)
GRID = 2.0**-12  # inputs are multiples of this, so x +- H below is exact (no rounding)
H = 2.0**-16  # the central differences' step: a power of two, so dividing by 2H is exact


def dyadic(x: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(x) / GRID) * GRID


@st.composite
def problem(draw, spread: float = 2.0):
    """Q, K, V, d_output, a mask (or None) with a True in every row, and scaled."""
    n_q, n_k, d_k, d_v = (draw(st.integers(1, 4)) for _ in range(4))
    vals = st.floats(-spread, spread, allow_nan=False, allow_infinity=False)
    Q, K = draw(arrays(np.float64, (n_q, d_k), elements=vals)), draw(
        arrays(np.float64, (n_k, d_k), elements=vals))  # fmt: skip
    V = draw(arrays(np.float64, (n_k, d_v), elements=vals))
    dO = draw(arrays(np.float64, (n_q, d_v), elements=vals))
    mask = None
    if draw(st.booleans()):
        mask = draw(arrays(np.bool_, (n_q, n_k)))
        keep = draw(st.lists(st.integers(0, n_k - 1), min_size=n_q, max_size=n_q))
        mask[np.arange(n_q), keep] = True
    return (*(dyadic(M) for M in (Q, K, V, dO)), mask, draw(st.booleans()))


def loss(Q, K, V, dO, mask, scaled) -> tuple[float, float]:
    """L = sum(dO * output) (so dL/d(output) = dO), and a bound on its float64 error: the
    output's (attention_bounds, two evaluations, so also against the exact one) carried
    through dO, plus the sum of n_q d_v products, gamma_{N}."""
    t = attention(Q, K, V, mask=mask, scaled=scaled)
    terms = dO * t.output
    b = attention_bounds(Q, K, V, t.weights, t.scale, mask).output
    error = np.sum(np.abs(dO) * b) + gamma(terms.size + 1, np.float64) * np.sum(np.abs(terms))
    return float(np.sum(terms)), float(error)


def third_derivative_bound(w: np.ndarray, c: np.ndarray, ranges: np.ndarray) -> float:
    """max |f'''| on [-H, H] for f(t) = sum_ij c_ij w_ij(t), where row i's logits move by
    t a_i and ``ranges`` R_i = max a_i - min a_i (over its unmasked keys).

    With d_j = a_j - mean_w(a): w_j' = w_j d_j, w_j'' = w_j (d_j^2 - var), w_j''' = w_j (d_j^3
    - 3 var d_j - k3) (k3 the third central moment), and |d_j| <= R, var <= R^2 / 4
    (Popoviciu), |k3| <= R var: |w_j'''| <= 2 R^3 w_j. Within |t| <= H a weight grows by at
    most e^{H R} (and stays <= 1).
    """
    R = ranges[:, None]  # (n_q, 1)
    w_max = np.minimum(1.0, w * np.exp(H * R))
    return float(np.sum(np.abs(c) * 2 * R**3 * w_max))


def row_ranges(a: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """R_i of each row of a (n_q, n_k) over its unmasked keys (0 for a row with one key)."""
    allowed = np.ones(a.shape, bool) if mask is None else mask
    hi = np.max(np.where(allowed, a, -np.inf), axis=1)
    lo = np.min(np.where(allowed, a, np.inf), axis=1)
    return hi - lo


def check_against_differences(Q, K, V, dO, mask, scaled) -> None:
    t = attention(Q, K, V, mask=mask, scaled=scaled)
    g = attention_backward(t, dO)
    bb = backward_bounds(Q, K, V, t.weights, t.scale, dO, mask)
    c = np.abs(dO) @ np.abs(V).T  # (n_q, n_k) >= |dL/dw|: the c_ij of third_derivative_bound
    inputs = {"Q": Q, "K": K, "V": V}
    for name, grad, bound in (("Q", g.dQ, bb.dQ), ("K", g.dK, bb.dK), ("V", g.dV, bb.dV)):
        M = inputs[name]
        for idx in np.ndindex(M.shape):
            plus, minus = M.copy(), M.copy()
            plus[idx] += H  # exact: M is on the grid
            minus[idx] -= H
            args = {**inputs, name: plus}
            f_plus, e_plus = loss(args["Q"], args["K"], args["V"], dO, mask, scaled)
            args = {**inputs, name: minus}
            f_minus, e_minus = loss(args["Q"], args["K"], args["V"], dO, mask, scaled)
            diff = (f_plus - f_minus) / (2 * H)
            if name == "Q":  # row i's logits move by t * scale * K[:, m]
                a = np.zeros(t.weights.shape)
                a[idx[0]] = t.scale * K[:, idx[1]]
                truncation = H**2 / 6 * third_derivative_bound(t.weights, c, row_ranges(a, mask))
            elif name == "K":  # column j's logits move by t * scale * Q[:, m]
                a = np.zeros(t.weights.shape)
                a[:, idx[0]] = t.scale * Q[:, idx[1]]
                truncation = H**2 / 6 * third_derivative_bound(t.weights, c, row_ranges(a, mask))
            else:  # the loss is linear in V: the central difference is exact but for rounding
                truncation = 0.0
            rounding = (e_plus + e_minus + eps(np.float64) * abs(f_plus - f_minus)) / (2 * H)
            limit = truncation + rounding + bound[idx] + UNDERFLOW
            assert abs(diff - grad[idx]) <= limit, (name, idx, diff, grad[idx], limit)


@FAST
@given(problem())
def test_gradients_match_central_differences_of_the_forward(data):
    check_against_differences(*data)


def test_central_differences_unscaled_and_masked_at_a_fixed_case():
    rng = np.random.default_rng(7)
    Q, K, V, dO = (dyadic(rng.normal(size=s)) for s in ((3, 4), (4, 4), (4, 2), (3, 2)))
    mask = np.array([[1, 0, 1, 1], [1, 1, 0, 0], [0, 0, 0, 1]], dtype=bool)
    check_against_differences(Q, K, V, dO, mask, scaled=False)
    check_against_differences(Q, K, V, dO, None, scaled=True)


@FAST
@given(problem(spread=6.0))
def test_gradients_match_the_double_loop_reference(data):
    Q, K, V, dO, mask, scaled = data
    t = attention(Q, K, V, mask=mask, scaled=scaled)
    g = attention_backward(t, dO)
    ref = reference_backward(Q, K, V, dO, mask=mask, scaled=scaled)
    b = backward_bounds(Q, K, V, t.weights, t.scale, dO, mask)
    assert_within(g.d_weights, ref.d_weights, b.d_weights, "d_weights")
    assert_within(g.d_scores, ref.d_scores, b.d_scores, "d_scores")
    assert_within(g.dQ, ref.dQ, b.dQ, "dQ")
    assert_within(g.dK, ref.dK, b.dK, "dK")
    assert_within(g.dV, ref.dV, b.dV, "dV")
    assert np.array_equal(g.d_scores, g.d_scaled_scores * t.scale)


@FAST
@given(problem(spread=6.0))
def test_masked_keys_get_exactly_no_gradient(data):
    Q, K, V, dO, mask, scaled = data
    if mask is None:
        mask = np.ones((len(Q), len(K)), bool)
        mask[:, 0] = len(K) == 1  # mask the first key wherever another is allowed
    g = attention_backward(attention(Q, K, V, mask=mask, scaled=scaled), dO)
    assert np.all(g.d_scaled_scores[~mask] == 0.0)
    assert np.all(g.d_scores[~mask] == 0.0)
    unseen = ~mask.any(axis=0)  # keys no query may see: nothing reaches them
    assert np.all(g.dK[unseen] == 0.0)
    assert np.all(g.dV[unseen] == 0.0)


@FAST
@given(st.integers(2, 8), st.integers(1, 4), st.floats(30.0, 60.0), st.integers(0, 10**6))
def test_a_row_saturated_on_one_key_gets_almost_no_score_gradient(n_k, d_v, gap, seed):
    """A row whose top logit leads by ``gap`` has 1 - w_top <= (n_k - 1) e^-gap, and its score
    gradient sum_j |w_j (g_j - s)| <= 4 (1 - w_top) max|g| (s = w.g: for j != top,
    |g_j - s| <= 2 max|g|; for the top, w_top (g_top - s) = w_top sum_{j!=top} w_j (g_top -
    g_j)). Right or wrong key alike: the gradient does not care what the loss is."""
    rng = np.random.default_rng(seed)
    top = int(rng.integers(n_k))
    K = np.eye(n_k)  # d_k = n_k: key j is the unit vector e_j
    Q = (rng.uniform(-1, 1, size=(1, n_k)) + np.eye(n_k)[top] * (gap + 2)).round(3)
    V, dO = rng.normal(size=(n_k, d_v)), rng.normal(size=(1, d_v))
    t = attention(Q, K, V, scaled=False)
    g = attention_backward(t, dO)
    # The float64 softmax rounds w_top by up to (n_k + 2) units of eps (the n_k-term sum, the
    # division), so 1 - w_top may exceed e^-gap by that much, and s = w.g by n_k eps max|g|.
    rounding = (n_k + 2) * np.finfo(np.float64).eps
    assert 1 - t.weights[0, top] <= (n_k - 1) * np.exp(-gap) + rounding
    g_max = np.max(np.abs(g.d_weights))
    limit = 4 * ((n_k - 1) * np.exp(-gap) + rounding) * g_max
    assert np.sum(np.abs(g.d_scores)) <= limit + n_k * UNDERFLOW
    assert np.max(np.abs(g.d_weights)) > 0.01 * np.max(np.abs(dO))  # the loss still wants a change


def test_a_stack_of_examples_is_each_example_alone():
    rng = np.random.default_rng(3)
    Q, K, V, dO = (rng.normal(size=(5, 4, 3)) for _ in range(4))
    mask = np.tril(np.ones((4, 4), bool))
    g = attention_backward(batched_attention(Q, K, V, mask=mask, scaled=False), dO)
    for b in range(5):
        t = attention(Q[b], K[b], V[b], mask=mask, scaled=False)
        one = attention_backward(t, dO[b])
        # the same products on one matrix or a stack: BLAS may sum in another order
        bound = backward_bounds(Q[b], K[b], V[b], t.weights, t.scale, dO[b], mask)
        for name in ("dQ", "dK", "dV", "d_weights", "d_scores"):
            assert_within(getattr(g, name)[b], getattr(one, name), getattr(bound, name), name)


def test_a_wrong_shaped_output_gradient_is_a_clear_message():
    t = attention(np.eye(2), np.eye(2), np.ones((2, 3)))
    with pytest.raises(InputError, match="one number per output entry"):
        attention_backward(t, np.ones((2, 2)))
