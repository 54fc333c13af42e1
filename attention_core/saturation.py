"""Softmax saturation: what happens to attention weights as d_k grows, with and without scaling.

The experiment: a query q and ``n_keys`` keys k_j have independent N(0, 1) components,
the scores are the dot products q . k_j, and softmax turns them into weights. Without the
1/sqrt(d_k) factor the scores spread out like sqrt(d_k), so softmax piles almost all the
weight on one key and its Jacobian (the gradient that training needs) goes to zero.

Sampling shortcut (exact, and its cost does not grow with d_k)
---------------------------------------------------------------
Drawing every component costs O(n_samples * n_keys * d_k). Instead, condition on q:
for a fixed q, each score q . k_j = sum_m q_m k_jm is a sum of independent normals, so it
is N(0, |q|^2); the keys are independent of each other, so the n_keys scores are i.i.d.
N(0, |q|^2) given q, and they depend on q only through its length. |q|^2 is a sum of
d_k squared standard normals, i.e. chi-square with d_k degrees of freedom. Hence

    scores = r * z,   r = sqrt(chi2(d_k)) one per query,   z ~ N(0, 1) (n_keys,)

has exactly the joint distribution of (q . k_1, ..., q . k_n) for one query. This is not
an approximation (no central limit theorem is used): only d_k's effect on |q| is needed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from attention_core.types import FloatArray

if TYPE_CHECKING:
    import pandas as pd

SWEEP_COLUMNS = ("d_k", "scaled", "score_std", "max_weight", "entropy", "grad_norm")
DK_POWERS = tuple(2**p for p in range(11))  # 1, 2, 4, ..., 1024


def _check_dims(d_k_values: Iterable[int], n_keys: int, n_samples: int) -> np.ndarray:
    d = np.asarray(list(d_k_values))
    if d.ndim != 1 or d.size == 0:
        raise ValueError("d_k_values must be a non-empty list of integers")
    if not np.issubdtype(d.dtype, np.integer) or np.any(d < 1):
        raise ValueError(f"every d_k must be a positive integer, got {d.tolist()}")
    if n_keys < 1 or n_samples < 1:
        raise ValueError(f"n_keys and n_samples must be at least 1, got {n_keys}, {n_samples}")
    return d.astype(np.int64)


def _key_normals(n_keys: int, n_samples: int, seed: int) -> FloatArray:
    """The z of scores = |q| * z, keys first: (n_keys, n_samples). Shared by every d_k."""
    return np.random.default_rng(seed).standard_normal((n_keys, n_samples))  # (n, S)


def _query_norms(d_k: int, n_samples: int, seed: int) -> FloatArray:
    """|q| = sqrt(chi2(d_k)) for each sampled query, from a stream of its own: (n_samples,)."""
    return np.sqrt(np.random.default_rng([seed, d_k]).chisquare(d_k, n_samples))  # (S,)


def sample_scores(
    d_k_values: Iterable[int], n_keys: int = 8, n_samples: int = 2000, seed: int = 0
) -> FloatArray:
    """Raw (unscaled) scores q . k_j for random queries and keys, one block per d_k.

    Parameters
    ----------
    d_k_values : iterable of int
        Vector lengths d_k, each >= 1; shape (n_d,) once collected.
    n_keys : int
        Keys per query (the softmax length).
    n_samples : int
        Independent queries (each with its own keys) per d_k.
    seed : int
        Seed; the same seed and d_k always give the same scores, whatever other d_k
        are in the list, and the same scores ``saturation_sweep`` uses.

    Returns
    -------
    FloatArray
        (n_d, n_samples, n_keys): block i holds the scores for d_k = d_k_values[i].

    Notes
    -----
    Uses the exact shortcut in the module docstring: scores = |q| * z. The standard
    normals z are shared by every d_k (common random numbers), so the same sampled
    query sharpens smoothly as d_k grows; each |q| comes from its own stream seeded
    by (seed, d_k).
    """
    d = _check_dims(d_k_values, n_keys, n_samples)
    z = _key_normals(n_keys, n_samples, seed).T  # (n, S) -> (S, n)
    r = np.stack([_query_norms(int(dk), n_samples, seed) for dk in d])  # (n_d, S)
    return r[:, :, np.newaxis] * z[np.newaxis, :, :]  # (n_d, S, 1) * (1, S, n) -> (n_d, S, n)


def brute_force_scores(d_k: int, n_keys: int, n_samples: int, seed: int = 0) -> FloatArray:
    """The same experiment the slow way: draw every component of q and the keys.

    Costs O(n_samples * n_keys * d_k); kept as an independent reference for tests and
    the benchmark. Returns (n_samples, n_keys).
    """
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((n_samples, 1, d_k))  # (S, 1, d_k)
    k = rng.standard_normal((n_samples, n_keys, d_k))  # (S, n, d_k)
    return np.sum(q * k, axis=-1)  # (S, n, d_k) -> (S, n)


def softmax_stats(x: FloatArray) -> dict[str, FloatArray]:
    """Weights, max weight, entropy and Jacobian norm of a softmax over the last axis.

    Parameters
    ----------
    x : FloatArray
        Logits (..., n). Entries may be -inf (masked keys) as long as each row has a
        finite one.

    Returns
    -------
    dict
        ``weights`` (..., n); ``max_weight``, ``entropy`` (nats) and ``grad_norm``
        (...,): the Frobenius norm of the Jacobian diag(w) - w w^T.
    """
    xt = np.moveaxis(np.asarray(x, dtype=np.float64), -1, 0)  # (..., n) -> (n, ...)
    stats = _stats_keys_first(xt)
    stats["weights"] = np.moveaxis(stats["weights"], 0, -1)  # (n, ...) -> (..., n)
    return stats


def _stats_keys_first(xt: FloatArray) -> dict[str, FloatArray]:
    """``softmax_stats`` with the keys on axis 0: xt (n, ...).

    Keys first, because NumPy reduces over a short leading axis much faster than over a
    short trailing one. Written so saturated rows lose no precision and nothing goes
    negative: with e = exp(x - max), the arg-max has e = 1 exactly and

    - R = sum of e over every key but one arg-max (ties counted), so Z = 1 + R;
    - entropy = log1p(R) + sum_j w_j (max - x_j), two non-negative parts;
    - ||J||_F^2 = sum_i w_i^2 [(1 - w_i)^2 + sum_{j != i} w_j^2]. At an arg-max, where
      w_i may be 1 - 1e-20, both brackets are summed from the other keys (1 - w_i = R / Z)
      rather than subtracted from 1 or from the total, which would round them to 0.
    """
    gap = np.max(xt, axis=0) - xt  # (n, ...), >= 0; +inf for masked keys
    at_max = gap == 0  # (n, ...)
    n_ties = np.count_nonzero(at_max, axis=0)  # (n, ...) -> (...)
    e = np.exp(-gap)  # (n, ...)
    R = np.sum(np.where(at_max, 0.0, e), axis=0) + (n_ties - 1)  # (n, ...) -> (...)
    Z = 1.0 + R  # (...)
    w = e / Z  # (n, ...)
    w_max = 1.0 / Z  # (...)
    one_minus_w = np.where(at_max, R / Z, 1.0 - w)  # (n, ...)
    w2 = w * w  # (n, ...)
    sum_w2_rest = np.sum(np.where(at_max, 0.0, w2), axis=0) + (n_ties - 1) * w_max**2  # (...)
    others_w2 = np.where(at_max, sum_w2_rest, np.sum(w2, axis=0) - w2)  # (n, ...)
    grad_sq = np.sum(w2 * (one_minus_w**2 + others_w2), axis=0)  # (n, ...) -> (...)
    weighted_gap = np.multiply(w, gap, out=np.zeros_like(w), where=e > 0)  # 0 * inf -> 0
    return {
        "weights": w,
        "max_weight": w_max,
        "entropy": np.log1p(R) + np.sum(weighted_gap, axis=0),  # (n, ...) -> (...)
        "grad_norm": np.sqrt(grad_sq),
    }


def softmax_jacobian(w: FloatArray) -> FloatArray:
    """The Jacobian of softmax at weights w: d w_i / d x_j = w_i (delta_ij - w_j).

    w (n,) weights summing to 1. Returns (n, n) = diag(w) - w w^T. The explicit
    matrix, for tests and for showing; ``softmax_stats`` gets its norm without it.
    """
    w = np.asarray(w, dtype=np.float64)
    return np.diag(w) - np.outer(w, w)  # (n,) -> (n, n)


def saturation_sweep(
    d_k_values: Iterable[int], n_keys: int = 8, n_samples: int = 2000, seed: int = 0
) -> pd.DataFrame:
    """Softmax statistics of random scores across d_k, with and without 1/sqrt(d_k).

    Parameters
    ----------
    d_k_values : iterable of int
        Vector lengths to try, each >= 1 (e.g. ``DK_POWERS``: 1, 2, 4, ..., 1024).
    n_keys : int
        Keys per query, the length of each softmax.
    n_samples : int
        Random queries per d_k (each with its own ``n_keys`` keys).
    seed : int
        The same seed gives the same table.

    Returns
    -------
    pandas.DataFrame
        One row per (d_k, scaled), in the order given and unscaled first, with columns
        ``d_k`` (int), ``scaled`` (bool), ``score_std`` (standard deviation of the scores
        fed to softmax: about sqrt(d_k) unscaled, about 1 scaled), and the means over
        samples of ``max_weight``, ``entropy`` (nats; ln n_keys is uniform, 0 is one-hot)
        and ``grad_norm`` (Frobenius norm of the softmax Jacobian; 0 when saturated).

    Notes
    -----
    Scores are drawn with the exact shortcut of ``sample_scores``, so the cost is
    O(len(d_k_values) * n_samples * n_keys), independent of d_k.
    """
    import pandas as pd  # only the table needs pandas; `import attention_core` stays light

    d = _check_dims(d_k_values, n_keys, n_samples)
    z = _key_normals(n_keys, n_samples, seed)  # (n, S)
    table = np.empty((d.size, 2, 4))  # (n_d, unscaled/scaled, 4 numbers)
    for i, dk in enumerate(d.tolist()):  # a few d_k; everything inside is vectorised
        r = _query_norms(dk, n_samples, seed)  # (S,)
        r_both = np.stack([r, r / np.sqrt(dk)])  # (2, S): unscaled, scaled
        logits = z[:, np.newaxis, :] * r_both[np.newaxis]  # (n, 1, S) * (1, 2, S) -> (n, 2, S)
        stats = _stats_keys_first(logits)  # each (2, S)
        table[i, :, 0] = np.std(logits, axis=(0, 2))  # (n, 2, S) -> (2,)
        for c, name in enumerate(SWEEP_COLUMNS[3:], start=1):
            table[i, :, c] = np.mean(stats[name], axis=-1)  # (2, S) -> (2,)
    flat = table.reshape(2 * d.size, 4)  # (n_d, 2, 4) -> (2 n_d, 4), unscaled row first
    return pd.DataFrame(
        {
            "d_k": np.repeat(d, 2),  # (n_d,) -> (2 n_d,)
            "scaled": np.tile(np.array([False, True]), d.size),  # (2 n_d,)
            **{name: flat[:, c] for c, name in enumerate(SWEEP_COLUMNS[2:])},
        }
    )
