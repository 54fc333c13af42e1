"""Name what a head does, computed from its weights (never typed in).

For one head's weights (n, n) and the real (non-special, non-padding) query rows i:

* previous token: mean of weights[i, i-1]
* next token: mean of weights[i, i+1]
* [CLS]/[SEP] sink: mean weight on special keys ([CLS], [SEP])
* same word: mean weight on the *other* pieces of i's word, or other copies of i's token,
  over the queries that have such mates (0 when no query has one)
* broad: mean entropy of the rows, as a fraction of the largest possible (log n_valid)

The label is the strongest of the first four when its mean reaches ``CLEAR`` (half of the
attention); otherwise "broad" when the rows are at least ``BROAD`` of maximal entropy;
otherwise None (no single clear pattern, e.g. attention to itself or to a few content
words). The scores are kept so a page can show how clear a label is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core.errors import InputError

PATTERN_NAMES = {
    "previous": "previous token",
    "next": "next token",
    "sink": "[CLS]/[SEP] sink",
    "same_word": "same word",
    "broad": "broad",
}
CLEAR = 0.5  # a positional/sink/word label needs half of the attention on average
BROAD = 0.75  # a broad head's rows have >= 75 % of the entropy of a uniform row


@dataclass(frozen=True)
class HeadPattern:
    """``label``: a key of PATTERN_NAMES or None; ``scores``: every measure, 0..1."""

    label: str | None
    scores: dict[str, float]

    @property
    def name(self) -> str:
        """The label as a page shows it ("" when there is none)."""
        return PATTERN_NAMES[self.label] if self.label else ""


def head_pattern(
    weights: NDArray[np.floating],
    special: NDArray[np.bool_],
    word_ids: NDArray[np.integer] | None = None,
    token_ids: NDArray[np.integer] | None = None,
    n_valid: int | None = None,
) -> HeadPattern:
    """Label one head from its weights.

    weights (n, n), rows summing to 1; special (n,) True for [CLS]/[SEP]/[PAD];
    word_ids (n,) the word of each token, -1 for none; token_ids (n,) vocabulary ids
    (equal ids count as the same word); n_valid: tokens after it are padding.
    """
    W = np.asarray(weights, dtype=np.float64)
    n = W.shape[0]
    n_valid = n if n_valid is None else n_valid
    special = np.asarray(special, dtype=bool)
    if W.shape != (n, n) or special.shape != (n,) or not 1 <= n_valid <= n:
        raise InputError("a head's weights must be square, one row per token", where="weights")
    W = W[:n_valid, :n_valid]  # padding neither asks nor is attended to
    queries = np.flatnonzero(~special[:n_valid])
    if queries.size == 0:
        return HeadPattern(None, {k: 0.0 for k in PATTERN_NAMES})
    scores = {
        "previous": diagonal_mean(W, queries, -1),
        "next": diagonal_mean(W, queries, +1),
        "sink": float(W[np.ix_(queries, np.flatnonzero(special[:n_valid]))].sum(axis=1).mean()),
        "same_word": _same_word(W, queries, word_ids, token_ids, n_valid),
        "broad": _mean_entropy(W[queries], n_valid),
    }
    return HeadPattern(_label(scores), scores)


def _label(scores: dict[str, float]) -> str | None:
    best = max(("previous", "next", "sink", "same_word"), key=lambda k: scores[k])
    if scores[best] >= CLEAR:
        return best
    return "broad" if scores["broad"] >= BROAD else None


def diagonal_mean(W: NDArray[np.float64], queries: NDArray[np.intp], shift: int) -> float:
    """Mean of W[i, i + shift] over the queries; a query with no such key counts 0."""
    keys = queries + shift
    ok = (keys >= 0) & (keys < W.shape[1])
    total = W[queries[ok], keys[ok]].sum()
    return float(total / queries.size)


def _same_word(
    W: NDArray[np.float64],
    queries: NDArray[np.intp],
    word_ids: NDArray[np.integer] | None,
    token_ids: NDArray[np.integer] | None,
    n: int,
) -> float:
    mates = np.zeros((n, n), dtype=bool)  # mates[i, j]: j is another piece/copy of i
    if word_ids is not None:
        w = np.asarray(word_ids)[:n]
        mates |= (w[:, None] == w[None, :]) & (w[:, None] >= 0)
    if token_ids is not None:
        t = np.asarray(token_ids)[:n]
        mates |= t[:, None] == t[None, :]
    np.fill_diagonal(mates, False)
    has = queries[mates[queries].any(axis=1)]
    if has.size == 0:
        return 0.0
    return float((W[has] * mates[has]).sum(axis=1).mean())


def _mean_entropy(rows: NDArray[np.float64], n: int) -> float:
    """Mean row entropy divided by log(n), the entropy of a uniform row (0..1)."""
    if n < 2:
        return 0.0
    p = np.clip(rows, 1e-300, None)  # 0 log 0 = 0
    entropy = -(rows * np.log(p)).sum(axis=1)  # (n_q,)
    return float(entropy.mean() / np.log(n))
