"""A Llama-architecture decoder forward pass in NumPy, every head through ``attention()``.

SmolLM2-135M: 30 layers of width d_model = 576. Each layer:

    H = RMSNorm(X)                                        (n, d_model)
    Q = H W_q^T, K = H W_k^T, V = H W_v^T                  9 query heads, 3 key/value heads
    Q, K = RoPE(Q), RoPE(K)                                by position (rope.py)
    head i = attention(Q_i, K_g, V_g, causal mask)         g = i // 3: three query heads
                                                           share one key/value head (GQA)
    X = X + concat(heads) W_o^T
    X = X + W_down^T (SiLU(RMSNorm(X) W_gate^T) * RMSNorm(X) W_up^T)   (SwiGLU, d_ff = 1536)

and at the end logits = RMSNorm(X) E^T with E the token embedding (tied output weights).

Linear weights are stored transposed, (in, out), and applied as ``X @ Wt`` straight from
the memory-mapped file (no copy); ``LayerWeights`` shows them in PyTorch's (out, in) too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core.attention import AttentionTrace, attention
from attention_core.decoder.rope import apply_rope, rope_tables
from attention_core.masks import causal_mask
from attention_core.types import BoolArray

Array = NDArray[np.floating]  # float32, as the model runs


@dataclass(frozen=True)
class DecoderConfig:
    n_layers: int
    d_model: int
    n_heads: int  # query heads per layer
    n_kv_heads: int  # key/value heads per layer (grouped-query attention)
    d_head: int
    d_ff: int
    vocab: int
    rope_theta: float
    eps: float

    @property
    def group(self) -> int:
        """How many query heads share one key/value head (9 / 3 = 3)."""
        return self.n_heads // self.n_kv_heads

    def kv_head(self, head: int) -> int:
        """The key/value head that query head ``head`` reads (Hugging Face's repeat_kv)."""
        return head // self.group

    def query_heads(self, kv_head: int) -> range:
        """The query heads that share key/value head ``kv_head``."""
        return range(kv_head * self.group, (kv_head + 1) * self.group)

    @classmethod
    def from_json(cls, c: Mapping[str, object]) -> DecoderConfig:
        config = cls(**{name: c[name] for name in cls.__dataclass_fields__})  # type: ignore[arg-type]
        if config.n_heads % config.n_kv_heads or config.d_head % 2:
            raise ValueError("query heads must split evenly over key/value heads")
        return config


@dataclass(frozen=True, eq=False)
class LayerWeights:
    """One decoder layer, its Linear weights stored transposed: (in, out), so that each
    product is ``X @ Wt`` over contiguous rows (measured here at 32 tokens, one BLAS
    thread: 17 % faster for the (576, 3072) MLP input and 34 % for its output than
    ``X @ W.T`` on PyTorch's (out, in) layout).

    W_q, W_k and W_v are stacked side by side as Wt_qkv, and W_gate and W_up as Wt_gate_up,
    so each layer makes four products where it would make seven. The separate matrices,
    in PyTorch's (out, in) layout, are views of them (``W_q`` ... ``W_down``, no copies).
    """

    attn_norm: Array  # (d_model,) RMSNorm gain before attention
    Wt_qkv: Array  # (d_model, n_heads d_head + 2 n_kv_heads d_head): [W_q^T | W_k^T | W_v^T]
    Wt_o: Array  # (n_heads d_head, d_model)
    mlp_norm: Array  # (d_model,) RMSNorm gain before the MLP
    Wt_gate_up: Array  # (d_model, 2 d_ff): [W_gate^T | W_up^T]
    Wt_down: Array  # (d_ff, d_model)

    @property
    def W_q(self) -> Array:  # noqa: N802 (the paper's name)
        """(n_heads d_head, d_model), rows in Hugging Face's order (RoPE's two halves)."""
        return self.Wt_qkv[:, : self.Wt_o.shape[0]].T

    @property
    def W_k(self) -> Array:  # noqa: N802 (the paper's name)
        """(n_kv_heads d_head, d_model)."""
        q = self.Wt_o.shape[0]
        return self.Wt_qkv[:, q : q + (self.Wt_qkv.shape[1] - q) // 2].T

    @property
    def W_v(self) -> Array:  # noqa: N802 (the paper's name)
        """(n_kv_heads d_head, d_model)."""
        q = self.Wt_o.shape[0]
        return self.Wt_qkv[:, q + (self.Wt_qkv.shape[1] - q) // 2 :].T

    @property
    def W_o(self) -> Array:  # noqa: N802 (the paper's name)
        """(d_model, n_heads d_head)."""
        return self.Wt_o.T

    @property
    def W_gate(self) -> Array:  # noqa: N802 (the paper's name)
        """(d_ff, d_model)."""
        return self.Wt_gate_up[:, : self.Wt_down.shape[0]].T

    @property
    def W_up(self) -> Array:  # noqa: N802 (the paper's name)
        """(d_ff, d_model)."""
        return self.Wt_gate_up[:, self.Wt_down.shape[0] :].T

    @property
    def W_down(self) -> Array:  # noqa: N802 (the paper's name)
        """(d_model, d_ff)."""
        return self.Wt_down.T

    @classmethod
    def from_torch_layout(cls, t: Mapping[str, Array], prefix: str = "") -> LayerWeights:
        """From one layer's tensors in PyTorch's (out, in) layout, named as LAYER_TENSORS
        (after ``prefix``): transposed and stacked here (copies)."""

        def get(name: str) -> Array:
            return t[prefix + name]

        def stacked(*names: str) -> Array:
            return np.ascontiguousarray(np.concatenate([get(n) for n in names]).T)

        return cls(
            attn_norm=get("attn_norm"),
            Wt_qkv=stacked("W_q", "W_k", "W_v"),
            Wt_o=np.ascontiguousarray(get("W_o").T),
            mlp_norm=get("mlp_norm"),
            Wt_gate_up=stacked("W_gate", "W_up"),
            Wt_down=np.ascontiguousarray(get("W_down").T),
        )


# One layer's weights in PyTorch's names and layout, as a model file holds them
# (convert.py reads these, then stores a LayerWeights' fields: STORED).
LAYER_TENSORS = ("attn_norm", "W_q", "W_k", "W_v", "W_o", "mlp_norm", "W_gate", "W_up", "W_down")
STORED = tuple(LayerWeights.__dataclass_fields__)


@dataclass(frozen=True, eq=False)
class DecoderWeights:
    config: DecoderConfig
    embed: Array  # (vocab, d_model): the token embedding, also the output matrix (tied)
    final_norm: Array  # (d_model,)
    layers: tuple[LayerWeights, ...]
    # (d_model, vocab): the same numbers as embed.T, laid out row by row. A row's logits
    # stream this once; read through embed.T's strides the same product took twice as long,
    # a fifth of a cached step (bench/RESULTS.md, "The KV cache at 32 tokens").
    output: Array

    @classmethod
    def from_tensors(cls, config: DecoderConfig, t: Mapping[str, Array]) -> DecoderWeights:
        """From tensors named "embed", "final_norm" and "<layer>.<field>": a LayerWeights'
        fields (STORED, as the cache holds them: views of the mapped file) or, failing
        that, PyTorch's names and layout (LAYER_TENSORS: transposed and stacked here)."""

        def layer(i: int) -> LayerWeights:
            if f"{i}.Wt_qkv" in t:
                return LayerWeights(**{name: t[f"{i}.{name}"] for name in STORED})
            return LayerWeights.from_torch_layout(t, f"{i}.")

        return cls(
            config=config,
            embed=t["embed"],
            final_norm=t["final_norm"],
            layers=tuple(layer(i) for i in range(config.n_layers)),
            output=t["output"] if "output" in t else np.ascontiguousarray(t["embed"].T),
        )

    @property
    def dtype(self) -> np.dtype:
        return self.embed.dtype


@dataclass(frozen=True, eq=False)
class LayerAttention:
    """What one layer's attention block saw, to show any head again.

    H (n, d_model): the normalised input; Q_pre (n, n_heads, d_head) and K_pre
    (n, n_kv_heads, d_head) before RoPE; Q and K after it; V (n, n_kv_heads, d_head);
    weights (n_heads, n, n) every head's attention weights (float64, from attention()).
    """

    H: Array
    Q_pre: Array
    K_pre: Array
    Q: Array
    K: Array
    V: Array
    weights: NDArray[np.float64]

    def trace(self, config: DecoderConfig, head: int) -> AttentionTrace:
        """Head ``head``'s AttentionTrace again: the same attention() call on the same
        arrays as in the forward pass, so every number equals the forward's."""
        return head_trace(self.Q, self.K, self.V, config, head)


def rms_norm(X: Array, gain: Array, eps: float) -> Array:
    """Divide each row by its root mean square, then scale: X / sqrt(mean(X^2) + eps) * gain.

    X (n, d) -> (n, d). No centring and no bias, unlike LayerNorm.
    """
    mean_square = np.mean(X * X, axis=-1, keepdims=True)  # (n, 1)
    return X * (1.0 / np.sqrt(mean_square + np.asarray(eps, X.dtype))) * gain  # (n, d)


def silu(X: Array) -> Array:
    """x * sigmoid(x) = x / (1 + e^-x), as torch computes it (e^-x may overflow to inf for
    x < -88 in float32, and x / inf = -0: the right limit)."""
    with np.errstate(over="ignore"):
        return X / (1.0 + np.exp(-X))


def head_trace(
    Q: Array, K: Array, V: Array, config: DecoderConfig, head: int, mask: BoolArray | None = None
) -> AttentionTrace:
    """Query head ``head`` as one ``attention()`` call with the causal mask.

    Q (n, n_heads, d_head) after RoPE, K (n, n_kv_heads, d_head) after RoPE and V
    (n, n_kv_heads, d_head): the head takes its own Q[:, head] and the K and V of its
    key/value head, which the other query heads of its group share. ``mask``: the (n, n)
    causal mask when the caller has it already.
    """
    g = config.kv_head(head)
    mask = causal_mask(Q.shape[0]) if mask is None else mask
    return attention(Q[:, head], K[:, g], V[:, g], mask=mask)


def project_heads(
    lw: LayerWeights, X: Array, config: DecoderConfig, cos: Array, sin: Array
) -> tuple[Array, Array, Array, Array, Array, Array]:
    """RMSNorm, the projections and RoPE. X (n, d_model); cos, sin (n, d_head) for the rows'
    own positions. Returns H (n, d_model) the normalised input, Q_pre, Q (n, n_heads,
    d_head), K_pre, K and V (n, n_kv_heads, d_head): Q and K after RoPE."""
    n, h, g, d = X.shape[0], config.n_heads, config.n_kv_heads, config.d_head
    H = rms_norm(X, lw.attn_norm, config.eps)  # (n, d_model)
    QKV = H @ lw.Wt_qkv  # (n, d_model) @ (d_model, (h + 2g) d) -> (n, (h + 2g) d)
    Q_pre = QKV[:, : h * d].reshape(n, h, d)  # (n, h, d)
    K_pre = QKV[:, h * d : (h + g) * d].reshape(n, g, d)  # (n, g, d)
    V = QKV[:, (h + g) * d :].reshape(n, g, d)  # (n, g, d)
    return H, Q_pre, apply_rope(Q_pre, cos, sin), K_pre, apply_rope(K_pre, cos, sin), V


def heads_output(
    lw: LayerWeights, outputs: Sequence[NDArray[np.float64]], dtype: np.dtype
) -> Array:
    """The heads' outputs (n_heads of (n, d_head)) side by side through W_o: (n, d_model)."""
    # attention() works in float64; the model goes on in its own dtype, as torch would
    concat = np.concatenate(outputs, axis=1).astype(dtype)  # (n, h d)
    return concat @ lw.Wt_o  # (n, h d) @ (h d, d_model) -> (n, d_model)


def attention_block(
    lw: LayerWeights, X: Array, config: DecoderConfig, cos: Array, sin: Array, mask: BoolArray
) -> tuple[Array, LayerAttention, tuple[AttentionTrace, ...]]:
    """RMSNorm, the projections, RoPE and every head. X (n, d_model); mask (n, n) causal.

    Returns what the block adds to X (n, d_model), the layer's inputs to its heads, and the
    n_heads traces.
    """
    H, Q_pre, Q, K_pre, K, V = project_heads(lw, X, config, cos, sin)
    traces = tuple(head_trace(Q, K, V, config, i, mask) for i in range(config.n_heads))
    weights = np.stack([t.weights for t in traces])  # (h, n, n)
    out = heads_output(lw, [t.output for t in traces], X.dtype)
    return out, LayerAttention(H, Q_pre, K_pre, Q, K, V, weights), traces


def mlp_block(lw: LayerWeights, X: Array, config: DecoderConfig) -> Array:
    """SwiGLU: W_down (SiLU(H W_gate^T) * H W_up^T), H = RMSNorm(X). (n, d_model) -> same."""
    H = rms_norm(X, lw.mlp_norm, config.eps)  # (n, d_model)
    GU = H @ lw.Wt_gate_up  # (n, d_model) @ (d_model, 2 d_ff) -> (n, 2 d_ff)
    d_ff = GU.shape[1] // 2
    hidden = silu(GU[:, :d_ff]) * GU[:, d_ff:]  # (n, d_ff)
    return hidden @ lw.Wt_down  # (n, d_ff) @ (d_ff, d_model) -> (n, d_model)


def forward(
    w: DecoderWeights, ids: Sequence[int] | NDArray[np.integer], last_only: bool = False
) -> tuple[Array, tuple[LayerAttention, ...]]:
    """Run token ids (n,) through the decoder.

    Returns the logits (n, vocab) (row i: the scores of the token after token i), or with
    ``last_only`` only the last row (1, vocab), and, per layer, what its attention saw
    (LayerAttention). The last row is all a next-token prediction needs, and the output
    product is a quarter of the work at 32 tokens.
    """
    config = w.config
    ids = np.asarray(ids, dtype=np.intp)
    X = w.embed[ids]  # (n,) -> (n, d_model): a copy (fancy indexing), safe to add to
    cos, sin = rope_tables(ids.shape[0], config.d_head, config.rope_theta, X.dtype.type)
    mask = causal_mask(ids.shape[0])  # (n, n), True on and below the diagonal
    layers = []
    for lw in w.layers:
        out, la, _ = attention_block(lw, X, config, cos, sin, mask)
        X = X + out  # the residual stream (n, d_model)
        X = X + mlp_block(lw, X, config)
        layers.append(la)
    return output_logits(w, X[-1:] if last_only else X), tuple(layers)


def output_logits(w: DecoderWeights, X: Array) -> Array:
    """The last RMSNorm and the tied output matrix: (m, d_model) -> (m, vocab) logits."""
    return rms_norm(X, w.final_norm, w.config.eps) @ w.output  # (m, d_model) @ (d_model, vocab)
