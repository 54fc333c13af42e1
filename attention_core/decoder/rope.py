"""Rotary position embeddings (RoPE), as Hugging Face's Llama applies them.

A head's query and key vectors (d_head = 64 numbers) are cut into 32 pairs, and pair i of
the token at position m is turned by the angle m * w_i, with w_i = theta^(-2i / d_head)
(theta = 100,000 here): pair 0 turns by 1 radian per position, pair 31 by about 1.4e-5.
Hugging Face pairs dimension i with dimension i + d_head / 2 (``rotate_half``); llama.cpp
pairs 2i with 2i + 1, which is why its files hold W_q and W_k with their rows reordered
(``convert.unpermute`` undoes it).

Rotating both q (at position m) and k (at position n) leaves their dot product depending on
m - n only: q_m . k_n = Re sum_i qc_i conj(kc_i) e^{i (m - n) w_i}, with qc_i = q_i + i
q_{i + d/2} the pair as a complex number. ``score_by_distance`` evaluates that for every
distance, which is how a page shows what RoPE does to one score.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.floating]


def inverse_frequencies(
    d_head: int, theta: float, dtype: type[np.floating] = np.float32
) -> NDArray[np.floating]:
    """w_i = 1 / theta^(2i / d_head) for i = 0 .. d_head/2 - 1, computed in ``dtype`` (in
    float32 exactly as Hugging Face does: ``1.0 / base ** (arange(0, dim, 2) / dim)``).
    Returns (d_head / 2,)."""
    exponents = np.arange(0, d_head, 2, dtype=dtype) / dtype(d_head)  # (d/2,)
    return (dtype(1.0) / dtype(theta) ** exponents).astype(dtype)


def rope_tables(
    n: int, d_head: int, theta: float, dtype: type[np.floating] = np.float32, start: int = 0
) -> tuple[Array, Array]:
    """cos and sin of the angles of positions start .. n - 1, each (n - start, d_head),
    computed in ``dtype`` (a row is the same whatever ``start``: a cached step needs one).

    Column i and column i + d_head/2 hold the same angle m * w_i (the two halves of a pair).
    """
    angles = np.arange(start, n, dtype=dtype)[:, None] * inverse_frequencies(d_head, theta, dtype)
    angles = np.concatenate([angles, angles], axis=1)  # (n, d/2) -> (n, d)
    return np.cos(angles), np.sin(angles)


def rotate_half(X: Array) -> Array:
    """(x1, x2) -> (-x2, x1) on the last axis, x1 and x2 its two halves: the 90-degree turn
    of every pair (i, i + d/2). X (..., d) -> (..., d)."""
    half = X.shape[-1] // 2
    return np.concatenate([-X[..., half:], X[..., :half]], axis=-1)


def apply_rope(X: Array, cos: Array, sin: Array) -> Array:
    """Turn every pair of every position by its angle: X cos + rotate_half(X) sin.

    X (n, h, d_head) (h heads) or (n, d_head); cos, sin (n, d_head). Returns X's shape.
    """
    if X.ndim == 3:
        cos, sin = cos[:, None, :], sin[:, None, :]  # (n, 1, d): the same angles in every head
    return X * cos + rotate_half(X) * sin


def score_by_distance(
    q: Array, k: Array, distances: NDArray[np.integer], theta: float
) -> NDArray[np.float64]:
    """Scaled score q_m . k_n / sqrt(d_head) after RoPE, for each distance m - n.

    q, k (d_head,): one query and one key *before* rotation; distances (m,). Only m - n
    matters (see the module doc), so one number per distance; float64. Returns (m,).
    """
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    half = q.shape[-1] // 2
    qc = q[:half] + 1j * q[half:]  # (d/2,) each pair as a complex number
    kc = k[:half] + 1j * k[half:]
    w = inverse_frequencies(q.shape[-1], theta, np.float64)  # (d/2,)
    turn = np.exp(1j * np.outer(np.asarray(distances, dtype=np.float64), w))  # (m, d/2)
    return (turn @ (qc * np.conj(kc))).real / np.sqrt(q.shape[-1])  # (m,)
