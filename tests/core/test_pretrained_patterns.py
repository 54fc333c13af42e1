"""Head labels, focus and comparison on weight matrices built by hand (no model needed)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_core.attention import attention
from attention_core.pretrained import (
    align_tokens,
    compare_runs,
    erf,
    gelu,
    head_pattern,
    ranked_heads,
)
from attention_core.pretrained.model import Run
from attention_core.pretrained.tokenize import Tokenized

# [CLS] a b c d [SEP]; "b" and "c" are two pieces of one word; n = 6
SPECIAL = np.array([True, False, False, False, False, True])
WORDS = np.array([-1, 0, 1, 1, 2, -1])
IDS = np.array([101, 7, 8, 9, 10, 102])


def _shifted(n: int, shift: int) -> np.ndarray:
    """Each row i puts all weight on i + shift (clamped into the row)."""
    W = np.zeros((n, n))
    for i in range(n):
        W[i, min(max(i + shift, 0), n - 1)] = 1.0
    return W


def _label(W: np.ndarray, **kw) -> str | None:
    return head_pattern(W, special=SPECIAL, word_ids=WORDS, token_ids=IDS, **kw).label


def test_previous_token():
    assert _label(_shifted(6, -1)) == "previous"


def test_next_token():
    assert _label(_shifted(6, +1)) == "next"


# The edges of the grid: the first key and the last key. Four plain tokens (no special
# ones), so every row is a query. A diagonal weight of 0.9 on three of the four rows, and
# the fourth row (the one with no such neighbour) spread evenly: worked by hand, the mean
# over the four queries is (3 x 0.9 + 0) / 4 = 0.675, above CLEAR (0.5). Drop the edge key
# and it falls to (2 x 0.9) / 4 = 0.45, no label.
EDGE_SPECIAL = np.zeros(4, dtype=bool)


def _edge(shift: int) -> np.ndarray:
    W = np.full((4, 4), 0.25)
    for i in range(4):
        if 0 <= i + shift < 4:
            W[i] = 0.1 / 3
            W[i, i + shift] = 0.9
    return W


def test_next_token_counts_the_last_key():
    W = _edge(+1)  # rows 0, 1, 2 -> keys 1, 2, 3: row 2's weight on the last key decides it
    p = head_pattern(W, special=EDGE_SPECIAL)
    assert p.scores["next"] == pytest.approx(0.675, rel=1e-12)
    assert p.scores["previous"] == pytest.approx((0.25 + 2 * 0.1 / 3) / 4, rel=1e-12)
    assert p.label == "next"


def test_previous_token_counts_the_first_key():
    W = _edge(-1)  # rows 1, 2, 3 -> keys 0, 1, 2: row 1's weight on the first key decides it
    p = head_pattern(W, special=EDGE_SPECIAL)
    assert p.scores["previous"] == pytest.approx(0.675, rel=1e-12)
    assert p.label == "previous"


def test_the_last_valid_token_counts_before_padding():
    W = np.zeros((5, 5))
    W[:4, :4] = _edge(+1)  # four valid tokens, as above; none looks at the padding key
    W[4] = 0.2  # the padding row: never a query
    p = head_pattern(W, special=np.array([False] * 4 + [True]), n_valid=4)
    assert p.scores["next"] == pytest.approx(0.675, rel=1e-12)  # the last valid key counts
    assert p.label == "next"


def test_sink_on_cls_and_sep():
    W = np.zeros((6, 6))
    W[:, 0], W[:, 5] = 0.3, 0.6
    W[:, 2] = 0.1
    p = head_pattern(W, special=SPECIAL, word_ids=WORDS, token_ids=IDS)
    assert p.label == "sink" and p.name == "[CLS]/[SEP] sink"
    assert p.scores["sink"] == pytest.approx(0.9)


def test_same_word_pieces():
    W = np.full((6, 6), 0.02)
    W[2, 3] = W[3, 2] = 0.9  # b <-> c, the two pieces of one word
    W[1, 1] = W[4, 4] = 0.9  # a and d have no mates: they do not count
    W /= W.sum(axis=1, keepdims=True)
    p = head_pattern(W, special=SPECIAL, word_ids=WORDS, token_ids=IDS)
    assert p.label == "same_word"
    assert p.scores["same_word"] == pytest.approx(0.9)  # rows: 0.9 + 5 x 0.02 = 1


def test_identical_tokens_count_as_the_same_word():
    ids = np.array([101, 7, 8, 7, 9, 102])  # "a x a y": the two a's
    words = np.array([-1, 0, 1, 2, 3, -1])
    W = np.full((6, 6), 0.04)
    W[1, 3] = W[3, 1] = 0.8
    W /= W.sum(axis=1, keepdims=True)
    assert head_pattern(W, special=SPECIAL, word_ids=words, token_ids=ids).label == "same_word"


def test_broad_uniform():
    p = head_pattern(np.full((6, 6), 1 / 6), special=SPECIAL, word_ids=WORDS, token_ids=IDS)
    assert p.label == "broad"
    assert p.scores["broad"] == pytest.approx(1.0)


def test_attending_to_itself_is_no_listed_pattern():
    p = head_pattern(np.eye(6), special=SPECIAL, word_ids=WORDS, token_ids=IDS)
    assert p.label is None and p.name == ""
    assert p.scores["broad"] == pytest.approx(0.0)


def test_padding_rows_and_keys_are_ignored():
    W = np.zeros((8, 8))
    W[:6, :6] = _shifted(6, -1)
    W[6:, 0] = 1.0  # padding rows: whatever they do must not count
    special = np.concatenate([SPECIAL, [True, True]])
    assert head_pattern(W, special=special, n_valid=6).label == "previous"


def test_a_run_of_only_special_tokens_has_no_label():
    p = head_pattern(np.full((2, 2), 0.5), special=np.array([True, True]))
    assert p.label is None


def test_bad_shapes_are_an_input_error():
    with pytest.raises(ValueError, match="square"):
        head_pattern(np.ones((2, 3)) / 3, special=np.array([True, False]))


# ---- GELU ----------------------------------------------------------------------------------
def test_erf_matches_math_erf_to_a_few_ulps():
    rng = np.random.default_rng(0)
    x = np.concatenate([np.linspace(-7, 7, 20_001), rng.normal(scale=3, size=5_000), [0.0, 1e-300]])
    expected = np.array([math.erf(v) for v in x])
    assert np.abs(erf(x) - expected).max() <= 2.3e-16


def test_gelu_matches_the_exact_formula_in_both_dtypes():
    x = np.linspace(-10, 10, 4_001)
    expected = np.array([v / 2 * (1 + math.erf(v / math.sqrt(2))) for v in x])
    np.testing.assert_allclose(gelu(x), expected, rtol=0, atol=2e-15)
    x32 = x.astype(np.float32)
    assert gelu(x32).dtype == np.float32
    np.testing.assert_allclose(gelu(x32), expected, rtol=2e-6, atol=2e-6)


# ---- focus and comparison on hand-made runs --------------------------------------------------
def _fake_run(tokens: tuple[str, ...], rows: dict[tuple[int, int], list[float]]) -> Run:
    """A 1-layer, 2-head run whose token 1 has the given weight rows; other rows uniform."""
    n = len(tokens)
    W = np.full((1, 2, n, n), 1 / n)
    for (layer, head), row in rows.items():
        W[layer, head, 1] = row
    tok = Tokenized(
        text=" ".join(tokens),
        tokens=tokens,
        ids=np.arange(n),
        offsets=((0, 0),) * n,
        words=(None,) * n,
        word_spans=(),
        special=tuple(t.startswith("[") for t in tokens),
        unknown=(False,) * n,
        n_valid=n,
        truncated=None,
    )
    dummy = attention(np.eye(n), np.eye(n), np.eye(n))
    return Run(tok, ((dummy, dummy),), W, np.zeros((2, n, 4)), np.dtype(np.float64))


def test_align_tokens_pairs_equal_runs_and_same_length_replacements():
    a = ["[CLS]", "it", "was", "too", "tired", "[SEP]"]
    b = ["[CLS]", "it", "was", "too", "wide", "[SEP]"]
    assert align_tokens(a, b) == [(i, i) for i in range(6)]
    c = ["[CLS]", "it", "was", "very", "very", "wide", "[SEP]"]
    assert align_tokens(a, c) == [(0, 0), (1, 1), (2, 2), (5, 6)]


def test_compare_runs_total_variation_on_aligned_keys():
    a = _fake_run(("[CLS]", "it", "animal", "street", "[SEP]"),
                  {(0, 0): [0, 0, 1, 0, 0], (0, 1): [0, 0, 0.5, 0.5, 0]})  # fmt: skip
    b = _fake_run(("[CLS]", "it", "animal", "street", "[SEP]"),
                  {(0, 0): [0, 0, 0, 1, 0], (0, 1): [0, 0, 0.5, 0.5, 0]})  # fmt: skip
    changes = compare_runs(a, b, query_a=1)
    assert [(c.layer, c.head) for c in changes] == [(0, 0), (0, 1)]
    assert changes[0].change == pytest.approx(1.0)  # animal -> street: no overlap
    assert changes[1].change == pytest.approx(0.0)
    assert (changes[0].top_a, changes[0].top_b) == (2, 3)


def test_compare_runs_counts_weight_on_unpaired_keys():
    a = _fake_run(("[CLS]", "it", "x", "[SEP]"), {(0, 0): [0, 0, 1, 0], (0, 1): [0, 0, 1, 0]})
    b = _fake_run(("[CLS]", "it", "y", "z", "[SEP]"),
                  {(0, 0): [0, 0, 0.25, 0.75, 0], (0, 1): [0.5, 0, 0, 0, 0.5]})  # fmt: skip
    changes = {(c.layer, c.head): c.change for c in compare_runs(a, b, query_a=1)}
    assert changes[(0, 0)] == pytest.approx(1.0)  # x and y, z are unpaired: all mass moved
    assert changes[(0, 1)] == pytest.approx(1.0)


def test_compare_runs_needs_a_shared_query_token():
    a = _fake_run(("[CLS]", "it", "x", "[SEP]"), {})
    b = _fake_run(("[CLS]", "they", "were", "x", "[SEP]"), {})
    with pytest.raises(ValueError, match="no counterpart"):
        compare_runs(a, b, query_a=1)
    assert len(compare_runs(a, b, query_a=1, query_b=1)) == 2


def test_ranked_heads_orders_by_score_then_position():
    scores = np.array([[0.1, 0.9], [0.9, 0.2]])
    assert ranked_heads(scores) == [(0, 1, 0.9), (1, 0, 0.9), (1, 1, 0.2), (0, 0, 0.1)]
