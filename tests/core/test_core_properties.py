"""Properties attention and softmax must have for every input (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import attention, naive_softmax, softmax
from tests.tolerance import (
    UNDERFLOW,
    assert_within,
    attention_bounds,
    eps,
    gamma,
    product_bound,
    row_sum_bound,
    softmax_bound,
)

FAST = settings(max_examples=60, deadline=None)

dims = st.integers(min_value=1, max_value=5)
values = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)


def matrix(rows: int, cols: int, elements=values):
    return arrays(np.float64, (rows, cols), elements=elements)


@st.composite
def qkv(draw, with_mask: bool = False):
    """Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v) and optionally a mask with a True in every row."""
    n_q, n_k, d_k, d_v = draw(dims), draw(dims), draw(dims), draw(dims)
    Q, K, V = draw(matrix(n_q, d_k)), draw(matrix(n_k, d_k)), draw(matrix(n_k, d_v))
    if not with_mask:
        return Q, K, V
    mask = draw(arrays(np.bool_, (n_q, n_k)))
    keep = draw(st.lists(st.integers(0, n_k - 1), min_size=n_q, max_size=n_q))
    mask[np.arange(n_q), keep] = True
    return Q, K, V, mask


@FAST
@given(qkv(with_mask=True), st.booleans())
def test_weight_rows_sum_to_one(data, use_mask):
    Q, K, V, mask = data
    w = attention(Q, K, V, mask=mask if use_mask else None).weights
    assert np.all(w >= 0)
    assert np.all(w <= 1)
    assert_within(w.sum(axis=1), np.ones(len(w)), row_sum_bound(w.shape[1]), "row sums")


@FAST
@given(
    st.integers(1, 4).flatmap(
        lambda r: st.tuples(
            matrix(r, 5, st.floats(-1e3, 1e3)),
            arrays(np.float64, (r, 1), elements=st.floats(-1e3, 1e3)),
        )
    )
)
def test_softmax_ignores_a_constant_added_to_a_row(data):
    x, c = data
    w = softmax(x)
    # x + c is rounded once, u |x + c| per logit; softmax itself ignores the exact shift
    shifted = softmax_bound(x, w, eps(np.float64) / 2 * np.abs(x + c))
    assert_within(softmax(x + c), w, shifted, "shifted softmax")


@FAST
@given(qkv(with_mask=True), st.data())
def test_permuting_keys_and_values_together_changes_nothing(data, draw):
    Q, K, V, mask = data
    n_k = K.shape[0]
    perm = np.array(draw.draw(st.permutations(range(n_k))))
    before = attention(Q, K, V, mask=mask)
    after = attention(Q, K[perm], V[perm], mask=mask[:, perm])
    # the same numbers, summed in another order (another BLAS path): two evaluations
    b = attention_bounds(Q, K, V, before.weights, before.scale, mask)
    assert_within(after.output, before.output, b.output, "output")
    assert_within(after.weights, before.weights[:, perm], b.weights[:, perm], "weights")
    assert_within(after.scores, before.scores[:, perm], b.scores[:, perm], "scores")


@FAST
@given(qkv(with_mask=True))
def test_masked_weights_are_exactly_zero(data):
    Q, K, V, mask = data
    t = attention(Q, K, V, mask=mask)
    assert np.all(t.weights[~mask] == 0.0)
    assert np.all(np.isneginf(t.masked_scores[~mask]))
    np.testing.assert_array_equal(t.masked_scores[mask], t.scaled_scores[mask])
    assert_within(
        t.weights.sum(axis=1),
        np.ones(len(t.weights)),
        row_sum_bound(t.weights.shape[1]),
        "row sums",
    )


@FAST
@given(qkv())
def test_unscaled_is_scaled_attention_on_q_times_sqrt_dk(data):
    Q, K, V = data
    d_k = Q.shape[1]
    unscaled = attention(Q, K, V, scaled=False)
    assert unscaled.scale == 1.0
    np.testing.assert_array_equal(unscaled.scaled_scores, unscaled.scores)
    scaled = attention(Q * np.sqrt(d_k), K, V, scaled=True)
    assert scaled.scale == 1 / np.sqrt(d_k)  # the same two IEEE operations
    # Both d_k-term dot products (2 gamma_{d_k} |Q||K|^T), Q * r rounded (u |Q||K|^T), the
    # product with fl(1/r) (u |s|) and r fl(1/r) = 1 + u (u |s|), with r = fl(sqrt(d_k))
    # the same in both: within 2 gamma_{d_k + 2} |Q||K|^T; below the normal range the
    # d_k + 2 products each err by up to UNDERFLOW (both evaluations).
    b_scaled = 2 * gamma(d_k + 2, np.float64) * (np.abs(Q) @ np.abs(K).T) + (d_k + 2) * UNDERFLOW
    assert_within(scaled.scaled_scores, unscaled.scores, b_scaled, "scaled scores")
    b_w = softmax_bound(unscaled.scores, unscaled.weights, b_scaled)
    assert_within(scaled.weights, unscaled.weights, b_w, "weights")
    assert_within(scaled.output, unscaled.output, product_bound(unscaled.weights, V, b_w), "output")


huge = st.sampled_from([1e300, -1e300]) | st.floats(-1e300, 1e300)


@FAST
@given(st.integers(1, 4).flatmap(lambda r: matrix(r, 4, huge)))
def test_softmax_stays_finite_for_huge_logits(x):
    w = softmax(x)
    assert np.all(np.isfinite(w))
    assert np.all((w >= 0) & (w <= 1))
    assert_within(w.sum(axis=1), np.ones(len(w)), row_sum_bound(4), "row sums")
    # the largest logit of each row gets the largest weight
    np.testing.assert_array_equal(w[np.arange(len(x)), x.argmax(axis=1)], w.max(axis=1))


def test_softmax_of_plus_and_minus_1e300():
    np.testing.assert_array_equal(softmax(np.array([[1e300, -1e300]])), [[1.0, 0.0]])
    np.testing.assert_array_equal(softmax(np.array([[1e300, 1e300]])), [[0.5, 0.5]])
    np.testing.assert_array_equal(softmax(np.array([[-1e300, -1e300, -1e300]])), [[1 / 3] * 3])


def test_softmax_gives_masked_entries_exactly_zero():
    w = softmax(np.array([[2.0, -np.inf, 0.0]]))
    assert w[0, 1] == 0.0
    # the closed form is another evaluation of the same softmax
    b = softmax_bound(np.array([[2.0, -np.inf, 0.0]]), w)[0, [0, 2]]
    assert_within(w[0, [0, 2]], [np.exp(2) / (np.exp(2) + 1), 1 / (np.exp(2) + 1)], b, "weights")


def test_softmax_axis_argument():
    x = np.array([[0.0, 1.0], [2.0, 5.0]])
    # elementwise steps and a two-term sum (one rounding, in either layout): exactly equal
    np.testing.assert_array_equal(softmax(x, axis=0), softmax(x.T).T)
    assert_within(softmax(x, axis=0).sum(axis=0), [1.0, 1.0], row_sum_bound(2), "column sums")


def test_naive_softmax_overflows_where_softmax_does_not():
    x = np.array([[1e3, 0.0], [1e3, 1e3]])
    naive = naive_softmax(x)
    assert np.isnan(naive[0, 0])  # exp(1000) = inf, inf / inf = nan
    assert np.all(np.isnan(naive[1]))
    # exp(0) = 1, exp(-1000) underflows to 0 and 1 / 2 are exact
    np.testing.assert_array_equal(softmax(x), [[1.0, 0.0], [0.5, 0.5]])


def test_naive_softmax_agrees_with_softmax_on_small_logits():
    x = np.array([[0.5, -1.0, 2.0]])
    w = softmax(x)
    assert_within(naive_softmax(x), w, softmax_bound(x, w), "naive softmax")  # two evaluations


@FAST
@given(
    st.integers(1, 3).flatmap(
        lambda r: st.tuples(
            matrix(r, 3, st.floats(-1e3, 1e3)),
            arrays(np.float64, (r,), elements=st.floats(710, 1e4)),
        )
    )
)
def test_naive_softmax_is_nan_once_a_logit_passes_709(data):
    x, big = data
    x = x.copy()
    x[:, 0] = big  # every row has one logit whose exp overflows
    assert np.all(np.isnan(naive_softmax(x)[:, 0]))
    w = softmax(x)
    assert np.all(np.isfinite(w))
    assert_within(w.sum(axis=1), np.ones(len(w)), row_sum_bound(3), "row sums")
