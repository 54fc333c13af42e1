"""Row-wise softmax: the stable version the app uses, and the naive one it warns about."""

from __future__ import annotations

import numpy as np

from attention_core.types import FloatArray


def softmax(x: FloatArray, axis: int = -1) -> FloatArray:
    """Numerically stable softmax along ``axis``.

    Subtracting the row maximum first changes nothing mathematically (softmax is
    invariant to adding a constant to a row) but keeps every exponent <= 0, so
    ``exp`` never overflows: logits of 1e300 or -1e300 still give finite weights.
    Entries of ``-inf`` (masked) get weight exactly 0. A row that is entirely
    ``-inf`` has no defined softmax; callers reject it before getting here.
    """
    x = np.asarray(x, dtype=np.float64)
    x_max = np.max(x, axis=axis, keepdims=True)
    x_max = np.where(np.isfinite(x_max), x_max, 0.0)  # all -inf rows stay -inf, not nan
    e = x - x_max  # a new array: the exponent and the division below work in place in it
    np.exp(e, out=e)
    e /= np.sum(e, axis=axis, keepdims=True)
    return e


def naive_softmax(x: FloatArray, axis: int = -1) -> FloatArray:
    """Textbook ``exp(x) / sum(exp(x))`` with no shift: overflows for scores above ~709.

    Kept only so the app can show what goes wrong (``inf / inf = nan``).
    """
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)
        return e / np.sum(e, axis=axis, keepdims=True)
