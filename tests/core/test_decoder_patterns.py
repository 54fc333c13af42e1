"""The decoder's head labels on causal weight matrices built by hand (no model needed)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.decoder import DECODER_PATTERN_NAMES, decoder_pattern
from attention_core.decoder.patterns import causal_entropy

WORDS = np.array([0, 1, 1, 2, 3, 3])  # tokens 1, 2 and 4, 5: two pieces of one word each
IDS = np.array([10, 11, 12, 13, 14, 15])


def _causal(rows: list[list[float]]) -> np.ndarray:
    """Rows given up to the diagonal, zero after it, each normalised to sum to 1."""
    n = len(rows)
    W = np.zeros((n, n))
    for i, row in enumerate(rows):
        W[i, : i + 1] = np.asarray(row, dtype=float) / np.sum(row)
    return W


def _on(n: int, key) -> np.ndarray:
    """Row i puts 0.9 on key(i) (clamped to 0..i) and spreads 0.1 over its other keys."""
    rows = []
    for i in range(n):
        row = np.full(i + 1, 0.1 / i) if i else np.ones(1)
        if i:
            row[min(max(key(i), 0), i)] = 0.9
        rows.append(list(row))
    return _causal(rows)


def _label(W: np.ndarray) -> str | None:
    return decoder_pattern(W, WORDS, IDS).label


def test_first_token_sink():
    assert _label(_on(6, lambda i: 0)) == "sink"
    assert DECODER_PATTERN_NAMES["sink"] == "first-token sink"


def test_previous_token():
    assert _label(_on(6, lambda i: i - 1)) == "previous"


def test_current_token():
    assert _label(_on(6, lambda i: i)) == "self"


def test_same_word():
    """Token 2 looks at token 1 and token 5 at token 4 (earlier pieces of their words); the
    others have no earlier piece and do not count."""
    W = _causal([[1], [1, 1], [0, 1, 0], [1, 1, 1, 1], [1, 1, 1, 1, 1], [0, 0, 0, 0, 1, 0]])
    assert decoder_pattern(W, WORDS, IDS).scores["same_word"] == 1.0
    assert _label(W) == "same_word"


def test_uniform_rows_are_broad_at_any_length():
    """A uniform causal row i has the entropy log(i + 1), the largest it can have."""
    W = _causal([[1] * (i + 1) for i in range(6)])
    assert causal_entropy(W, np.arange(1, 6)) == pytest.approx(1.0, abs=1e-12)
    assert _label(W) == "broad"


def test_no_single_clear_pattern():
    """Twelve tokens, each row from 1 on: 0.45 on token 0, 0.45 on itself, 0.1 spread over
    the rest. Sink and current token reach 0.45 each (under CLEAR), and the rows are far
    from uniform (entropy fraction about 0.6, under BROAD): no label."""
    n = 12
    W = np.zeros((n, n))
    W[0, 0] = 1.0
    W[1, :2] = 0.5
    for i in range(2, n):
        W[i, 1:i] = 0.1 / (i - 1)
        W[i, 0] += 0.45
        W[i, i] += 0.45
    p = decoder_pattern(W)
    assert p.scores["sink"] < 0.5 and p.scores["self"] < 0.5 and p.scores["broad"] < 0.75
    assert p.label is None


def test_clear_means_half_of_the_attention():
    """0.5 on token 0 and 0.5 on the token itself in every row from 1 on: sink and self
    tie at exactly CLEAR; the first of them in the order of the doc (sink) wins."""
    W = np.zeros((4, 4))
    W[0, 0] = 1.0
    for i in range(1, 4):
        W[i, 0] += 0.5
        W[i, i] += 0.5
    assert decoder_pattern(W).label == "sink"


def test_token_zero_is_not_a_query():
    """Row 0 can only look at itself: counting it would make every head look a bit
    'current token'. Here rows 1..3 put everything on the previous token."""
    W = np.zeros((4, 4))
    W[0, 0] = 1.0
    for i in range(1, 4):
        W[i, i - 1] = 1.0
    p = decoder_pattern(W)
    assert p.scores["previous"] == 1.0 and p.scores["self"] == 0.0


def test_one_token_has_no_pattern():
    assert decoder_pattern(np.ones((1, 1))).label is None


def test_non_square_weights_are_refused():
    from attention_core import InputError

    with pytest.raises(InputError):
        decoder_pattern(np.ones((2, 3)))
