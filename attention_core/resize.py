"""Resize matrices without losing what the learner already typed."""

from __future__ import annotations

import numpy as np

from attention_core.types import FloatArray


def resize(M: FloatArray | None, rows: int, cols: int) -> FloatArray:
    """A (rows, cols) copy of ``M``: the overlapping block kept, new cells 0.

    M (r, c) or None. Returns (rows, cols).
    """
    out = np.zeros((rows, cols))  # (rows, cols)
    if M is not None:
        M = np.atleast_2d(np.asarray(M, dtype=np.float64))
        r, c = min(rows, M.shape[0]), min(cols, M.shape[1])
        out[:r, :c] = M[:r, :c]
    return out
