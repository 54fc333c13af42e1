"""Resize and fill matrices without losing what the learner already typed."""

from __future__ import annotations

import numpy as np

from attention_core.types import FloatArray

FILLS = ("random", "identity", "zeros")


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


def random_matrix(rng: np.random.Generator, shape: tuple[int, int], projection: bool) -> FloatArray:
    """N(0, 1) numbers rounded to 2 decimals, so a learner can read them.

    A projection (d_model, d) is divided by sqrt(d_model): projected vectors then keep
    entries of about unit size, like the embeddings they come from.
    """
    M = rng.normal(size=shape)
    if projection:
        M /= np.sqrt(shape[0])
    return np.round(M, 2) + 0.0  # + 0.0 turns -0.0 into 0.0


def fill(how: str, shape: tuple[int, int], seed: int = 0, name: str = "") -> FloatArray:
    """Fresh numbers for matrix ``name``: seeded random (see random_matrix), identity or zeros."""
    if how == "identity":
        return np.eye(*shape)
    if how == "zeros":
        return np.zeros(shape)
    if how != "random":
        raise ValueError(f"unknown fill {how!r}; use one of {FILLS}")
    rng = np.random.default_rng([seed, sum(map(ord, name))])  # a different stream per matrix
    return random_matrix(rng, shape, projection=name.startswith("W_"))
