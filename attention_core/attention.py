"""Scaled dot-product attention, softmax(Q K^T / sqrt(d_k)) V, with every stage kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.masks import check_mask
from attention_core.overflow import check_output, check_projection, check_scores
from attention_core.softmax import softmax
from attention_core.types import BoolArray, FloatArray, RealArray

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, eq=False)
class AttentionTrace:
    """Every intermediate of one attention call, so each stage can be shown.

    Shapes: Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v); scores, scaled_scores,
    masked_scores, weights (n_q, n_k); output (n_q, d_v); mask (n_q, n_k) or None.
    """

    Q: FloatArray
    K: FloatArray
    V: FloatArray
    scores: FloatArray
    d_k: int
    scale: float
    scaled_scores: FloatArray
    mask: BoolArray | None
    masked_scores: FloatArray
    weights: FloatArray
    output: FloatArray

    def to_frames(
        self, q_labels: list[str] | None = None, k_labels: list[str] | None = None
    ) -> dict[str, pd.DataFrame]:
        """Each stage as a pandas DataFrame labelled by token (for notebooks and CSV)."""
        import pandas as pd  # only notebooks and exports need pandas

        n_q, n_k = self.scores.shape
        q_labels = list(q_labels) if q_labels is not None else [f"q{i + 1}" for i in range(n_q)]
        k_labels = list(k_labels) if k_labels is not None else [f"k{j + 1}" for j in range(n_k)]
        d_cols = [f"d{m + 1}" for m in range(self.Q.shape[1])]
        v_cols = [f"v{m + 1}" for m in range(self.V.shape[1])]
        frames = {
            "Q": pd.DataFrame(self.Q, index=q_labels, columns=d_cols),
            "K": pd.DataFrame(self.K, index=k_labels, columns=d_cols),
            "V": pd.DataFrame(self.V, index=k_labels, columns=v_cols),
            "scores": pd.DataFrame(self.scores, index=q_labels, columns=k_labels),
            "scaled_scores": pd.DataFrame(self.scaled_scores, index=q_labels, columns=k_labels),
            "masked_scores": pd.DataFrame(self.masked_scores, index=q_labels, columns=k_labels),
            "weights": pd.DataFrame(self.weights, index=q_labels, columns=k_labels),
            "output": pd.DataFrame(self.output, index=q_labels, columns=v_cols),
        }
        if self.mask is not None:
            frames["mask"] = pd.DataFrame(self.mask, index=q_labels, columns=k_labels)
        return frames


def as_matrix(M: object, name: str) -> FloatArray:
    """``M`` as a finite, non-empty 2-D float64 array, or an InputError naming ``name``."""
    try:
        A = np.asarray(M, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int like 10**400
        raise InputError(N_("{name} must be a grid of numbers"), name, name=name) from None
    if A.ndim == 1:
        A = A[np.newaxis, :]  # a single vector is one row: (d,) -> (1, d)
    if A.ndim != 2:
        raise InputError(N_("{name} must be a 2-D grid of numbers, not {ndim}-D"), name,
                         name=name, ndim=A.ndim)  # fmt: skip
    if A.shape[0] == 0:
        raise InputError(N_("{name} is empty: it needs at least one row"), name, name=name)
    if A.shape[1] == 0:
        raise InputError(N_("{name} has 0 columns: each row needs at least one number"), name,
                         name=name)  # fmt: skip
    if not np.isfinite(A).all():  # the fast path: all fine
        r, c = (int(i) + 1 for i in np.argwhere(~np.isfinite(A))[0])
        raise InputError(
            N_("{name} row {row}, column {col} is {value}: every entry must be a finite number"),
            where=name, name=name, row=r, col=c, value=str(A[r - 1, c - 1]),
        )  # fmt: skip
    return A


def project(
    X: FloatArray,
    W_q: FloatArray,
    W_k: FloatArray,
    W_v: FloatArray,
    tokens: Sequence[str] | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Queries, keys and values from embeddings by learned projections.

    X (n, d_model); W_q, W_k (d_model, d_k); W_v (d_model, d_v).
    Returns Q, K (n, d_k) and V (n, d_v); an InputError if one overflows float64
    (``tokens`` name its rows in the message).
    """  # fmt: skip
    X = as_matrix(X, "X")
    Ws = {name: as_matrix(W, name) for name, W in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v))}
    for name, W in Ws.items():
        if W.shape[0] != X.shape[1]:
            raise InputError(
                N_("{name} has {rows} rows but X has {cols} columns: {name} needs one row per "
                   "embedding dimension (d_model = {cols})"),
                where=name, name=name, rows=W.shape[0], cols=X.shape[1],
            )  # fmt: skip
    if Ws["W_q"].shape[1] != Ws["W_k"].shape[1]:
        raise InputError(
            N_("W_k has {k} columns but W_q has {q}: queries and keys must come out the same "
               "length d_k"),
            where="W_k", k=Ws["W_k"].shape[1], q=Ws["W_q"].shape[1],
        )  # fmt: skip
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below
        Q = X @ Ws["W_q"]  # (n, d_model) @ (d_model, d_k) -> (n, d_k)
        K = X @ Ws["W_k"]  # (n, d_model) @ (d_model, d_k) -> (n, d_k)
        V = X @ Ws["W_v"]  # (n, d_model) @ (d_model, d_v) -> (n, d_v)
    for name, M in (("Q", Q), ("K", K), ("V", V)):
        check_projection(M, name, X, Ws[f"W_{name.lower()}"], tokens)
    return Q, K, V


def check_qkv(Q: object, K: object, V: object) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Q, K, V as float arrays whose shapes fit together, or a clear InputError."""
    Q, K, V = as_matrix(Q, "Q"), as_matrix(K, "K"), as_matrix(V, "V")
    if K.shape[1] != Q.shape[1]:
        raise InputError(
            N_("K has {k} columns but Q has {q}: every query and key needs the same length d_k"),
            where="K", k=K.shape[1], q=Q.shape[1],
        )  # fmt: skip
    if V.shape[0] != K.shape[0]:
        raise InputError(
            N_("V has {v} rows but K has {k}: every key needs exactly one value vector"),
            where="V", v=V.shape[0], k=K.shape[0],
        )  # fmt: skip
    return Q, K, V


def attention(
    Q: RealArray,
    K: RealArray,
    V: RealArray,
    mask: BoolArray | None = None,
    scaled: bool = True,
    labels: tuple[Sequence[str], Sequence[str]] | None = None,
) -> AttentionTrace:
    """softmax(Q K^T / sqrt(d_k)) V, keeping every stage.

    Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v); mask (n_q, n_k) bool, True = may attend.
    ``scaled=False`` skips the 1/sqrt(d_k) factor (scale 1.0), to show why it is there.
    Scores or an output beyond float64 are an InputError (``labels``, the query and key
    tokens, name the cell in its message; positions when None): a trace has finite stages.
    """
    Q, K, V = check_qkv(Q, K, V)
    n_q, n_k = Q.shape[0], K.shape[0]
    if mask is not None:
        mask = check_mask(mask, n_q, n_k)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below
        trace = batched_attention(Q, K, V, mask=mask, scaled=scaled)
    queries, keys = labels if labels is not None else (None, None)
    check_scores(trace.scores, Q, K, queries, keys)
    check_output(trace.output, V, "V", queries)
    return trace


def batched_attention(
    Q: FloatArray,
    K: FloatArray,
    V: FloatArray,
    mask: BoolArray | None = None,
    scaled: bool = True,
) -> AttentionTrace:
    """``attention`` on float arrays the caller has checked, also on a stack of examples.

    Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v); mask (n_q, n_k), the same for
    every example. The trainer (``attention_core.training``) runs a batch at once through
    it; ``attention`` checks the learner's input first. Each stage is computed here only.
    """
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2)  # (..., n_q, d_k) @ (..., d_k, n_k) -> (..., n_q, n_k)
    scale = 1.0 / np.sqrt(d_k) if scaled else 1.0
    scaled_scores = scores * scale  # (..., n_q, n_k)
    masked_scores = scaled_scores if mask is None else np.where(mask, scaled_scores, -np.inf)
    weights = softmax(masked_scores, axis=-1)  # (..., n_q, n_k), each row sums to 1
    output = weights @ V  # (..., n_q, n_k) @ (..., n_k, d_v) -> (..., n_q, d_v)
    return AttentionTrace(
        Q=Q,
        K=K,
        V=V,
        scores=scores,
        d_k=d_k,
        scale=float(scale),
        scaled_scores=scaled_scores,
        mask=mask,
        masked_scores=masked_scores,
        weights=weights,
        output=output,
    )


def dot_product_terms(q: FloatArray, k: FloatArray) -> FloatArray:
    """The per-dimension products q_m * k_m whose sum is the score q . k.

    q, k (d_k,). Returns (d_k,).
    """
    q = np.asarray(q, dtype=np.float64).ravel()
    k = np.asarray(k, dtype=np.float64).ravel()
    if q.shape != k.shape:
        raise InputError(
            N_("the key has {k} numbers but the query has {q}: a dot product needs vectors of "
               "the same length"),
            where="K", k=k.size, q=q.size,
        )  # fmt: skip
    return q * k  # (d_k,)
