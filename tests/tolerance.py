"""Float tolerances derived from the arithmetic, never from what one machine printed.

BLAS kernels (OpenBLAS picks one per CPU, or ``OPENBLAS_CORETYPE`` picks it) sum a dot
product in different orders, so two correct float32 results of the same product differ in
their last bits. A test that compares two evaluations gets its bound from one of these:

* ``matmul_bound``: the worst case for a k-term dot product, any order, with or without
  FMA. One evaluation is within gamma_k * sum|a_i b_i| of the exact value, where
  gamma_k = k u / (1 - k u) and u = eps / 2 is the unit roundoff (Higham, *Accuracy and
  Stability of Numerical Algorithms*, 2nd ed., eq. 3.5); two evaluations are within twice
  that of each other.
* ``scaled_to``: a bound measured in float32 moved to another precision. To first order a
  rounding error is u times coefficients that depend only on the computation, so the same
  computation in float64 errs eps64 / eps32 (about 1.9e-9) times as much.
* ``row_sum_bound``, ``softmax_bound``, ``product_bound``, ``attention_bounds`` and
  ``multi_head_bounds``: float64 bounds for two evaluations of softmax, products with
  inexact inputs, and every stage of (multi-head) attention, each derived where defined.

A deep computation (the real model's six layers) has no useful worst case; its bound is
the reference implementation's own float32 rounding (tests/core/minilm.py).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

EPS = {np.dtype(np.float32): float(np.finfo(np.float32).eps),  # 1.19e-7
       np.dtype(np.float64): float(np.finfo(np.float64).eps)}  # 2.22e-16  # fmt: skip


def eps(dtype: np.dtype | type | str) -> float:
    return EPS[np.dtype(dtype)]


def gamma(k: int, dtype: np.dtype | type | str) -> float:
    """gamma_k = k u / (1 - k u): the relative error bound of a k-term sum (u = eps / 2)."""
    ku = k * eps(dtype) / 2
    return ku / (1 - ku)


def matmul_bound(A: np.ndarray, B: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """Elementwise bound on |one evaluation of A @ B (+ bias) - another|, in A's precision.

    A (m, k), B (k, n), bias (n,) -> (m, n): 2 gamma_{k+1} (|A| @ |B| + |bias|), the
    magnitudes summed in float64. k + 1 terms when a bias is added after the sum.
    """
    mag = np.abs(A.astype(np.float64)) @ np.abs(B.astype(np.float64))  # (m, n)
    k = A.shape[-1]
    if bias is not None:
        mag = mag + np.abs(bias.astype(np.float64))
        k += 1
    return 2 * gamma(k, A.dtype) * mag


def scaled_to(bound32: float, dtype: np.dtype | type | str) -> float:
    """A float32 rounding bound for the same computation done in ``dtype``."""
    return bound32 * eps(dtype) / eps(np.float32)


def assert_within(actual: np.ndarray, desired: np.ndarray, bound: np.ndarray | float,
                  what: str = "") -> None:  # fmt: skip
    """|actual - desired| <= bound everywhere (NaN and inf must sit in the same places)."""
    a, d = np.asarray(actual, dtype=np.float64), np.asarray(desired, dtype=np.float64)
    assert a.shape == d.shape, f"{what}: shapes {a.shape} and {d.shape}"
    same_special = (np.isnan(a) == np.isnan(d)).all() and (np.isinf(a) == np.isinf(d)).all()
    assert same_special, f"{what}: NaN or inf in different places"
    finite = np.isfinite(d)
    err = np.abs(a[finite] - d[finite])  # (no inf - inf warning)
    limit = np.broadcast_to(np.asarray(bound, dtype=np.float64), a.shape)[finite]
    if err.size and (err > limit).any():
        worst = int(np.argmax(err - limit))
        raise AssertionError(
            f"{what}: {int((err > limit).sum())} of {err.size} values off by more than their "
            f"bound; worst {err[worst]:.3e} against {limit[worst]:.3e}"
        )


# ---- softmax and attention, float64 ------------------------------------------------------
# Below, u = eps / 2 (float64) and "two evaluations" means the core and a reference, or
# the same formula on two BLAS kernels: each is within its own rounding of the exact value.
# numpy's and libm's float64 exp and log are within 1 ulp (<= eps relative, numpy's
# umath accuracy tests allow 1 ulp), so one exp or log costs 2u.
TINY = float(np.finfo(np.float64).tiny)  # 2.2e-308, the smallest normal float64
# Below TINY a product or quotient errs by up to half the subnormal spacing, 2^-1075, not
# u times itself (additions are exact there); two evaluations: 2^-1074 per such operation.
UNDERFLOW = 2.0**-1074  # 4.9e-324, the smallest positive float64


def row_sum_bound(n: int) -> float:
    """|sum of one computed softmax row of n entries - 1|, in float64.

    The row is e_j / S with S the computed n-term sum of the same e_j, so the exp's own
    errors cancel; what is left is S's sum (gamma_{n-1}), the n divisions (u, weighted by
    w_j) and the test's own n-term sum of the weights (gamma_{n-1}): 2 gamma_{n-1} + u
    <= gamma_{2n-1}. n * TINY covers weights that underflow to subnormals.
    """
    return gamma(2 * n - 1, np.float64) + n * TINY


def softmax_bound(x: np.ndarray, w: np.ndarray, delta: np.ndarray | float = 0.0) -> np.ndarray:
    """Elementwise bound on |softmax_1(x_1) - softmax_2(x_2)| along the last axis, float64.

    x (..., n): one evaluation's logits (-inf = masked, weight exactly 0 in both); w: its
    softmax; delta: a bound on |x_1 - x_2| (0 for the same logits). Derivation:

    * A stable softmax rounds x_j - max, an error u |x_j - max| that acts like a change of
      the logit; two evaluations: eps |x_j - max|. With the change of each logit at most
      Delta (per row), every exp moves by a factor within e^{+-Delta} and so does the sum:
      w_j moves by a factor within e^{+-2 Delta}, and so does 1 - w_j (the sum of the other
      weights), hence |dw_j| <= min(w_j, 1 - w_j) expm1(2 Delta). (1 - w_j is taken from
      the computed w_j; its error times expm1(2 Delta) is second order.)
    * The softmax's own rounding, per evaluation: exp (2u) in e_j and in each term of S,
      S's n-term sum (gamma_{n-1}), the division (u): (n + 4) u, i.e. gamma_{n+4}; two
      evaluations 2 gamma_{n+4} w_j.
    * n * TINY: weights that underflow to subnormals lose their relative precision.
    """
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    n = x.shape[-1]
    finite = np.isfinite(x)
    top = np.max(np.where(finite, x, -np.inf), axis=-1, keepdims=True)  # (..., 1)
    change = np.where(finite, delta + eps(np.float64) * np.abs(x - top), 0.0)  # (..., n)
    Delta = np.max(change, axis=-1, keepdims=True)  # (..., 1)
    rest = np.clip(1.0 - w, 0.0, None)
    bound = np.minimum(w, rest) * np.expm1(2 * Delta) + 2 * gamma(n + 4, np.float64) * w
    return np.where(finite, bound + n * TINY, 0.0)


def product_bound(
    A: np.ndarray, B: np.ndarray, dA: np.ndarray | None = None, dB: np.ndarray | None = None
) -> np.ndarray:
    """Bound on |A_1 @ B_1 - A_2 @ B_2| when |A_1 - A_2| <= dA and |B_1 - B_2| <= dB.

    The inputs' differences carried through exactly, dA |B| + |A| dB + dA dB, plus the two
    evaluations' own rounding, matmul_bound of the larger magnitudes |A| + dA, |B| + dB,
    and k UNDERFLOW for the k products of each entry (float64).
    """
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    dA = np.zeros_like(A) if dA is None else np.asarray(dA, dtype=np.float64)
    dB = np.zeros_like(B) if dB is None else np.asarray(dB, dtype=np.float64)
    carried = dA @ np.abs(B) + np.abs(A) @ dB + dA @ dB
    return carried + matmul_bound(np.abs(A) + dA, np.abs(B) + dB) + A.shape[-1] * UNDERFLOW


class AttentionBounds(NamedTuple):
    """Elementwise bounds between two evaluations of each attention stage."""

    scores: np.ndarray  # (n_q, n_k)
    scaled: np.ndarray  # (n_q, n_k), also for the masked scores
    weights: np.ndarray  # (n_q, n_k)
    output: np.ndarray  # (n_q, d_v)


def attention_bounds(
    Q: np.ndarray,
    K: np.ndarray,
    V: np.ndarray,
    weights: np.ndarray,
    scale: float,
    mask: np.ndarray | None = None,
    dQ: np.ndarray | None = None,
    dK: np.ndarray | None = None,
    dV: np.ndarray | None = None,
) -> AttentionBounds:
    """Bounds on |stage_1 - stage_2| for two float64 evaluations of softmax(Q K^T scale) V.

    Q, K, V and weights from one evaluation (either); mask True = may attend; dQ, dK, dV
    bound how far the other evaluation's Q, K, V are (None: the same inputs).

    * scores: two d_k-term dot products, product_bound(Q, K^T) (for the same Q and K,
      matmul_bound(Q, K^T) + d_k UNDERFLOW).
    * scaled: scale * that, plus per evaluation one rounding of the product and one of its
      own 1/sqrt(d_k) or division by sqrt(d_k) (2u each): 2 eps |scaled| (+ UNDERFLOW).
    * weights: softmax_bound of the scaled scores with that change per logit.
    * output: the weights' bound carried through V plus both n_k-term products' rounding,
      product_bound(weights, V) (matmul_bound(W, V) + B_weights @ |V| for the same V).
    """
    Q, K, V = (np.asarray(M, dtype=np.float64) for M in (Q, K, V))
    scores = product_bound(Q, K.T, dQ, None if dK is None else np.asarray(dK).T)
    scaled_values = (Q @ K.T) * scale
    scaled = scale * scores + 2 * eps(np.float64) * np.abs(scaled_values) + UNDERFLOW
    logits = scaled_values if mask is None else np.where(mask, scaled_values, -np.inf)
    weights_bound = softmax_bound(logits, weights, scaled)
    output = product_bound(weights, V, weights_bound, dV)
    return AttentionBounds(scores, scaled, weights_bound, output)


def multi_head_bounds(
    X: np.ndarray,
    W_q: np.ndarray,
    W_k: np.ndarray,
    W_v: np.ndarray,
    W_o: np.ndarray,
    weights: list[np.ndarray],
    scales: list[float],
    mask: np.ndarray | None = None,
    X_kv: np.ndarray | None = None,
) -> dict:
    """Bounds between two evaluations of multi-head attention (projections, heads, W_o).

    weights[h] and scales[h]: head h's weights and scale from either evaluation. Each
    projection is a d_model-term product (product_bound); head h is attention_bounds on
    its columns with those projection bounds; the concatenation only places the heads'
    outputs (no arithmetic); the output carries it through W_o (product_bound).
    Returns "Q", "K", "V" (full width), "heads" (AttentionBounds each), "concat", "output".
    """
    X = np.asarray(X, dtype=np.float64)
    X_kv = X if X_kv is None else np.asarray(X_kv, dtype=np.float64)
    Q, K, V = X @ W_q, X_kv @ W_k, X_kv @ W_v
    dQ, dK, dV = product_bound(X, W_q), product_bound(X_kv, W_k), product_bound(X_kv, W_v)
    d_head = Q.shape[1] // len(weights)
    heads = []
    for h, (w, scale) in enumerate(zip(weights, scales, strict=True)):
        c = slice(h * d_head, (h + 1) * d_head)
        qkv, dqkv = (Q[:, c], K[:, c], V[:, c]), (dQ[:, c], dK[:, c], dV[:, c])
        heads.append(attention_bounds(*qkv, w, scale, mask, *dqkv))
    concat = np.hstack([b.output for b in heads])
    outputs = np.hstack([np.asarray(w) @ V[:, h * d_head : (h + 1) * d_head]
                         for h, w in enumerate(weights)])  # fmt: skip
    return {
        "Q": dQ, "K": dK, "V": dV, "heads": heads, "concat": concat,
        "output": product_bound(outputs, W_o, concat),
    }  # fmt: skip


class BackwardBounds(NamedTuple):
    """Elementwise bounds between two evaluations of each gradient of attention_backward."""

    d_weights: np.ndarray  # (n_q, n_k)
    d_scores: np.ndarray  # (n_q, n_k), the raw scores' gradient
    dQ: np.ndarray  # noqa: N815 (n_q, d_k)
    dK: np.ndarray  # noqa: N815 (n_k, d_k)
    dV: np.ndarray  # noqa: N815 (n_k, d_v)


def backward_bounds(
    Q: np.ndarray,
    K: np.ndarray,
    V: np.ndarray,
    weights: np.ndarray,
    scale: float,
    d_output: np.ndarray,
    mask: np.ndarray | None = None,
) -> BackwardBounds:
    """Bounds on |grad_1 - grad_2| for two float64 evaluations of attention's backward pass
    (either evaluation may be the exact one, which has no rounding at all).

    Each stage's bound carries the bounds of what it reads and adds its own rounding:

    * d_weights = d_output @ V^T: two d_v-term products, matmul_bound.
    * s = rowsum(d_weights * weights): carried dg |w| + |g| dw (dw: attention_bounds'
      weights).
    * d_scaled = w (g - s), or any algebraically equal form (the Jacobian written out:
      sum_j g_j w_j (delta_jk - w_k), whose terms have the same magnitudes |w| (|g| +
      sum |g w|)): carried dw (|g| + |s|) + |w| (dg + ds), and per evaluation an n_k-term
      sum, a subtraction and a product, gamma_{n_k + 3} of those magnitudes; two: twice.
    * d_scores = scale * d_scaled: carried, plus one rounding per evaluation, eps |d_scores|.
    * dQ = d_scores @ K, dK = d_scores^T @ Q, dV = w^T @ d_output: product_bound with the
      carried bounds. Magnitudes include their own bound (|g| + dg), to be safe at second
      order; UNDERFLOW per operation covers subnormal results.
    """
    Q, K, V, W, dO = (np.asarray(M, dtype=np.float64) for M in (Q, K, V, weights, d_output))
    dW = attention_bounds(Q, K, V, W, scale, mask).weights  # (n_q, n_k)
    g = dO @ V.T  # (n_q, n_k)
    dg = matmul_bound(dO, V.T) + V.shape[1] * UNDERFLOW
    ag, aw = np.abs(g) + dg, np.abs(W) + dW  # magnitudes, with their bounds
    n_k = W.shape[-1]
    s_mag = np.sum(ag * aw, axis=-1, keepdims=True)  # (n_q, 1): >= |s| and its terms
    ds = np.sum(dg * aw + ag * dW, axis=-1, keepdims=True)  # (n_q, 1), carried
    d_scaled_mag = aw * (ag + s_mag)
    rounding = 2 * gamma(n_k + 3, np.float64) * d_scaled_mag  # s's sum, a subtraction, a product
    d_scaled = dW * (ag + s_mag) + aw * (dg + ds) + rounding
    d_scores = scale * d_scaled + eps(np.float64) * scale * d_scaled_mag + 2 * UNDERFLOW
    d_scores_mag = scale * d_scaled_mag
    return BackwardBounds(
        d_weights=dg,
        d_scores=d_scores,
        dQ=product_bound(d_scores_mag, K, d_scores),
        dK=product_bound(d_scores_mag.T, Q, d_scores.T),
        dV=product_bound(aw.T, dO, dW.T),
    )
