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
words). The scores are kept so a page can show how clear a label is. The measures the
decoder shares (and CLEAR, BROAD) are ``attention_core.trained.patterns``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.trained import patterns as measures

PATTERN_NAMES = {  # how a page names each (English; the app shows them translated)
    "previous": N_("previous token"),
    "next": N_("next token"),
    "sink": N_("[CLS]/[SEP] sink"),
    "same_word": N_("same word"),
    "broad": N_("broad"),
}
FOCUSED = ("previous", "next", "sink", "same_word")


class HeadPattern(measures.Pattern):
    """``label``: a key of PATTERN_NAMES or None; ``scores``: every measure, 0..1."""

    NAMES = PATTERN_NAMES


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
    W = measures.square_weights(weights)
    n = W.shape[0]
    n_valid = n if n_valid is None else n_valid
    special = np.asarray(special, dtype=bool)
    if special.shape != (n,) or not 1 <= n_valid <= n:
        raise InputError("a head's weights must be square, one row per token", where="weights")
    W = W[:n_valid, :n_valid]  # padding neither asks nor is attended to
    queries = np.flatnonzero(~special[:n_valid])
    if queries.size == 0:
        return HeadPattern.none()
    mates = measures.word_mates(n_valid, word_ids, token_ids)
    np.fill_diagonal(mates, False)  # another piece or copy, in either direction
    scores = {
        "previous": measures.diagonal_mean(W, queries, -1),
        "next": measures.diagonal_mean(W, queries, +1),
        "sink": float(W[np.ix_(queries, np.flatnonzero(special[:n_valid]))].sum(axis=1).mean()),
        "same_word": measures.mean_on_mates(W, queries, mates),
        "broad": _mean_entropy(W[queries], n_valid),
    }
    return HeadPattern(measures.pick_label(scores, FOCUSED), scores)


def _mean_entropy(rows: NDArray[np.float64], n: int) -> float:
    """Mean row entropy divided by log(n), the entropy of a uniform row (0..1)."""
    if n < 2:
        return 0.0
    return float(measures.row_entropy(rows).mean() / np.log(n))
