"""The head-pattern measures both models' labels are made of, computed from a head's weights.

A label is the strongest of a model's focused measures when its mean reaches ``CLEAR``
(half of the attention), else "broad" when the rows reach ``BROAD`` of their largest
entropy, else None (``pick_label``). Which measures there are, and which queries and keys
they read, is each model's: an encoder's query sees every key, so it has a next token and
[CLS]/[SEP]; a decoder's sees only itself and earlier keys, so its largest entropy grows
with the row (``pretrained/patterns.py``, ``decoder/patterns.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

import numpy as np
from numpy.typing import NDArray

from attention_core.errors import InputError
from attention_core.types import BoolArray, FloatArray

CLEAR = 0.5  # a positional/sink/word label needs half of the attention on average
BROAD = 0.75  # a broad head's rows have >= 75 % of the entropy of a uniform row


@dataclass(frozen=True)
class Pattern:
    """``label``: a key of the model's ``NAMES`` or None; ``scores``: every measure, 0..1."""

    label: str | None
    scores: dict[str, float]

    NAMES: ClassVar[dict[str, str]] = {}  # measure key -> how a page names it

    @property
    def name(self) -> str:
        """The label as a page shows it ("" when there is none)."""
        return self.NAMES[self.label] if self.label else ""

    @classmethod
    def none(cls) -> Self:
        """No label and every measure 0: a head with no query to measure."""
        return cls(None, dict.fromkeys(cls.NAMES, 0.0))


def square_weights(weights: NDArray[np.floating]) -> FloatArray:
    """A head's weights as float64 (n, n); InputError when they are not one row per token."""
    W = np.asarray(weights, dtype=np.float64)
    if W.ndim != 2 or W.shape[0] != W.shape[1]:
        raise InputError("a head's weights must be square, one row per token", where="weights")
    return W


def pick_label(scores: dict[str, float], focused: Sequence[str]) -> str | None:
    """The strongest of ``focused`` (the first on a tie) when it reaches CLEAR, else
    "broad" when scores["broad"] reaches BROAD, else None."""
    best = max(focused, key=lambda k: scores[k])
    if scores[best] >= CLEAR:
        return best
    return "broad" if scores["broad"] >= BROAD else None


def word_id_array(words: Sequence[int | None]) -> NDArray[np.int_]:
    """A run's word of each token as ids (n,), -1 for a token in no word (a special one)."""
    return np.array([-1 if w is None else w for w in words])


def diagonal_mean(W: FloatArray, queries: NDArray[np.intp], shift: int) -> float:
    """Mean of W[i, i + shift] over the queries; a query with no such key counts 0."""
    keys = queries + shift
    ok = (keys >= 0) & (keys < W.shape[1])
    total = W[queries[ok], keys[ok]].sum()
    return float(total / queries.size)


def word_mates(
    n: int, word_ids: NDArray[np.integer] | None, token_ids: NDArray[np.integer] | None
) -> BoolArray:
    """mates[i, j] (n, n): i and j are pieces of one word (word_ids, -1 for none) or copies
    of one token (token_ids). The diagonal is True: each model drops the keys it must."""
    mates = np.zeros((n, n), dtype=bool)
    if word_ids is not None:
        w = np.asarray(word_ids)[:n]
        mates |= (w[:, None] == w[None, :]) & (w[:, None] >= 0)
    if token_ids is not None:
        t = np.asarray(token_ids)[:n]
        mates |= t[:, None] == t[None, :]
    return mates


def mean_on_mates(W: FloatArray, queries: NDArray[np.intp], mates: BoolArray) -> float:
    """Mean over the queries that have a mate of their weight on their mates (0 when none
    has one). W, mates (n, n)."""
    has = queries[mates[queries].any(axis=1)]
    if has.size == 0:
        return 0.0
    return float((W[has] * mates[has]).sum(axis=1).mean())


def row_entropy(rows: FloatArray) -> FloatArray:
    """The entropy in nats of each row of weights: (q, n) -> (q,)."""
    p = np.clip(rows, 1e-300, None)  # 0 log 0 = 0
    return -(rows * np.log(p)).sum(axis=1)  # (q,)
