"""A slow, obvious attention written with plain Python loops, to check attention_core against.

Nothing here uses NumPy's matrix maths: every number is computed one at a time, the way
it is written on paper, so a mistake in the vectorised core cannot hide in here as well.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Matrix = list[list[float]]


@dataclass
class ReferenceTrace:
    scores: Matrix
    d_k: int
    scale: float
    scaled_scores: Matrix
    masked_scores: Matrix
    weights: Matrix
    output: Matrix


def _rows(M: object) -> Matrix:
    """Any 2-D array-like as a list of lists of Python floats."""
    rows = M.tolist() if hasattr(M, "tolist") else M
    return [[float(x) for x in row] for row in rows]


def reference_softmax_row(row: Sequence[float]) -> list[float]:
    """softmax of one row with math.exp; -inf entries get weight 0.

    The row maximum is subtracted first (that changes nothing mathematically) only so
    that tests may use scores of a few hundred without math.exp overflowing.
    """
    finite = [x for x in row if x != -math.inf]
    assert finite, "a row with every key masked has no softmax"
    top = max(finite)
    exps = [0.0 if x == -math.inf else math.exp(x - top) for x in row]
    total = math.fsum(exps)
    return [e / total for e in exps]


def reference_attention(
    Q: object, K: object, V: object, mask: object = None, scaled: bool = True
) -> ReferenceTrace:
    """softmax(Q K^T / sqrt(d_k)) V, one loop per index. mask: True = may attend."""
    Q, K, V = _rows(Q), _rows(K), _rows(V)
    n_q, n_k, d_k, d_v = len(Q), len(K), len(Q[0]), len(V[0])
    allowed = (
        [[True] * n_k for _ in range(n_q)]
        if mask is None
        else [
            [bool(x) for x in row] for row in (mask.tolist() if hasattr(mask, "tolist") else mask)
        ]
    )

    scores = [[0.0] * n_k for _ in range(n_q)]
    for i in range(n_q):
        for j in range(n_k):
            total = 0.0
            for m in range(d_k):
                total += Q[i][m] * K[j][m]
            scores[i][j] = total

    scale = 1.0 / math.sqrt(d_k) if scaled else 1.0
    scaled_scores = [[scores[i][j] * scale for j in range(n_k)] for i in range(n_q)]

    masked_scores = [
        [scaled_scores[i][j] if allowed[i][j] else -math.inf for j in range(n_k)]
        for i in range(n_q)
    ]

    weights = [reference_softmax_row(masked_scores[i]) for i in range(n_q)]

    output = [[0.0] * d_v for _ in range(n_q)]
    for i in range(n_q):
        for m in range(d_v):
            total = 0.0
            for j in range(n_k):
                total += weights[i][j] * V[j][m]
            output[i][m] = total

    return ReferenceTrace(
        scores=scores,
        d_k=d_k,
        scale=scale,
        scaled_scores=scaled_scores,
        masked_scores=masked_scores,
        weights=weights,
        output=output,
    )


@dataclass
class ReferenceGrads:
    dQ: Matrix  # noqa: N815
    dK: Matrix  # noqa: N815
    dV: Matrix  # noqa: N815
    d_weights: Matrix
    d_scores: Matrix


def reference_backward(
    Q: object, K: object, V: object, d_output: object, mask: object = None, scaled: bool = True
) -> ReferenceGrads:
    """The chain rule one index at a time, with softmax's Jacobian written out in full:
    dw_ij / dz_ik = w_ij (delta_jk - w_ik)."""
    t = reference_attention(Q, K, V, mask=mask, scaled=scaled)
    Q, K, V, dO = _rows(Q), _rows(K), _rows(V), _rows(d_output)
    W = t.weights
    n_q, n_k, d_k, d_v = len(Q), len(K), len(Q[0]), len(V[0])
    d_weights = [[sum(dO[i][m] * V[j][m] for m in range(d_v)) for j in range(n_k)]
                 for i in range(n_q)]  # fmt: skip
    dV = [[sum(W[i][j] * dO[i][m] for i in range(n_q)) for m in range(d_v)] for j in range(n_k)]
    d_scores = [[0.0] * n_k for _ in range(n_q)]
    for i in range(n_q):
        for k in range(n_k):
            total = 0.0
            for j in range(n_k):
                jacobian = W[i][j] * ((1.0 if j == k else 0.0) - W[i][k])
                total += d_weights[i][j] * jacobian
            d_scores[i][k] = total * t.scale
    dQ = [[sum(d_scores[i][j] * K[j][m] for j in range(n_k)) for m in range(d_k)]
          for i in range(n_q)]  # fmt: skip
    dK = [[sum(d_scores[i][j] * Q[i][m] for i in range(n_q)) for m in range(d_k)]
          for j in range(n_k)]  # fmt: skip
    return ReferenceGrads(dQ=dQ, dK=dK, dV=dV, d_weights=d_weights, d_scores=d_scores)
