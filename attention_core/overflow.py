"""Refuse numbers that float64 cannot hold: every stage of a trace must be finite.

An input can be finite and still give no answer: 1e308 in a query times 10 in a key is
beyond the largest float64 (about 1.8e308), so the score is ∞, the row's softmax is
∞ / ∞ = nan and every number after it is nonsense. The learner is told which number
overflowed, where (the query and key, or the token and column) and why, as an InputError
whose ``where`` names the input to change; nothing is drawn from such a trace.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attention_core.errors import InputError
from attention_core.i18n import N_, Text
from attention_core.types import FloatArray

LARGEST = float(np.finfo(np.float64).max)  # 1.7976931348623157e308
LARGEST_TEXT = f"{LARGEST:.1e}"  # "1.8e+308": how the messages name the limit


def labels_or_positions(labels: Sequence[str] | None, n: int) -> list[str]:
    """The tokens, or "#1", "#2"... where the caller has none (a notebook's call): the same
    in every language."""
    return list(labels) if labels is not None else [f"#{i + 1}" for i in range(n)]


def what_it_is(x: float) -> Text:
    """Why a value is not a number float64 holds, in words (∞, −∞ or nan)."""
    if np.isnan(x):
        return Text(N_("not a number (two of its terms overflowed to +∞ and −∞)"))
    if x > 0:
        return Text(N_("larger than {largest}"), largest=LARGEST_TEXT)
    return Text(N_("smaller than −{largest}"), largest=LARGEST_TEXT)


def biggest(*Ms: FloatArray) -> str:
    """The largest magnitude among the finite entries of ``Ms``, as the learner would type it."""
    finite = [np.abs(M[np.isfinite(M)]).max(initial=0.0) for M in Ms]
    return f"{max(finite):.3g}"


def first_bad(M: FloatArray) -> tuple[int, int] | None:
    """(row, column) of the first entry of ``M`` that is not finite, or None."""
    if np.isfinite(M).all():  # the fast path: all fine
        return None
    r, c = np.argwhere(~np.isfinite(M))[0]
    return int(r), int(c)


def check_projection(
    M: FloatArray, name: str, X: FloatArray, W: FloatArray, tokens: Sequence[str] | None
) -> None:
    """Q, K or V (``name``) made as X @ W must be finite (W is W_q, W_k or W_v)."""
    bad = first_bad(M)
    if bad is None:
        return
    r, c = bad
    raise InputError(
        N_("the projection overflows: {name} for '{token}', column {col}, is {what}, beyond "
           "the largest number float64 holds; the largest entry of X and {W} is {big}: use "
           "smaller numbers"),
        where="X", name=name, token=labels_or_positions(tokens, M.shape[0])[r],
        col=c + 1, what=what_it_is(M[r, c]), W=f"W_{name.lower()}", big=biggest(X, W),
    )  # fmt: skip


def check_scores(
    scores: FloatArray, Q: FloatArray, K: FloatArray,
    queries: Sequence[str] | None, keys: Sequence[str] | None,
) -> None:  # fmt: skip
    """Every q·k must be finite (the scaled scores are then finite: the scale is at most 1,
    and a softmax of finite scores is finite)."""
    bad = first_bad(scores)
    if bad is None:
        return
    i, j = bad
    raise InputError(
        N_("the scores overflow: q·k for ({query}, {key}) is {what}, beyond the largest "
           "number float64 holds; the largest entry of Q and K is {big}: use smaller numbers"),
        where="Q", query=labels_or_positions(queries, scores.shape[0])[i],
        key=labels_or_positions(keys, scores.shape[1])[j],
        what=what_it_is(scores[i, j]), big=biggest(Q, K),
    )  # fmt: skip


def check_output(
    output: FloatArray, values: FloatArray, name: str, queries: Sequence[str] | None
) -> None:
    """A weighted sum of ``values`` (V, or the heads' concatenation through W_o, ``name``)
    must be finite."""
    bad = first_bad(output)
    if bad is None:
        return
    r, c = bad
    raise InputError(
        N_("the output overflows: the output for '{query}', column {col}, is {what}, beyond "
           "the largest number float64 holds; the largest entry of {name} is {big}: use "
           "smaller numbers"),
        where=name, query=labels_or_positions(queries, output.shape[0])[r],
        col=c + 1, what=what_it_is(output[r, c]), name=name, big=biggest(values),
    )  # fmt: skip


def check_row_sums(sums: FloatArray) -> None:
    """The sums of an answer's rows (n,) must be finite: the checker adds weights up."""
    bad = np.flatnonzero(~np.isfinite(sums))
    if bad.size:
        raise InputError(
            N_("the numbers of row {row} add up to a sum {what}, beyond the largest number float64 "
               "holds: no answer here needs numbers that large"),
            where="overflow", row=int(bad[0]) + 1, what=what_it_is(sums[bad[0]]),
        )  # fmt: skip
