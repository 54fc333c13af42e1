"""The core against bare NumPy: ``attention()`` at n = 512 and a one-line softmax(QKᵀ/√d)V.

The core keeps every stage (raw, scaled, masked scores, weights) and checks its inputs, so
it does a little more than the one-liner; the target is to stay within 1.2x of it. Both
run on one BLAS thread, so the ratio measures the code and not the thread pool's luck.
"""

from __future__ import annotations

import argparse

import numpy as np

from attention_core import attention
from attention_core.trained.run import one_blas_thread
from bench import Result, timed

N, D = 512, 64


def one_liner(Q: np.ndarray, K: np.ndarray, V: np.ndarray) -> np.ndarray:
    """softmax(Q Kᵀ / sqrt(d)) V with the row maximum subtracted: what anyone would write."""
    s = Q @ K.T / np.sqrt(Q.shape[1])  # (n, n)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ V  # (n, d)


def run(args: argparse.Namespace) -> list[Result]:
    repeats = 50 if getattr(args, "quick", False) else 300
    rng = np.random.default_rng(0)
    Q, K, V = (rng.normal(size=(N, D)) for _ in range(3))
    np.testing.assert_allclose(attention(Q, K, V).output, one_liner(Q, K, V), atol=1e-12)
    with one_blas_thread():
        bare = timed(lambda: one_liner(Q, K, V), repeats, warmup=5)
        core = timed(lambda: attention(Q, K, V), repeats, warmup=5)
    ratio = np.median(core) / np.median(bare)
    return [
        Result(f"bare NumPy one-liner, n = {N}, d = {D}", bare),
        Result(f"attention() (every stage kept), n = {N}, d = {D}", core,
               f"{ratio:.2f}x the one-liner (target <= 1.2x)"),
    ]  # fmt: skip
