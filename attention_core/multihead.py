"""Multi-head attention: several heads, each scaled dot-product attention over its own slice.

Convention (the paper's, and PyTorch's ``nn.MultiheadAttention(bias=False)`` with every
weight matrix transposed, since PyTorch stores ``out_features x in_features``):

- X (n_q, d_model) holds the queries' embeddings; X_kv (n_k, d_model) the keys' and
  values' (cross-attention), X itself when omitted (self-attention).
- W_q, W_k, W_v are (d_model, n_heads·d_head). Head h uses the columns
  h·d_head to (h+1)·d_head of each, so Q_h = X W_q[:, h·d_head:(h+1)·d_head].
- Each head is ``attention(Q_h, K_h, V_h, mask)``, scaled by its own 1/√d_head.
- The heads' outputs are concatenated side by side, (n_q, n_heads·d_head), and
  W_o (n_heads·d_head, d_model) maps them back to the model width. No biases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attention_core.attention import AttentionTrace, as_matrix, attention
from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.overflow import check_output, check_projection
from attention_core.types import BoolArray, FloatArray


@dataclass(frozen=True, eq=False)
class MultiHeadTrace:
    """Every intermediate of one multi-head call.

    Q (n_q, n_heads·d_head), K and V (n_k, n_heads·d_head): the full projections;
    heads: one ``AttentionTrace`` per head, on the columns ``slices[h]``;
    concat (n_q, n_heads·d_head); W_o (n_heads·d_head, d_model); output (n_q, d_model).
    """

    Q: FloatArray
    K: FloatArray
    V: FloatArray
    heads: tuple[AttentionTrace, ...]
    concat: FloatArray
    W_o: FloatArray
    output: FloatArray
    n_heads: int
    d_head: int

    @property
    def slices(self) -> tuple[slice, ...]:
        """The columns each head reads from Q, K and V (and writes in ``concat``)."""
        return tuple(head_slice(h, self.d_head) for h in range(self.n_heads))


def head_slice(h: int, d_head: int) -> slice:
    """Columns h·d_head to (h+1)·d_head: the part of each projection head ``h`` uses."""
    return slice(h * d_head, (h + 1) * d_head)


def head_divisors(width: int) -> list[int]:
    """The head counts that split ``width`` columns into equal slices: 6 -> [1, 2, 3, 6]."""
    if width < 1:
        raise InputError(
            N_("a width of {width} cannot be split into heads"), "n_heads", width=str(width)
        )
    return [n for n in range(1, width + 1) if width % n == 0]


def multi_head_attention(
    X: FloatArray,
    W_q: FloatArray,
    W_k: FloatArray,
    W_v: FloatArray,
    W_o: FloatArray,
    n_heads: int,
    mask: BoolArray | None = None,
    X_kv: FloatArray | None = None,
    scaled: bool = True,
    labels: tuple[Sequence[str], Sequence[str]] | None = None,
) -> MultiHeadTrace:
    """concat(head_1, ..., head_h) W_o with head_i = attention(X W_q^i, X_kv W_k^i, X_kv W_v^i).

    X (n_q, d_model); X_kv (n_k, d_model), X when None; W_q, W_k, W_v
    (d_model, n_heads·d_head); W_o (n_heads·d_head, d_model); mask (n_q, n_k) bool,
    True = may attend, shared by every head. ``scaled=False`` drops every head's
    1/√d_head (to show why it is there). Returns a ``MultiHeadTrace``; numbers beyond
    float64 anywhere are an InputError that names them (``labels``: query and key tokens).
    """
    n_heads = _check_n_heads(n_heads)
    X = as_matrix(X, "X")
    X_kv = X if X_kv is None else _check_same_width(as_matrix(X_kv, "X_kv"), X)
    W_q, W_k, W_v = (
        _check_projection(as_matrix(W, name), name, X.shape[1])
        for name, W in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v))
    )
    d_head = _check_head_width(W_q, W_k, W_v, n_heads)
    W_o = as_matrix(W_o, "W_o")
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below
        Q = X @ W_q  # (n_q, d_model) @ (d_model, n_heads·d_head) -> (n_q, n_heads·d_head)
        K = X_kv @ W_k  # (n_k, d_model) @ (d_model, n_heads·d_head) -> (n_k, n_heads·d_head)
        V = X_kv @ W_v  # (n_k, d_model) @ (d_model, n_heads·d_head) -> (n_k, n_heads·d_head)
    queries, keys = labels if labels is not None else (None, None)
    for name, M, W, rows in (("Q", Q, W_q, queries), ("K", K, W_k, keys), ("V", V, W_v, keys)):
        check_projection(M, name, X if name == "Q" else X_kv, W, rows)
    heads = tuple(
        attention(Q[:, s], K[:, s], V[:, s], mask=mask, scaled=scaled, labels=labels)
        for s in (head_slice(h, d_head) for h in range(n_heads))
    )  # each (n_q, d_head)
    concat, output = combine_heads([head.output for head in heads], W_o, X.shape[1])
    check_output(output, W_o, "W_o", queries)
    return MultiHeadTrace(
        Q=Q,
        K=K,
        V=V,
        heads=heads,
        concat=concat,
        W_o=W_o,
        output=output,
        n_heads=n_heads,
        d_head=d_head,
    )


def combine_heads(
    outputs: Sequence[FloatArray], W_o: FloatArray, d_model: int | None = None
) -> tuple[FloatArray, FloatArray]:
    """The heads' outputs side by side, then through W_o.

    outputs: n_heads arrays (n_q, d_head); W_o (n_heads·d_head, d_model).
    Returns concat (n_q, n_heads·d_head) and output (n_q, d_model). ``d_model``, when
    given, is the width W_o must map back to.
    """
    concat = np.hstack(outputs)  # n_heads x (n_q, d_head) -> (n_q, n_heads·d_head)
    W_o = as_matrix(W_o, "W_o")
    if W_o.shape[0] != concat.shape[1]:
        raise InputError(
            N_(
                "W_o has {rows} rows but the heads' concatenation has {cols} columns: W_o "
                "needs one row per concatenated column (n_heads·d_head)"
            ),
            where="W_o",
            rows=str(W_o.shape[0]),
            cols=str(concat.shape[1]),
        )
    if d_model is not None and W_o.shape[1] != d_model:
        raise InputError(
            N_(
                "W_o has {cols} columns but X has {d_model}: W_o maps the heads back to the "
                "model width d_model = {d_model}"
            ),
            where="W_o",
            cols=str(W_o.shape[1]),
            d_model=str(d_model),
        )
    with np.errstate(over="ignore", invalid="ignore"):  # multi_head_attention reports it
        return concat, concat @ W_o  # (n_q, n_heads·d_head) @ (n_heads·d_head, d_model)


def _check_n_heads(n_heads: object) -> int:
    if isinstance(n_heads, bool) or not isinstance(n_heads, int | np.integer):
        raise InputError(
            N_("the number of heads must be a whole number, not {n}"), "n_heads", n=repr(n_heads)
        )
    if n_heads < 1:
        raise InputError(
            N_("the number of heads must be at least 1, got {n}"), "n_heads", n=str(n_heads)
        )
    return int(n_heads)


def _check_same_width(X_kv: FloatArray, X: FloatArray) -> FloatArray:
    if X_kv.shape[1] != X.shape[1]:
        raise InputError(
            N_(
                "X_kv has {kv} columns but X has {x}: queries, keys and values are projected "
                "by the same W matrices, so both need width d_model"
            ),
            where="X_kv",
            kv=str(X_kv.shape[1]),
            x=str(X.shape[1]),
        )
    return X_kv


def _check_projection(W: FloatArray, name: str, d_model: int) -> FloatArray:
    if W.shape[0] != d_model:
        raise InputError(
            N_(
                "{name} has {rows} rows but X has {d_model} columns: {name} needs one row per "
                "embedding dimension (d_model = {d_model})"
            ),
            where=name,
            name=name,
            rows=str(W.shape[0]),
            d_model=str(d_model),
        )
    return W


def _check_head_width(W_q: FloatArray, W_k: FloatArray, W_v: FloatArray, n_heads: int) -> int:
    """d_head, once W_q, W_k and W_v have the same width and it splits into ``n_heads``."""
    width = W_q.shape[1]
    for name, W in (("W_k", W_k), ("W_v", W_v)):
        if W.shape[1] != width:
            raise InputError(
                N_(
                    "{name} has {cols} columns but W_q has {width}: every projection holds "
                    "n_heads slices of the same width d_head"
                ),
                where=name,
                name=name,
                cols=str(W.shape[1]),
                width=str(width),
            )
    if width % n_heads:
        raise InputError(
            N_(
                "W_q has {width} columns, which do not split into {n} heads of equal width: "
                "choose a number of heads among {choices}"
            ),
            where="W_q",
            width=str(width),
            n=str(n_heads),
            choices=str(head_divisors(width)),
        )
    return width // n_heads
