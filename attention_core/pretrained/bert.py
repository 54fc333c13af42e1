"""A BERT encoder forward pass in NumPy, every head through the core's own ``attention()``.

Names follow the paper and BERT: X (n, d_model) the token states; per layer
W_q, W_k, W_v, W_o (d_model, d_model) with biases b_q, b_k, b_v, b_o (d_model,);
the feed-forward W_1 (d_model, d_ff), W_2 (d_ff, d_model). Here d_model = 384,
h = 12 heads of d_k = 32, d_ff = 1536, 6 layers.

PyTorch stores a Linear's weight as (out, in) and computes x @ W.T + b. The weights are
kept in that layout (no copy at load) and every product below is written ``X @ W.T``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core.attention import AttentionTrace, attention
from attention_core.pretrained.gelu import gelu
from attention_core.types import BoolArray

Array = NDArray[np.floating]  # float32 or float64, as the model was loaded


@dataclass(frozen=True)
class BertConfig:
    n_layers: int
    n_heads: int
    d_model: int
    d_ff: int
    max_positions: int
    eps: float

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads

    @classmethod
    def from_json(cls, c: Mapping[str, object]) -> BertConfig:
        """From a Hugging Face config.json (BERT keys); only the exact GELU is implemented."""
        if c.get("hidden_act") != "gelu" or c.get("position_embedding_type", "absolute") != (
            "absolute"
        ):
            raise ValueError("only BERT with the exact GELU and absolute positions is supported")
        return cls(
            n_layers=int(c["num_hidden_layers"]),  # type: ignore[call-overload]
            n_heads=int(c["num_attention_heads"]),  # type: ignore[call-overload]
            d_model=int(c["hidden_size"]),  # type: ignore[call-overload]
            d_ff=int(c["intermediate_size"]),  # type: ignore[call-overload]
            max_positions=int(c["max_position_embeddings"]),  # type: ignore[call-overload]
            eps=float(c["layer_norm_eps"]),  # type: ignore[arg-type]
        )


@dataclass(frozen=True, eq=False)
class LayerWeights:
    """One encoder layer; Linear weights in PyTorch's (out, in) layout."""

    W_q: Array  # (d_model, d_model)
    b_q: Array  # (d_model,)
    W_k: Array
    b_k: Array
    W_v: Array
    b_v: Array
    W_o: Array  # attention output dense
    b_o: Array
    ln1_gamma: Array  # LayerNorm after attention + residual
    ln1_beta: Array
    W_1: Array  # (d_ff, d_model)
    b_1: Array  # (d_ff,)
    W_2: Array  # (d_model, d_ff)
    b_2: Array
    ln2_gamma: Array  # LayerNorm after the feed-forward + residual
    ln2_beta: Array


@dataclass(frozen=True, eq=False)
class BertWeights:
    config: BertConfig
    word: Array  # (vocab, d_model)
    position: Array  # (max_positions, d_model)
    token_type: Array  # (2, d_model)
    ln_gamma: Array  # embeddings LayerNorm
    ln_beta: Array
    layers: tuple[LayerWeights, ...]

    @classmethod
    def from_tensors(
        cls, config: BertConfig, t: Mapping[str, np.ndarray], dtype: type[np.floating]
    ) -> BertWeights:
        """From a safetensors state dict with BERT's names (with or without ``bert.``)."""

        def get(name: str) -> Array:
            key = name if name in t else f"bert.{name}"
            return np.asarray(t[key], dtype=dtype)  # no copy when already ``dtype``

        def layer(i: int) -> LayerWeights:
            p = f"encoder.layer.{i}."
            a, o = p + "attention.", p + "output."
            return LayerWeights(
                W_q=get(a + "self.query.weight"),
                b_q=get(a + "self.query.bias"),
                W_k=get(a + "self.key.weight"),
                b_k=get(a + "self.key.bias"),
                W_v=get(a + "self.value.weight"),
                b_v=get(a + "self.value.bias"),
                W_o=get(a + "output.dense.weight"),
                b_o=get(a + "output.dense.bias"),
                ln1_gamma=get(a + "output.LayerNorm.weight"),
                ln1_beta=get(a + "output.LayerNorm.bias"),
                W_1=get(p + "intermediate.dense.weight"),
                b_1=get(p + "intermediate.dense.bias"),
                W_2=get(o + "dense.weight"),
                b_2=get(o + "dense.bias"),
                ln2_gamma=get(o + "LayerNorm.weight"),
                ln2_beta=get(o + "LayerNorm.bias"),
            )

        e = "embeddings."
        return cls(
            config=config,
            word=get(e + "word_embeddings.weight"),
            position=get(e + "position_embeddings.weight"),
            token_type=get(e + "token_type_embeddings.weight"),
            ln_gamma=get(e + "LayerNorm.weight"),
            ln_beta=get(e + "LayerNorm.bias"),
            layers=tuple(layer(i) for i in range(config.n_layers)),
        )

    @property
    def dtype(self) -> np.dtype:
        return self.word.dtype


def layer_norm(X: Array, gamma: Array, beta: Array, eps: float) -> Array:
    """Normalise each row to mean 0, variance 1 (biased, as torch), then scale and shift.

    X (n, d). Returns (n, d).
    """
    mu = X.mean(axis=-1, keepdims=True)  # (n, 1)
    centred = X - mu  # (n, d)
    var = np.mean(centred * centred, axis=-1, keepdims=True)  # (n, 1)
    return centred / np.sqrt(var + eps) * gamma + beta  # (n, d)


def embed(w: BertWeights, ids: NDArray[np.intp]) -> Array:
    """Token + position + segment (all segment 0: one sentence) embeddings, then LayerNorm.

    ids (n,). Returns X (n, d_model).
    """
    n = ids.shape[0]
    X = w.word[ids] + w.position[:n] + w.token_type[0]  # (n, d_model)
    return layer_norm(X, w.ln_gamma, w.ln_beta, w.config.eps)


def self_attention(
    lw: LayerWeights, X: Array, n_heads: int, mask: BoolArray | None
) -> tuple[Array, tuple[AttentionTrace, ...]]:
    """Multi-head self-attention; each head is one ``attention()`` call, its trace kept.

    X (n, d_model); mask (n, n), True = may attend. Returns the heads' outputs concatenated,
    (n, d_model) in X's dtype, and the h traces.
    """
    Q = X @ lw.W_q.T + lw.b_q  # (n, d_model) @ (d_model, d_model) -> (n, d_model)
    K = X @ lw.W_k.T + lw.b_k  # (n, d_model)
    V = X @ lw.W_v.T + lw.b_v  # (n, d_model)
    d_k = X.shape[1] // n_heads
    heads = tuple(  # head i uses columns i*d_k .. (i+1)*d_k of Q, K and V
        attention(Q[:, i * d_k : (i + 1) * d_k], K[:, i * d_k : (i + 1) * d_k],
                  V[:, i * d_k : (i + 1) * d_k], mask=mask)
        for i in range(n_heads)
    )  # fmt: skip
    # attention() works in float64; the model goes on in its own dtype, as torch would
    concat = np.concatenate([t.output for t in heads], axis=1).astype(X.dtype)  # (n, d_model)
    return concat, heads


def encoder_layer(
    lw: LayerWeights, X: Array, config: BertConfig, mask: BoolArray | None
) -> tuple[Array, tuple[AttentionTrace, ...]]:
    """One post-LayerNorm BERT layer. X (n, d_model) -> (n, d_model), and its h traces."""
    concat, heads = self_attention(lw, X, config.n_heads, mask)
    A = layer_norm(concat @ lw.W_o.T + lw.b_o + X, lw.ln1_gamma, lw.ln1_beta, config.eps)
    H = gelu(A @ lw.W_1.T + lw.b_1)  # (n, d_model) @ (d_model, d_ff) -> (n, d_ff)
    out = layer_norm(H @ lw.W_2.T + lw.b_2 + A, lw.ln2_gamma, lw.ln2_beta, config.eps)
    return out, heads  # (n, d_model)


def key_padding_mask(n: int, n_valid: int) -> BoolArray | None:
    """(n, n) mask letting every query see the first ``n_valid`` keys; None without padding.

    Padding rows still attend to the real keys, as in BERT: only keys are masked.
    """
    if n_valid == n:
        return None
    mask = np.zeros((n, n), dtype=bool)
    mask[:, :n_valid] = True
    return mask


def forward(
    w: BertWeights, ids: NDArray[np.intp], n_valid: int | None = None
) -> tuple[Array, tuple[tuple[AttentionTrace, ...], ...]]:
    """Run one (possibly right-padded) sequence through the encoder.

    ids (n,); the first ``n_valid`` are real tokens, the rest padding.
    Returns hidden_states (n_layers + 1, n, d_model) and traces[layer][head].
    """
    n = ids.shape[0]
    mask = key_padding_mask(n, n if n_valid is None else n_valid)
    X = embed(w, ids)  # (n, d_model)
    states, traces = [X], []
    for lw in w.layers:
        X, heads = encoder_layer(lw, X, w.config, mask)
        states.append(X)
        traces.append(heads)
    return np.stack(states), tuple(traces)  # (n_layers + 1, n, d_model)
