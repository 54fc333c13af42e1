"""Bad input raises InputError (a ValueError) with a message a learner can act on."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_core import (
    InputError,
    as_matrix,
    attention,
    causal_mask,
    check_mask,
    check_qkv,
    dot_product_terms,
    padding_mask,
    project,
)

ONE = np.ones


def raises_exactly(message: str):
    """pytest.raises for InputError whose whole message is ``message``."""
    return pytest.raises(InputError, match="^" + re.escape(message) + "$")


def test_input_error_is_a_value_error_with_message_and_where():
    err = InputError("K is wrong", where="K")
    assert isinstance(err, ValueError)
    assert str(err) == "K is wrong"
    assert err.message == "K is wrong"
    assert err.where == "K"
    assert InputError("x").where == ""


# (Q, K, V, mask, message, where)
ATTENTION_ERRORS = [
    pytest.param(
        ONE((1, 2)), ONE((2, 3)), ONE((2, 1)), None,
        "K has 3 columns but Q has 2: every query and key needs the same length d_k", "K",
        id="K-columns-differ-from-Q",
    ),
    pytest.param(
        ONE((2, 2)), ONE((2, 2)), ONE((3, 4)), None,
        "V has 3 rows but K has 2: every key needs exactly one value vector", "V",
        id="V-rows-differ-from-K",
    ),
    pytest.param(
        [[1.0, np.nan]], ONE((2, 2)), ONE((2, 1)), None,
        "Q row 1, column 2 is nan: every entry must be a finite number", "Q",
        id="nan-in-Q",
    ),
    pytest.param(
        ONE((1, 2)), [[1.0, 2.0], [np.inf, 0.0]], ONE((2, 1)), None,
        "K row 2, column 1 is inf: every entry must be a finite number", "K",
        id="inf-in-K",
    ),
    pytest.param(
        ONE((1, 2)), ONE((2, 2)), [[1.0, 2.0], [3.0, -np.inf]], None,
        "V row 2, column 2 is -inf: every entry must be a finite number", "V",
        id="minus-inf-in-V",
    ),
    pytest.param(
        np.zeros((0, 2)), ONE((2, 2)), ONE((2, 1)), None,
        "Q is empty: it needs at least one row", "Q",
        id="Q-no-rows",
    ),
    pytest.param(
        ONE((1, 2)), np.zeros((0, 2)), np.zeros((0, 1)), None,
        "K is empty: it needs at least one row", "K",
        id="K-no-rows",
    ),
    pytest.param(
        [], ONE((2, 2)), ONE((2, 1)), None,
        "Q has 0 columns: each row needs at least one number", "Q",
        id="Q-empty-list",
    ),
    pytest.param(
        np.zeros((2, 0)), np.zeros((2, 0)), ONE((2, 1)), None,
        "Q has 0 columns: each row needs at least one number", "Q",
        id="d_k-is-0",
    ),
    pytest.param(
        ONE((1, 2)), ONE((2, 2)), np.zeros((2, 0)), None,
        "V has 0 columns: each row needs at least one number", "V",
        id="d_v-is-0",
    ),
    pytest.param(
        ONE((2, 2, 2)), ONE((2, 2)), ONE((2, 1)), None,
        "Q must be a 2-D grid of numbers, not 3-D", "Q",
        id="Q-3d",
    ),
    pytest.param(
        [[1.0, 2.0], [3.0]], ONE((2, 2)), ONE((2, 1)), None,
        "Q must be a grid of numbers", "Q",
        id="Q-ragged",
    ),
    pytest.param(
        [["a", "b"]], ONE((2, 2)), ONE((2, 1)), None,
        "Q must be a grid of numbers", "Q",
        id="Q-words",
    ),
    pytest.param(
        ONE((2, 2)), ONE((3, 2)), ONE((3, 1)), np.array([[True, True, True], [False] * 3]),
        "row 2 of the mask allows no key at all: query 2 would have nothing to attend to "
        "(its softmax would divide by zero). Let it attend to at least one key.", "mask",
        id="all-keys-masked",
    ),
    pytest.param(
        ONE((2, 2)), ONE((3, 2)), ONE((3, 1)), np.ones((3, 2), dtype=bool),
        "the mask is 3 x 2 but the scores are 2 x 3: "
        "it needs one row per query and one column per key", "mask",
        id="mask-transposed",
    ),
    pytest.param(
        ONE((1, 2)), ONE((3, 2)), ONE((3, 1)), np.ones(3, dtype=bool),
        "the mask is 3 but the scores are 1 x 3: "
        "it needs one row per query and one column per key", "mask",
        id="mask-1d",
    ),
    pytest.param(
        ONE((2, 2)), ONE((2, 2)), ONE((2, 1)), np.ones((2, 2), dtype=int),
        "the mask must hold True/False values (True = may attend)", "mask",
        id="mask-of-ints",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("Q", "K", "V", "mask", "message", "where"), ATTENTION_ERRORS)
def test_attention_rejects_bad_input(Q, K, V, mask, message, where):
    with raises_exactly(message) as info:
        attention(Q, K, V, mask=mask)
    assert info.value.where == where
    assert info.value.message == message


def test_check_qkv_returns_float_arrays_and_lifts_vectors_to_rows():
    Q, K, V = check_qkv([1, 2], [[1, 0], [0, 1]], [[1], [2]])
    assert Q.shape == (1, 2)
    assert Q.dtype == K.dtype == V.dtype == np.float64
    np.testing.assert_array_equal(Q, [[1.0, 2.0]])


def test_as_matrix_rejects_ints_too_large_for_a_float():
    with raises_exactly("W_q must be a grid of numbers"):
        as_matrix([[10**400]], "W_q")


def test_check_mask_accepts_a_good_mask():
    mask = check_mask([[True, False], [False, True]], 2, 2)
    assert mask.dtype == np.bool_
    np.testing.assert_array_equal(mask, np.eye(2, dtype=bool))


# (X, W_q, W_k, W_v, message, where)
PROJECT_ERRORS = [
    pytest.param(
        ONE((3, 4)), ONE((3, 2)), ONE((4, 2)), ONE((4, 2)),
        "W_q has 3 rows but X has 4 columns: "
        "W_q needs one row per embedding dimension (d_model = 4)", "W_q",
        id="W_q-rows",
    ),
    pytest.param(
        ONE((3, 4)), ONE((4, 2)), ONE((5, 2)), ONE((4, 2)),
        "W_k has 5 rows but X has 4 columns: "
        "W_k needs one row per embedding dimension (d_model = 4)", "W_k",
        id="W_k-rows",
    ),
    pytest.param(
        ONE((3, 4)), ONE((4, 2)), ONE((4, 2)), ONE((2, 2)),
        "W_v has 2 rows but X has 4 columns: "
        "W_v needs one row per embedding dimension (d_model = 4)", "W_v",
        id="W_v-rows",
    ),
    pytest.param(
        ONE((3, 4)), ONE((4, 2)), ONE((4, 3)), ONE((4, 2)),
        "W_k has 3 columns but W_q has 2: queries and keys must come out the same length d_k",
        "W_k",
        id="W_k-columns",
    ),
    pytest.param(
        [[1.0, np.nan]], ONE((2, 2)), ONE((2, 2)), ONE((2, 2)),
        "X row 1, column 2 is nan: every entry must be a finite number", "X",
        id="nan-in-X",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("X", "W_q", "W_k", "W_v", "message", "where"), PROJECT_ERRORS)
def test_project_rejects_bad_shapes(X, W_q, W_k, W_v, message, where):
    with raises_exactly(message) as info:
        project(X, W_q, W_k, W_v)
    assert info.value.where == where


def test_project_multiplies_by_each_weight_matrix():
    X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    W_q, W_k, W_v = (
        np.array([[1.0], [0.0]]),
        np.array([[0.0], [1.0]]),
        np.array([[1.0, 1.0, 2.0]] * 2),
    )
    Q, K, V = project(X, W_q, W_k, W_v)
    np.testing.assert_array_equal(Q, [[1.0], [3.0], [5.0]])
    np.testing.assert_array_equal(K, [[2.0], [4.0], [6.0]])
    np.testing.assert_array_equal(V, [[3.0, 3.0, 6.0], [7.0, 7.0, 14.0], [11.0, 11.0, 22.0]])


def test_dot_product_terms():
    np.testing.assert_array_equal(
        dot_product_terms([1.0, 2.0, 3.0], [4.0, -5.0, 0.5]), [4, -10, 1.5]
    )
    np.testing.assert_array_equal(dot_product_terms([[2.0, 3.0]], [[1.0], [1.0]]), [2.0, 3.0])


def test_dot_product_terms_length_mismatch():
    with raises_exactly(
        "the key has 3 numbers but the query has 2: a dot product needs vectors of the same length"
    ) as info:
        dot_product_terms([1.0, 2.0], [1.0, 2.0, 3.0])
    assert info.value.where == "K"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: causal_mask(0), "a causal mask needs at least one token, got 0"),
        (lambda: padding_mask(0, 3, 1), "a padding mask needs at least one query and one key"),
        (lambda: padding_mask(2, 0, 1), "a padding mask needs at least one query and one key"),
        (
            lambda: padding_mask(2, 3, 0),
            "the number of real (non-padding) keys must be between 1 and 3, got 0",
        ),
        (
            lambda: padding_mask(2, 3, 4),
            "the number of real (non-padding) keys must be between 1 and 3, got 4",
        ),
    ],
    ids=["causal-0", "padding-no-queries", "padding-no-keys", "n_valid-0", "n_valid-too-big"],
)
def test_mask_builders_reject_bad_sizes(call, message):
    with raises_exactly(message) as info:
        call()
    assert info.value.where == "mask"


def test_mask_builders():
    np.testing.assert_array_equal(causal_mask(1), [[True]])
    np.testing.assert_array_equal(
        causal_mask(3), [[True, False, False], [True, True, False], [True, True, True]]
    )
    np.testing.assert_array_equal(padding_mask(2, 3, 2), [[True, True, False]] * 2)
    np.testing.assert_array_equal(padding_mask(1, 3, 3), [[True, True, True]])
    assert causal_mask(4).dtype == padding_mask(1, 2, 1).dtype == np.bool_
