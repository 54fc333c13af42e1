"""multi_head_attention against attention() per head, a slow loop reference, the n_heads = 1
case, the error table and a small case worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_core import (
    InputError,
    attention,
    causal_mask,
    head_divisors,
    multi_head_attention,
)
from tests.tolerance import assert_within, attention_bounds, matmul_bound, multi_head_bounds

RNG = np.random.default_rng(9)


def random_case(n_q: int = 3, n_k: int = 3, d_model: int = 4, n_heads: int = 2, d_head: int = 2):
    """Matrices (X, W_q, W_k, W_v, W_o) drawn at random, and a separate X_kv (n_k, d_model)."""
    width = n_heads * d_head
    case = dict(
        X=RNG.normal(size=(n_q, d_model)),
        W_q=RNG.normal(size=(d_model, width)),
        W_k=RNG.normal(size=(d_model, width)),
        W_v=RNG.normal(size=(d_model, width)),
        W_o=RNG.normal(size=(width, d_model)),
    )
    return case, RNG.normal(size=(n_k, d_model))


# ---- a slow reference, written from the formula with plain loops ---------------------
def slow_multi_head(X, W_q, W_k, W_v, W_o, n_heads, mask=None, X_kv=None):
    """concat_h softmax(Q_h K_hᵀ / √d_head) V_h, then W_o, one number at a time."""
    X = X.tolist()
    X_kv = X if X_kv is None else X_kv.tolist()
    W_q, W_k, W_v, W_o = (W.tolist() for W in (W_q, W_k, W_v, W_o))
    d_model, width = len(W_q), len(W_q[0])
    d_head = width // n_heads

    def product(A, B):
        return [
            [sum(A[i][m] * B[m][j] for m in range(len(B))) for j in range(len(B[0]))]
            for i in range(len(A))
        ]

    Q, K, V = product(X, W_q), product(X_kv, W_k), product(X_kv, W_v)
    concat = [[0.0] * width for _ in X]
    for h in range(n_heads):
        cols = range(h * d_head, (h + 1) * d_head)
        for i in range(len(X)):
            scores = []
            for j in range(len(X_kv)):
                if mask is not None and not mask[i][j]:
                    scores.append(None)
                    continue
                scores.append(sum(Q[i][c] * K[j][c] for c in cols) / math.sqrt(d_head))
            top = max(s for s in scores if s is not None)
            exps = [0.0 if s is None else math.exp(s - top) for s in scores]
            weights = [e / sum(exps) for e in exps]
            for c in cols:
                concat[i][c] = sum(weights[j] * V[j][c] for j in range(len(X_kv)))
    assert len(W_o[0]) == d_model
    return concat, product(concat, W_o)


@pytest.mark.parametrize(
    ("n_q", "n_k", "d_model", "n_heads", "d_head", "cross", "masked"),
    [
        (3, 3, 4, 2, 2, False, False),
        (4, 4, 6, 3, 2, False, True),
        (2, 2, 4, 4, 1, False, False),
        (1, 3, 4, 2, 3, True, False),
        (2, 5, 3, 1, 4, True, False),
    ],
)
def test_the_whole_equals_the_slow_reference(n_q, n_k, d_model, n_heads, d_head, cross, masked):
    case, X_kv = random_case(n_q, n_k, d_model, n_heads, d_head)
    X_kv = X_kv if cross else None
    mask = causal_mask(n_q) if masked else None
    t = multi_head_attention(**case, n_heads=n_heads, mask=mask, X_kv=X_kv)
    concat, output = slow_multi_head(
        **case, n_heads=n_heads, mask=None if mask is None else mask.tolist(), X_kv=X_kv
    )
    X_kv = case["X"] if X_kv is None else X_kv
    b = multi_head_bounds(**case, weights=[h.weights for h in t.heads],
                          scales=[h.scale for h in t.heads], mask=mask, X_kv=X_kv)  # fmt: skip
    assert_within(t.concat, concat, b["concat"], "concat")
    assert_within(t.output, output, b["output"], "output")
    assert t.concat.shape == (n_q, n_heads * d_head)
    assert t.output.shape == (n_q, d_model)
    assert (t.n_heads, t.d_head, len(t.heads)) == (n_heads, d_head, n_heads)


@pytest.mark.parametrize("cross", [False, True])
def test_each_head_is_attention_on_its_own_slice(cross):
    case, other = random_case(n_q=2 if cross else 3, n_k=3, d_model=4, n_heads=2, d_head=3)
    X = case["X"]
    X_kv = other if cross else X
    mask = None if cross else causal_mask(3)
    t = multi_head_attention(**case, n_heads=2, mask=mask, X_kv=other if cross else None)
    for h, cols in enumerate([slice(0, 3), slice(3, 6)]):
        want = attention(
            X @ case["W_q"][:, cols], X_kv @ case["W_k"][:, cols], X_kv @ case["W_v"][:, cols],
            mask=mask,
        )  # fmt: skip
        head = t.heads[h]
        assert head.d_k == 3 and head.scale == 1 / math.sqrt(3)  # correctly rounded, both
        # (X W)[:, cols] and X (W[:, cols]) are two evaluations of the same products
        dQ = matmul_bound(X, case["W_q"][:, cols])
        dK, dV = matmul_bound(X_kv, case["W_k"][:, cols]), matmul_bound(X_kv, case["W_v"][:, cols])
        b = attention_bounds(want.Q, want.K, want.V, want.weights, want.scale, mask, dQ, dK, dV)
        bounds = {"Q": dQ, "K": dK, "V": dV, "scores": b.scores, "weights": b.weights,
                  "output": b.output}  # fmt: skip
        for stage, bound in bounds.items():
            assert_within(getattr(head, stage), getattr(want, stage), bound, stage)
        np.testing.assert_array_equal(t.concat[:, cols], head.output)  # placed, not computed
        assert t.slices[h] == cols


def test_one_head_is_single_head_attention_followed_by_w_o():
    case, _ = random_case(n_q=3, n_k=3, d_model=4, n_heads=1, d_head=4)
    t = multi_head_attention(**case, n_heads=1)
    X = case["X"]
    single = attention(X @ case["W_q"], X @ case["W_k"], X @ case["W_v"])
    # the same functions on the same arrays: exactly equal
    np.testing.assert_array_equal(t.heads[0].weights, single.weights)
    np.testing.assert_array_equal(t.concat, single.output)
    np.testing.assert_array_equal(t.output, single.output @ case["W_o"])


def test_scaled_false_drops_every_heads_scale():
    case, _ = random_case()
    t = multi_head_attention(**case, n_heads=2, scaled=False)
    assert all(head.scale == 1.0 for head in t.heads)


# ---- small cases worked by hand -------------------------------------------------------
def test_equal_scores_average_the_values():
    # W_k = 0 makes every score 0, so each head averages its values: V = X W_v = diag(2, 4),
    # head 1 averages [2, 0] -> 1, head 2 averages [0, 4] -> 2; W_o = [1 1; 0 -1].
    t = multi_head_attention(
        X=np.eye(2), W_q=np.eye(2), W_k=np.zeros((2, 2)), W_v=np.diag([2.0, 4.0]),
        W_o=np.array([[1.0, 1.0], [0.0, -1.0]]), n_heads=2,
    )  # fmt: skip
    # every step is exact in binary (zeros, halves and small integers)
    np.testing.assert_array_equal(t.heads[0].weights, [[0.5, 0.5], [0.5, 0.5]])
    np.testing.assert_array_equal(t.concat, [[1, 2], [1, 2]])
    np.testing.assert_array_equal(t.output, [[1, -1], [1, -1]])


def test_the_two_head_exercise_worked_by_hand():
    # Head 1 scores [2 0; 0 2], head 2 [0 4; 2 0], each divided by √2 before softmax:
    # softmax([√2, 0]) = 0.8044 / 0.1956 and softmax([0, 2√2]) = 0.0558 / 0.9442.
    X = np.array([[1.0, 0, 0, 1], [0, 1, 1, 0]])
    W_k = np.array([[2.0, 0, 2, 0], [0, 2, 0, 4], [0, 0, 0, 0], [0, 0, 0, 0]])
    W_v = np.array([[2.0, 0, 0, 0], [0, 0, 0, 2], [0, 2, 1, 0], [0, 0, 1, 0]])
    W_o = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, 1, 0, -1]])
    t = multi_head_attention(X, np.eye(4), W_k, W_v, W_o, n_heads=2)
    # Hand-worked numbers, to half a unit in their last printed digit (the output's 5e-4:
    # its 4-decimal numbers were summed from the rounded concatenation).
    assert t.heads[0].scale == pytest.approx(0.70710678, abs=5e-9)  # 1/√d_head, not 1/√d_model
    np.testing.assert_allclose(t.heads[0].weights, [[0.8044, 0.1956], [0.1956, 0.8044]], atol=5e-5)
    np.testing.assert_allclose(t.heads[1].weights, [[0.0558, 0.9442], [0.8044, 0.1956]], atol=5e-5)
    np.testing.assert_allclose(
        t.concat, [[1.6089, 0.3911, 1, 1.8884], [0.3911, 1.6089, 1, 0.3911]], atol=5e-5
    )
    np.testing.assert_allclose(
        t.output, [[2.6089, 2.2795, 0.6089, -1.4973], [1.3911, 2, -0.6089, 1.2178]], atol=5e-4
    )


# ---- bad input ------------------------------------------------------------------------
def good() -> dict:
    return dict(
        X=np.ones((3, 4)), W_q=np.ones((4, 4)), W_k=np.ones((4, 4)), W_v=np.ones((4, 4)),
        W_o=np.ones((4, 4)), n_heads=2,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("change", "where", "needle"),
    [
        ({"n_heads": 0}, "n_heads", "at least 1"),
        ({"n_heads": -2}, "n_heads", "at least 1"),
        ({"n_heads": 2.0}, "n_heads", "whole number"),
        ({"n_heads": True}, "n_heads", "whole number"),
        ({"n_heads": 3}, "W_q", "[1, 2, 4]"),
        ({"W_q": np.ones((3, 4))}, "W_q", "W_q has 3 rows but X has 4 columns"),
        ({"W_k": np.ones((4, 6))}, "W_k", "W_k has 6 columns but W_q has 4"),
        ({"W_v": np.ones((4, 2))}, "W_v", "W_v has 2 columns but W_q has 4"),
        ({"W_o": np.ones((2, 4))}, "W_o", "W_o has 2 rows"),
        ({"W_o": np.ones((4, 3))}, "W_o", "W_o has 3 columns but X has 4"),
        ({"X_kv": np.ones((2, 3))}, "X_kv", "X_kv has 3 columns but X has 4"),
        ({"mask": np.ones((2, 3), dtype=bool)}, "mask", "one row per query"),
        ({"X": [[1.0, float("nan"), 0, 0]]}, "X", "finite"),
        ({"W_o": "abc"}, "W_o", "W_o"),
    ],
)
def test_bad_input_names_the_matrix(change, where, needle):
    with pytest.raises(InputError) as err:
        multi_head_attention(**{**good(), **change})
    assert err.value.where == where
    assert needle in err.value.message


def test_head_divisors():
    assert head_divisors(4) == [1, 2, 4]
    assert head_divisors(6) == [1, 2, 3, 6]
    assert head_divisors(1) == [1]
    assert head_divisors(7) == [1, 7]
    with pytest.raises(InputError):
        head_divisors(0)
