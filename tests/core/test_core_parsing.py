"""parse_matrix, parse_tokens, label_tokens and format_matrix."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import (
    MAX_DIM,
    MAX_TOKENS,
    InputError,
    format_matrix,
    label_tokens,
    parse_matrix,
    parse_number,
    parse_tokens,
)
from attention_core.parsing import MAX_TEXT_CHARS
from tests.tolerance import assert_within, eps


def raises_exactly(message: str):
    return pytest.raises(InputError, match="^" + re.escape(message) + "$")


GOOD_MATRICES = [
    ("1 2\n3 4", [[1, 2], [3, 4]]),
    ("1, 2\n3, 4", [[1, 2], [3, 4]]),
    ("1,2;3,4", [[1, 2], [3, 4]]),
    ("1, 2; 3, 4", [[1, 2], [3, 4]]),
    ("1\t2\n3\t4", [[1, 2], [3, 4]]),
    ("1 2\n3 4\n", [[1, 2], [3, 4]]),
    ("\n\n1 2\n\n3 4\n\n", [[1, 2], [3, 4]]),
    ("1 2\r\n3 4\r\n", [[1, 2], [3, 4]]),
    ("  1 ,  2  \n 3 ,4", [[1, 2], [3, 4]]),
    ("1, 2,\n3, 4,", [[1, 2], [3, 4]]),
    ("1, 2 ,\n, 3, 4", [[1, 2], [3, 4]]),
    ("[[1, 2], [3, 4]]", [[1, 2], [3, 4]]),
    ("[[1, 2],\n [3, 4]]\n", [[1, 2], [3, 4]]),
    ("[[1. 2.]\n [3. 4.]]", [[1, 2], [3, 4]]),  # NumPy's print()
    ("[1, 2]", [[1, 2]]),
    ("[1, 2]\n[3, 4]", [[1, 2], [3, 4]]),
    ("[1, 2; 3, 4]", [[1, 2], [3, 4]]),
    ("7", [[7]]),
    ("1\n2\n3", [[1], [2], [3]]),
    ("1e-3", [[0.001]]),
    ("-2.5E+2, 1E2", [[-250.0, 100.0]]),
    ("1e-3 -2.5E+2", [[0.001, -250.0]]),
    ("\u22121, 2", [[-1, 2]]),  # unicode minus, as pasted from papers
    ("\u22121.5e\u22122", [[-0.015]]),
    ("\u20133 \uff0d4", [[-3, -4]]),  # en dash, full-width minus
    ("+1 +2.5", [[1, 2.5]]),
    (".5 5. -.25", [[0.5, 5.0, -0.25]]),
    ("0 -0", [[0.0, -0.0]]),
    ("0.1 0.2 0.3", [[0.1, 0.2, 0.3]]),
    ("123456789012345678901234567890", [[1.2345678901234568e29]]),
]


@pytest.mark.parametrize(
    ("text", "expected"), GOOD_MATRICES, ids=[repr(t) for t, _ in GOOD_MATRICES]
)
def test_parse_matrix_good(text, expected):
    M = parse_matrix(text)
    assert M.dtype == np.float64
    assert M.shape == np.shape(expected)
    np.testing.assert_array_equal(M, expected)


def test_parse_matrix_gives_exactly_the_typed_decimal():
    assert parse_matrix("0.1")[0, 0] == 0.1
    assert parse_matrix("1e-12")[0, 0] == 1e-12
    assert parse_matrix("-3.5e7")[0, 0] == -3.5e7


BAD_MATRICES = [
    ("1, 2\n3, x1, 4", "", "row 2, column 2: 'x1' is not a number"),
    ("1, 2\n3, x1, 4", "Q", "Q: row 2, column 2: 'x1' is not a number"),
    (
        "1, 2\n3",
        "",
        "row 2 has 1 number but row 1 has 2 numbers: every row needs the same number of columns",
    ),
    (
        "1\n2 3",
        "K",
        "K: row 2 has 2 numbers but row 1 has 1 number: every row needs the same number of columns",
    ),
    ("", "", "the matrix is empty: type at least one row of numbers"),
    ("", "V", "V is empty: type at least one row of numbers"),
    ("  \n\t\n ; ", "", "the matrix is empty: type at least one row of numbers"),
    ("[]", "", "the matrix is empty: type at least one row of numbers"),
    ("nan", "", "row 1, column 1: 'nan' is not a number"),
    ("1 NaN", "", "row 1, column 2: 'NaN' is not a number"),
    ("inf", "", "row 1, column 1: 'inf' is not a number"),
    ("1\n-inf", "", "row 2, column 1: '-inf' is not a number"),
    ("1e999", "", "row 1, column 1: '1e999' is too large"),
    ("1 -1e400", "W_q", "W_q: row 1, column 2: '-1e400' is too large"),
    ("1,,2", "", "row 1, column 2 is empty"),
    ("1, 2\n3,,4", "", "row 2, column 2 is empty"),
    ("1 2e", "", "row 1, column 2: '2e' is not a number"),
    ("1.2.3", "", "row 1, column 1: '1.2.3' is not a number"),
    ("--1", "", "row 1, column 1: '--1' is not a number"),
    ("0x10", "", "row 1, column 1: '0x10' is not a number"),
    ("1_000", "", "row 1, column 1: '1_000' is not a number"),
    ("2 ** 10", "", "row 1, column 2: '**' is not a number"),
    ("__import__('os')", "", "row 1, column 1: '__import__('os')' is not a number"),
    ("x" * 30, "", "row 1, column 1: 'xxxxxxxxxxxxxxxxxxxx' is not a number"),
    (
        "[[1, 2], [3, 4]",
        "",
        "the brackets do not match up; write rows like [1, 2] or [[1, 2], [3, 4]]",
    ),
    ("[1, 2]]", "", "the brackets do not match up; write rows like [1, 2] or [[1, 2], [3, 4]]"),
    ("][1, 2][", "", "the brackets do not match up; write rows like [1, 2] or [[1, 2], [3, 4]]"),
    ("[1, 2] 3", "", "the brackets do not match up; write rows like [1, 2] or [[1, 2], [3, 4]]"),
    ("1, 2]", "X", "X: the brackets do not match up; write rows like [1, 2] or [[1, 2], [3, 4]]"),
    ("[1, x]", "", "row 1, column 2: 'x' is not a number"),
    ("\n".join(["1"] * (MAX_DIM + 1)), "", "the matrix has 513 rows; at most 512 are allowed"),
    (";".join(["1"] * (MAX_DIM + 1)), "Q", "Q has 513 rows; at most 512 are allowed"),
    (", ".join(["1"] * (MAX_DIM + 1)), "", "the matrix has 513 columns; at most 512 are allowed"),
    (
        "1 " * (MAX_TEXT_CHARS // 2 + 1),
        "K",
        "K is too long: at most 2,000,000 characters are allowed",
    ),
]


@pytest.mark.parametrize(
    ("text", "name", "message"), BAD_MATRICES, ids=[repr(t[:24]) + n for t, n, _ in BAD_MATRICES]
)
def test_parse_matrix_bad(text, name, message):
    with raises_exactly(message) as info:
        parse_matrix(text, name=name)
    assert info.value.where == name


def test_parse_matrix_accepts_the_largest_allowed_size():
    M = parse_matrix("\n".join([", ".join(["1"] * MAX_DIM)] * MAX_DIM))
    assert M.shape == (MAX_DIM, MAX_DIM)


def test_parse_matrix_treats_none_as_empty():
    with raises_exactly("the matrix is empty: type at least one row of numbers"):
        parse_matrix(None)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(st.integers(1, 4), st.integers(1, 4)).flatmap(
        lambda shape: arrays(
            np.float64, shape, elements=st.floats(allow_nan=False, allow_infinity=False)
        )
    )
)
def test_format_matrix_round_trips_through_parse_matrix(M):
    np.testing.assert_array_equal(parse_matrix(format_matrix(M, digits=17)), M)
    approx = parse_matrix(format_matrix(M))  # 6 significant digits by default
    # Rounding to 6 significant digits: half a unit in the 6th, <= 5e-6 |x|; reading the
    # decimal back: u |x|, or below the normal range half the subnormal spacing (floats
    # differ by whole spacings, so one spacing: 2^-1074, the smallest positive float).
    assert_within(approx, M, (5e-6 + eps(np.float64)) * np.abs(M) + 2.0**-1074, "6 digits")


def test_format_matrix_text():
    assert format_matrix(np.array([[1.0, 0.5], [1e-7, -2.0]])) == "1, 0.5\n1e-07, -2"
    assert format_matrix(np.array([1 / 3, 2.0]), digits=3) == "0.333, 2"


# ---- tokens -------------------------------------------------------------------------
GOOD_TOKENS = [
    ("The animal,  was hungry", ["The", "animal", "was", "hungry"]),
    ("a\tb\nc", ["a", "b", "c"]),
    ("a,b,,c", ["a", "b", "c"]),
    ("  leading and trailing  \n", ["leading", "and", "trailing"]),
    ("the cat the", ["the", "cat", "the"]),
    ("it it it", ["it", "it", "it"]),
    ("naïve café", ["naïve", "café"]),
    ("x", ["x"]),
]


@pytest.mark.parametrize(("text", "expected"), GOOD_TOKENS)
def test_parse_tokens_good(text, expected):
    assert parse_tokens(text) == expected


@pytest.mark.parametrize("text", ["", "   ", " , ,\n\t", None])
def test_parse_tokens_empty(text):
    with raises_exactly("type at least one token (words separated by spaces)") as info:
        parse_tokens(text)
    assert info.value.where == "tokens"


def test_parse_tokens_limit():
    assert len(parse_tokens(" ".join(["w"] * MAX_TOKENS))) == MAX_TOKENS
    with raises_exactly("65 tokens is more than the 64 this app can show; use a shorter sentence"):
        parse_tokens(" ".join(["w"] * (MAX_TOKENS + 1)))


def test_parse_tokens_too_long_token():
    assert parse_tokens("a" * 40) == ["a" * 40]
    with raises_exactly("the token 'bbbbbbbbbbbbbbbbbbbb...' is longer than 40 characters"):
        parse_tokens("ok " + "b" * 41)


@pytest.mark.parametrize(
    ("tokens", "labels"),
    [
        (["the", "cat", "the"], ["the (1)", "cat", "the (2)"]),
        (["a", "b", "c"], ["a", "b", "c"]),
        (["x", "x", "x"], ["x (1)", "x (2)", "x (3)"]),
        (
            ("the", "cat", "sat", "on", "the", "mat"),
            ["the (1)", "cat", "sat", "on", "the (2)", "mat"],
        ),
        (["a (1)", "a", "a"], ["a (1)", "a (1)'", "a (2)"]),
        ([], []),
    ],
)
def test_label_tokens(tokens, labels):
    assert label_tokens(tokens) == labels


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "a (1)", "a (2)", "a (1)'", "b (1)", "a'"]), max_size=12)
)
def test_label_tokens_are_always_unique(tokens):
    labels = label_tokens(tokens)
    assert len(labels) == len(tokens)
    assert len(set(labels)) == len(labels)
    for token, label in zip(tokens, labels, strict=True):
        assert label.startswith(token)
        if tokens.count(token) > 1:
            assert label != token


@pytest.mark.parametrize(
    ("text", "value"),
    [("1e3", 1000.0), ("2.5e-1", 0.25), ("\u22122", -2.0), (" +.5 ", 0.5), ("7", 7.0), (3, 3.0)],
)
def test_parse_number_reads_what_grids_receive(text: object, value: float) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [("1,5", "'1,5' is not a number: write the decimal with a point, 1.5"),
     ("1/2", "'1/2' is not a number"), ("", "is empty"),
     ("1e999", "'1e999' is too large"), ("nan", "'nan' is not a number")],
)  # fmt: skip
def test_parse_number_rejects_with_a_message(text: str, message: str) -> None:
    with pytest.raises(InputError) as err:
        parse_number(text)
    assert err.value.message == message
