"""Properties attention and softmax must have for every input (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import attention, naive_softmax, softmax

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
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)


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
    np.testing.assert_allclose(softmax(x + c), softmax(x), rtol=1e-9, atol=1e-12)


@FAST
@given(qkv(with_mask=True), st.data())
def test_permuting_keys_and_values_together_changes_nothing(data, draw):
    Q, K, V, mask = data
    n_k = K.shape[0]
    perm = np.array(draw.draw(st.permutations(range(n_k))))
    before = attention(Q, K, V, mask=mask)
    after = attention(Q, K[perm], V[perm], mask=mask[:, perm])
    np.testing.assert_allclose(after.output, before.output, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(after.weights, before.weights[:, perm], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(after.scores, before.scores[:, perm], rtol=1e-12, atol=1e-12)


@FAST
@given(qkv(with_mask=True))
def test_masked_weights_are_exactly_zero(data):
    Q, K, V, mask = data
    t = attention(Q, K, V, mask=mask)
    assert np.all(t.weights[~mask] == 0.0)
    assert np.all(np.isneginf(t.masked_scores[~mask]))
    np.testing.assert_array_equal(t.masked_scores[mask], t.scaled_scores[mask])
    np.testing.assert_allclose(t.weights.sum(axis=1), 1.0, atol=1e-12)


@FAST
@given(qkv())
def test_unscaled_is_scaled_attention_on_q_times_sqrt_dk(data):
    Q, K, V = data
    d_k = Q.shape[1]
    unscaled = attention(Q, K, V, scaled=False)
    assert unscaled.scale == 1.0
    np.testing.assert_array_equal(unscaled.scaled_scores, unscaled.scores)
    scaled = attention(Q * np.sqrt(d_k), K, V, scaled=True)
    np.testing.assert_allclose(scaled.scale, 1 / np.sqrt(d_k), rtol=1e-15)
    np.testing.assert_allclose(scaled.scaled_scores, unscaled.scores, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(scaled.weights, unscaled.weights, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(scaled.output, unscaled.output, rtol=1e-8, atol=1e-9)


huge = st.sampled_from([1e300, -1e300]) | st.floats(-1e300, 1e300)


@FAST
@given(st.integers(1, 4).flatmap(lambda r: matrix(r, 4, huge)))
def test_softmax_stays_finite_for_huge_logits(x):
    w = softmax(x)
    assert np.all(np.isfinite(w))
    assert np.all((w >= 0) & (w <= 1))
    np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-12)
    # the largest logit of each row gets the largest weight
    np.testing.assert_array_equal(w[np.arange(len(x)), x.argmax(axis=1)], w.max(axis=1))


def test_softmax_of_plus_and_minus_1e300():
    np.testing.assert_array_equal(softmax(np.array([[1e300, -1e300]])), [[1.0, 0.0]])
    np.testing.assert_array_equal(softmax(np.array([[1e300, 1e300]])), [[0.5, 0.5]])
    np.testing.assert_array_equal(softmax(np.array([[-1e300, -1e300, -1e300]])), [[1 / 3] * 3])


def test_softmax_gives_masked_entries_exactly_zero():
    w = softmax(np.array([[2.0, -np.inf, 0.0]]))
    assert w[0, 1] == 0.0
    np.testing.assert_allclose(w[0, [0, 2]], [np.exp(2) / (np.exp(2) + 1), 1 / (np.exp(2) + 1)])


def test_softmax_axis_argument():
    x = np.array([[0.0, 1.0], [2.0, 5.0]])
    np.testing.assert_allclose(softmax(x, axis=0), softmax(x.T).T)
    np.testing.assert_allclose(softmax(x, axis=0).sum(axis=0), [1.0, 1.0])


def test_naive_softmax_overflows_where_softmax_does_not():
    x = np.array([[1e3, 0.0], [1e3, 1e3]])
    naive = naive_softmax(x)
    assert np.isnan(naive[0, 0])  # exp(1000) = inf, inf / inf = nan
    assert np.all(np.isnan(naive[1]))
    np.testing.assert_allclose(softmax(x), [[1.0, 0.0], [0.5, 0.5]], atol=1e-300)


def test_naive_softmax_agrees_with_softmax_on_small_logits():
    x = np.array([[0.5, -1.0, 2.0]])
    np.testing.assert_allclose(naive_softmax(x), softmax(x), rtol=1e-14)


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
    np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-12)
