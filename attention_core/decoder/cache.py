"""The KV cache: generating one token at a time without recomputing the earlier ones.

A token's key and value, in every layer, depend only on the tokens up to it (the causal
mask), so they never change once computed. Generation keeps them, per layer, for each of
the 3 key/value heads (after RoPE, as the heads read them), and each new token needs only
its own row: its query, key and value, one attention row per head against the kept keys
and values, and its own MLP. Recomputing the whole prompt instead redoes every row.

    cache = prefill(weights, ids)            the prompt once: logits of its last token
    step = cached_step(weights, cache, id)   one more token: its logits, the longer cache
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core.attention import batched_attention
from attention_core.decoder import llama
from attention_core.decoder.llama import Array, DecoderConfig, DecoderWeights
from attention_core.decoder.rope import rope_tables


@dataclass(frozen=True, eq=False)
class KVCache:
    """K[l], V[l] (n, n_kv_heads, d_head): layer l's keys (after RoPE) and values of the n
    tokens so far, in the model's dtype (float32)."""

    K: tuple[Array, ...]
    V: tuple[Array, ...]

    @property
    def n(self) -> int:
        return int(self.K[0].shape[0])

    @property
    def nbytes(self) -> int:
        return sum(int(a.nbytes) for a in (*self.K, *self.V))


@dataclass(frozen=True, eq=False)
class CachedStep:
    """One token through the decoder against the cache.

    logits (vocab,) of the token after it; cache: the old one with its keys and values
    appended; queries (n_layers, n_heads, d_head) its query in every head (after RoPE);
    weights (n_layers, n_heads, n + 1) each head's one attention row over the cache.
    """

    logits: Array
    cache: KVCache
    queries: NDArray[np.floating]
    weights: NDArray[np.float64]


def prefill(w: DecoderWeights, ids: Sequence[int] | NDArray[np.integer]) -> tuple[Array, KVCache]:
    """The prompt through the decoder once: the last token's logits (vocab,) and the cache."""
    logits, layers = llama.forward(w, ids, last_only=True)
    return logits[0], KVCache(tuple(la.K for la in layers), tuple(la.V for la in layers))


def cached_step(w: DecoderWeights, cache: KVCache, token: int) -> CachedStep:
    """Token ``token`` at position cache.n: one row through every layer, its attention over
    the cached keys and values and its own (no mask: it may see every earlier token).

    The step streams every weight once (about 540 MB) for one row, so what is not a weight
    product is overhead that recomputing spreads over n rows: the per-layer work here is
    kept to the products and one float64 conversion of each layer's cache (bench/RESULTS.md,
    "The KV cache at 32 tokens"). Every number equals the straightforward version's.
    """
    config, pos = w.config, cache.n
    cos, sin = rope_tables(pos + 1, config.d_head, config.rope_theta, w.dtype.type, start=pos)
    X = w.embed[[token]]  # (1, d_model), a copy
    group = np.array([config.kv_head(i) for i in range(config.n_heads)])  # each head's K, V
    Ks, Vs, queries, weights = [], [], [], []
    for lw, K_old, V_old in zip(w.layers, cache.K, cache.V, strict=True):
        _, _, q, _, k, v = llama.project_heads(lw, X, config, cos, sin)  # (1, h or g, d)
        K, V = np.concatenate([K_old, k]), np.concatenate([V_old, v])  # (pos + 1, g, d)
        t = batched_attention(*_by_head(q, K, V, group))
        X = X + llama.heads_output(lw, [_side_by_side(t.output)], X.dtype)  # (1, h d) @ W_o
        X = X + llama.mlp_block(lw, X, config)
        Ks.append(K)
        Vs.append(V)
        queries.append(q[0])
        weights.append(t.weights[:, 0])  # (h, pos + 1)
    return CachedStep(logits=llama.output_logits(w, X)[0], cache=KVCache(tuple(Ks), tuple(Vs)),
                      queries=np.stack(queries), weights=np.stack(weights))  # fmt: skip


F64 = NDArray[np.float64]


def _by_head(q: Array, K: Array, V: Array, group: NDArray[np.intp]) -> tuple[F64, F64, F64]:
    """Every query head as a stack, float64 like attention(): q (1, h, d) -> (h, 1, d), and
    its key/value head's K and V (n, g, d) -> (h, n, d). One row, so no mask is needed."""
    q64, K64, V64 = (M.astype(np.float64) for M in (q, K, V))
    return (
        np.swapaxes(q64, 0, 1),
        np.swapaxes(K64[:, group], 0, 1),
        np.swapaxes(V64[:, group], 0, 1),
    )


def _side_by_side(outputs: NDArray[np.float64]) -> NDArray[np.float64]:
    """The heads' outputs (h, 1, d) as one row (1, h d), head 0's numbers first."""
    return np.swapaxes(outputs, 0, 1).reshape(1, -1)


@dataclass(frozen=True, eq=False)
class CacheComparison:
    """One new token's cached step beside recomputing the whole text (n tokens with it)."""

    step: CachedStep
    recomputed: Array  # (vocab,) the last row of the whole text's logits

    @property
    def difference(self) -> float:
        """The largest |cached - recomputed| over the logits."""
        return float(np.abs(self.step.logits.astype(np.float64) - self.recomputed).max())


def compare_with_recompute(
    w: DecoderWeights, ids: Sequence[int] | NDArray[np.integer], cache: KVCache, token: int
) -> CacheComparison:
    """``token`` after ``ids`` (whose cache ``cache`` is) both ways."""
    step = cached_step(w, cache, token)
    logits, _ = llama.forward(w, [*map(int, ids), token], last_only=True)
    return CacheComparison(step, logits[0])


# ---- what the cache costs and saves -------------------------------------------------------
def cache_bytes(config: DecoderConfig, n: int, itemsize: int = 4, grouped: bool = True) -> int:
    """Bytes of the cache for n tokens: keys and values, every layer, every key/value head
    (``grouped``) or one key/value head per query head (without grouped queries)."""
    heads = config.n_kv_heads if grouped else config.n_heads
    return 2 * config.n_layers * heads * n * config.d_head * itemsize


def multiply_adds(config: DecoderConfig, rows: int, keys: int, vocab_rows: int = 1) -> int:
    """Multiply-adds of running ``rows`` new tokens through the decoder against ``keys``
    tokens in all (the rows among them), as this NumPy code does them: every head scores
    each row against all ``keys`` (the masked ones too) and weighs as many values; the
    output matrix for ``vocab_rows`` rows (the next token needs the last one only).

    Recomputing at n tokens is multiply_adds(config, n, n); a cached step is (config, 1, n).
    """
    c = config
    projections = rows * c.d_model * (c.n_heads + 2 * c.n_kv_heads) * c.d_head
    heads = 2 * c.n_heads * rows * keys * c.d_head  # Q K^T and weights V
    out = rows * c.n_heads * c.d_head * c.d_model
    mlp = 3 * rows * c.d_model * c.d_ff  # gate, up and down
    return c.n_layers * (projections + heads + out + mlp) + vocab_rows * c.d_model * c.vocab
