"""The backward pass of one attention call: how the loss changes with Q, K and V.

Given the trace of ``softmax(Q K^T * scale) V`` and dL/d(output), the chain rule runs the
stages backwards, each the mirror of one forward line:

    output  = weights @ V          ->  dV = weights^T @ d_output,  d_weights = d_output @ V^T
    weights = softmax(masked)      ->  d_masked = w * (d_weights - rowsum(d_weights * w))
    scaled  = scores * scale       ->  d_scores = d_scaled * scale
    scores  = Q @ K^T              ->  dQ = d_scores @ K,  dK = d_scores^T @ Q

The softmax line is the Jacobian diag(w) - w w^T applied to a row. Every term carries a
weight as a factor, which is the lesson of the Training lab: a masked key (weight exactly 0)
gets exactly no gradient, and a row whose weight sits on one key (1 there, ~0 elsewhere)
gets almost none, right or wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_core.attention import AttentionTrace
from attention_core.errors import InputError
from attention_core.types import FloatArray


@dataclass(frozen=True, eq=False)
class AttentionGrads:
    """The gradients of a loss through one attention call (or a stack of them).

    Shapes as the trace's: dQ (..., n_q, d_k), dK (..., n_k, d_k), dV (..., n_k, d_v);
    d_weights, d_scaled_scores and d_scores (..., n_q, n_k). d_scaled_scores is the gradient
    of the scores after the scaling (and the mask: a masked entry's is exactly 0).
    """

    dQ: FloatArray  # noqa: N815 (the gradients keep the paper's names)
    dK: FloatArray  # noqa: N815
    dV: FloatArray  # noqa: N815
    d_weights: FloatArray
    d_scaled_scores: FloatArray
    d_scores: FloatArray


def _t(M: FloatArray) -> FloatArray:
    """The transpose of each matrix in a stack: (..., a, b) -> (..., b, a)."""
    return np.swapaxes(M, -1, -2)


def softmax_backward(weights: FloatArray, d_weights: FloatArray) -> FloatArray:
    """dL/d(logits) from dL/d(weights), row by row: (diag(w) - w w^T) g = w * (g - w.g).

    weights, d_weights (..., n). Returns (..., n). A weight of exactly 0 (a masked key)
    gives exactly 0.
    """
    through = np.sum(d_weights * weights, axis=-1, keepdims=True)  # (..., 1): w . g per row
    return weights * (d_weights - through)  # (..., n)


def attention_backward(trace: AttentionTrace, d_output: FloatArray) -> AttentionGrads:
    """The gradients of a loss L with respect to Q, K, V and the intermediate stages.

    trace: ``attention`` or ``batched_attention``'s result (any mask, scaled or not);
    d_output: dL/d(output), the trace's output's shape (..., n_q, d_v).
    """
    d_output = np.asarray(d_output, dtype=np.float64)
    if d_output.shape != trace.output.shape:
        raise InputError(
            f"d_output has shape {d_output.shape} but the output has {trace.output.shape}: "
            "the gradient needs one number per output entry",
            where="d_output",
        )
    W = trace.weights  # (..., n_q, n_k)
    dV = _t(W) @ d_output  # (..., n_k, n_q) @ (..., n_q, d_v) -> (..., n_k, d_v)
    d_weights = d_output @ _t(trace.V)  # (..., n_q, d_v) @ (..., d_v, n_k) -> (..., n_q, n_k)
    d_scaled = softmax_backward(W, d_weights)  # (..., n_q, n_k); masked: w = 0, so 0
    d_scores = d_scaled * trace.scale  # (..., n_q, n_k)
    dQ = d_scores @ trace.K  # (..., n_q, n_k) @ (..., n_k, d_k) -> (..., n_q, d_k)
    dK = _t(d_scores) @ trace.Q  # (..., n_k, n_q) @ (..., n_q, d_k) -> (..., n_k, d_k)
    return AttentionGrads(
        dQ=dQ, dK=dK, dV=dV, d_weights=d_weights, d_scaled_scores=d_scaled, d_scores=d_scores
    )
