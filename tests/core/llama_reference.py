"""An independent, slow reference of a Llama decoder, written the other way round.

The core (attention_core/decoder) turns RoPE pairs with ``rotate_half`` and sends every
head through ``attention()``. This one turns each pair as a complex number, repeats the
key/value heads as Hugging Face's ``repeat_kv`` does, and computes each row's causal
softmax in a Python loop. It shares no code with the core, so a test that compares them
checks the core's RoPE, grouped queries, causal mask, norms and MLP.

It also holds llama.cpp's ``permute`` (convert_hf_to_gguf.py): the row order the GGUF
file stores, which the core's ``convert.unpermute`` must undo.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Tiny:
    """A small random Llama (Hugging Face layout), for tests that need no real model."""

    n_layers: int = 2
    d_model: int = 32
    n_heads: int = 4
    n_kv_heads: int = 2
    d_head: int = 8
    d_ff: int = 48
    vocab: int = 40
    theta: float = 10_000.0
    eps: float = 1e-5

    def weights(self, seed: int = 0) -> dict[str, np.ndarray]:
        """float64 weights named as the core's convert.py names them (HF row order)."""
        rng = np.random.default_rng(seed)
        d, q, kv = self.d_model, self.n_heads * self.d_head, self.n_kv_heads * self.d_head

        def m(rows: int, cols: int, scale: float = 1.0) -> np.ndarray:
            return rng.standard_normal((rows, cols)) * scale / np.sqrt(cols)

        t = {"embed": rng.standard_normal((self.vocab, d)), "final_norm": 1 + 0.1 * rng.random(d)}
        for i in range(self.n_layers):
            t |= {f"{i}.attn_norm": 1 + 0.1 * rng.random(d), f"{i}.W_q": m(q, d, 2.0),
                  f"{i}.W_k": m(kv, d, 2.0), f"{i}.W_v": m(kv, d), f"{i}.W_o": m(d, q),
                  f"{i}.mlp_norm": 1 + 0.1 * rng.random(d), f"{i}.W_gate": m(self.d_ff, d),
                  f"{i}.W_up": m(self.d_ff, d), f"{i}.W_down": m(d, self.d_ff)}  # fmt: skip
        return t


def llama_cpp_permute(W: np.ndarray, n_heads: int) -> np.ndarray:
    """llama.cpp's ``permute`` (convert_hf_to_gguf.py), applied to W_q (n_heads) and W_k
    (n_kv_heads) when a Hugging Face model is written to GGUF."""
    return (W.reshape(n_heads, 2, W.shape[0] // n_heads // 2, *W.shape[1:])
            .swapaxes(1, 2).reshape(W.shape))  # fmt: skip


def rope_complex(x: np.ndarray, position: int, theta: float) -> np.ndarray:
    """Turn one head vector x (d,) to ``position``: pair (x_i, x_{i + d/2}) as the complex
    number x_i + i x_{i + d/2}, multiplied by e^{i position w_i}, w_i = theta^(-2i/d)."""
    d = x.shape[0]
    w = theta ** (-np.arange(0, d, 2) / d)  # (d/2,)
    z = (x[: d // 2] + 1j * x[d // 2 :]) * np.exp(1j * position * w)
    return np.concatenate([z.real, z.imag])


def forward(t: dict[str, np.ndarray], cfg: Tiny, ids: list[int], dtype: type = np.float64):
    """Logits (n, vocab) and every head's weights (n_layers, n_heads, n, n), in ``dtype``."""
    g = {k: np.asarray(v, dtype=dtype) for k, v in t.items()}
    n, d, h = len(ids), cfg.d_head, cfg.n_heads
    rep = h // cfg.n_kv_heads
    x = g["embed"][ids]
    all_weights = np.zeros((cfg.n_layers, h, n, n), dtype=dtype)

    def rms(v: np.ndarray, gain: np.ndarray) -> np.ndarray:
        return v / np.sqrt((v**2).mean(-1, keepdims=True) + dtype(cfg.eps)) * gain

    for layer in range(cfg.n_layers):
        p = f"{layer}."
        hid = rms(x, g[p + "attn_norm"])
        q = (hid @ g[p + "W_q"].T).reshape(n, h, d)
        k = (hid @ g[p + "W_k"].T).reshape(n, cfg.n_kv_heads, d)
        v = (hid @ g[p + "W_v"].T).reshape(n, cfg.n_kv_heads, d)
        k, v = np.repeat(k, rep, axis=1), np.repeat(v, rep, axis=1)  # repeat_kv: (n, h, d)
        out = np.zeros((n, h, d), dtype=dtype)
        for head in range(h):
            qr = np.stack([rope_complex(q[i, head], i, cfg.theta) for i in range(n)]).astype(dtype)
            kr = np.stack([rope_complex(k[j, head], j, cfg.theta) for j in range(n)]).astype(dtype)
            for i in range(n):  # row i sees keys 0..i only
                s = np.array([qr[i] @ kr[j] for j in range(i + 1)]) / np.sqrt(dtype(d))
                e = np.exp(s - s.max())
                w = e / e.sum()
                all_weights[layer, head, i, : i + 1] = w
                out[i, head] = w @ v[: i + 1, head]
        x = x + out.reshape(n, h * d) @ g[p + "W_o"].T
        hid = rms(x, g[p + "mlp_norm"])
        gate = hid @ g[p + "W_gate"].T
        x = x + (gate * (1 / (1 + np.exp(-gate))) * (hid @ g[p + "W_up"].T)) @ g[p + "W_down"].T
    return rms(x, g["final_norm"]) @ g["embed"].T, all_weights
