"""Name what a decoder head does, computed from its weights (never typed in).

The measures of ``attention_core.trained.patterns`` (MiniLM's labels use them too), read
as a causal head reads. Token 0 can only look at itself, so the queries are tokens
1 .. n-1, and row i spreads its weight over i + 1 keys:

* first-token sink: mean weight on token 0 (a decoder's [CLS]: always there, always seen)
* previous token: mean of weights[i, i-1]
* current token: mean of weights[i, i]
* same word: mean weight on earlier pieces of i's word or earlier copies of i's token,
  over the queries that have such mates (0 when none has)
* broad: mean over the rows of their entropy as a fraction of log(i + 1), the entropy of
  a uniform row over the i + 1 keys that row may see

The label is the strongest of the first four when its mean reaches ``CLEAR`` (half of the
attention), else "broad" when the rows reach ``BROAD`` of their largest entropy, else None.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from attention_core.i18n import N_
from attention_core.trained import patterns as measures

DECODER_PATTERN_NAMES = {  # how a page names each (English; the app shows them translated)
    "sink": N_("first-token sink"),
    "previous": N_("previous token"),
    "self": N_("current token"),
    "same_word": N_("same word"),
    "broad": N_("broad"),
}
FOCUSED = ("sink", "previous", "self", "same_word")


class DecoderPattern(measures.Pattern):
    """``label``: a key of DECODER_PATTERN_NAMES or None; ``scores``: every measure, 0..1."""

    NAMES = DECODER_PATTERN_NAMES


def decoder_pattern(
    weights: NDArray[np.floating],
    word_ids: NDArray[np.integer] | None = None,
    token_ids: NDArray[np.integer] | None = None,
) -> DecoderPattern:
    """Label one causal head from its weights (n, n), rows summing to 1 over keys <= i.

    word_ids (n,): each token's word, -1 for none; token_ids (n,): vocabulary ids.
    """
    W = measures.square_weights(weights)
    n = W.shape[0]
    if n < 2:  # one token looks only at itself: nothing to tell
        return DecoderPattern.none()
    queries = np.arange(1, n)
    scores = {
        "sink": float(W[queries, 0].mean()),
        "previous": measures.diagonal_mean(W, queries, -1),
        "self": measures.diagonal_mean(W, queries, 0),
        "same_word": earlier_mates(W, queries, word_ids, token_ids),
        "broad": causal_entropy(W, queries),
    }
    return DecoderPattern(measures.pick_label(scores, FOCUSED), scores)


def earlier_mates(
    W: NDArray[np.float64],
    queries: NDArray[np.intp],
    word_ids: NDArray[np.integer] | None,
    token_ids: NDArray[np.integer] | None,
) -> float:
    """Mean weight on the earlier pieces of a query's word or earlier copies of its token,
    over the queries that have one (0 when none has). A causal row cannot see later ones."""
    n = W.shape[0]
    mates = measures.word_mates(n, word_ids, token_ids)
    mates &= np.tri(n, k=-1, dtype=bool)  # earlier keys only (not the token itself)
    return measures.mean_on_mates(W, queries, mates)


def causal_entropy(W: NDArray[np.float64], queries: NDArray[np.intp]) -> float:
    """Mean over the rows i of entropy(row i) / log(i + 1) (0..1; queries i >= 1)."""
    entropy = measures.row_entropy(W[queries])  # (q,)
    return float((entropy / np.log(queries + 1.0)).mean())
