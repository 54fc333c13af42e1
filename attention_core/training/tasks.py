"""Tasks whose right attention is known, for training one head (``training.trainer``).

Each example has ``n`` queries and ``n`` keys built from symbols (the letters A, B, ...):
every symbol has a fixed random embedding of ``d_model`` numbers, and each key's value is
its embedding times a fixed random W_V (d_model, d_v). For every query one key is right;
the head should put its weight there, so the output should be that key's value.

* ``match``: the keys are n different symbols and the queries the same symbols in another
  order; query i must find the key with its own symbol (a permutation).
* ``previous``: one sequence of n symbols, each at its position (a random position
  embedding is added); position i must attend to position i - 1 (the first to itself), and
  a causal mask hides the later positions.
* ``match_noisy``: ``match``, with every query's embedding blurred by noise (entries
  N(0, 1/9), a third of an embedding's): the query is never exactly its key, so the head
  must score the right key above the others by a margin the noise cannot close: a sharp
  pattern, where a spread-out attention would average the wrong values in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_core.i18n import N_
from attention_core.masks import causal_mask
from attention_core.types import BoolArray, FloatArray

TASKS: dict[str, str] = {  # English, marked for the catalogue (the UI translates it)
    "match": N_("Find the match: each query attends to the key with its own symbol"),
    "previous": N_("Previous token: each position attends to the one before it"),
    "match_noisy": N_("Find the match in noise: the same, with each query blurred"),
}
SYMBOLS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # 24 letters; no I and O (read as 1 and 0)
NOISE = 1 / 3  # match_noisy: the query noise's size, against a unit embedding entry


@dataclass(frozen=True, eq=False)
class TaskData:
    """A batch of examples. X_q (B, n, d_model) the queries' inputs, X_k (B, n, d_model)
    the keys', V (B, n, d_v) the keys' values (fixed), target (B, n) the right key of
    each query, mask (n, n) or None (True = may attend), and the symbols as labels."""

    task: str
    X_q: FloatArray
    X_k: FloatArray
    V: FloatArray
    target: np.ndarray
    mask: BoolArray | None
    query_tokens: list[list[str]]
    key_tokens: list[list[str]]

    def goal(self) -> FloatArray:
        """The output the head should give: the right key's value for each query (B, n, d_v)."""
        return np.take_along_axis(self.V, self.target[..., None], axis=1)

    def right_weights(self) -> FloatArray:
        """The right attention: one-hot rows on the right keys (B, n, n)."""
        n = self.X_k.shape[1]
        return np.eye(n)[self.target]


def make_task(task: str, batch: int, n: int, d_model: int, d_v: int, seed: int) -> TaskData:
    """``batch`` examples of ``task`` drawn from ``seed`` (the same seed, the same data)."""
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; use one of {sorted(TASKS)}")
    if not 2 <= n <= len(SYMBOLS):
        raise ValueError(f"n must be between 2 and {len(SYMBOLS)}, got {n}")
    rng = np.random.default_rng([seed, 33])
    embed = rng.standard_normal((len(SYMBOLS), d_model))  # (S, d_model), entries N(0, 1)
    W_v = rng.standard_normal((d_model, d_v)) / np.sqrt(d_model)  # values with entries ~N(0, 1)
    if task == "previous":
        positions = rng.standard_normal((n, d_model))  # (n, d_model)
        keys = rng.integers(len(SYMBOLS), size=(batch, n))  # (B, n), repeats allowed
        X_k = (embed[keys] + positions) / np.sqrt(2)  # (B, n, d_model), entries ~N(0, 1)
        X_q, queries = X_k, keys
        target = np.broadcast_to(np.maximum(np.arange(n) - 1, 0), (batch, n)).copy()
        mask = causal_mask(n)
    else:
        keys = np.argsort(rng.random((batch, len(SYMBOLS))), axis=1)[:, :n]  # n different
        order = np.argsort(rng.random((batch, n)), axis=1)  # (B, n): query i asks for key order[i]
        queries = np.take_along_axis(keys, order, axis=1)
        X_k, X_q = embed[keys], embed[queries]  # (B, n, d_model)
        if task == "match_noisy":
            X_q = X_q + NOISE * rng.standard_normal(X_q.shape)
        target, mask = order, None
    V = X_k @ W_v  # (B, n, d_model) @ (d_model, d_v) -> (B, n, d_v)
    return TaskData(
        task=task,
        X_q=X_q,
        X_k=X_k,
        V=V,
        target=target,
        mask=mask,
        query_tokens=[[SYMBOLS[s] for s in row] for row in queries],
        key_tokens=[[SYMBOLS[s] for s in row] for row in keys],
    )
