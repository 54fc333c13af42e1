"""Where one token looks, in every head; and which heads change most between two sentences.

Both work on ``Run.weights`` (n_layers, n_heads, n, n): row ``query`` of every head.

Comparing two sentences ("...too tired" against "...too wide") needs their keys lined up,
since the token lists may differ in length. ``align_tokens`` matches them with difflib:
runs of equal tokens are paired, and a replaced run of the same length is paired slot by
slot ("tired" with "wide": the same place in the sentence). Anything else is unpaired.
The change of a head is the total variation distance between the two rows,
0.5 * (sum over paired keys |a - b| + weight on unpaired keys in either sentence),
from 0 (the same distribution over the same words) to 1 (no overlap at all).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.pretrained.model import Run


@dataclass(frozen=True)
class TokenFocus:
    """For one query token, every head's strongest key.

    target (n_layers, n_heads): key index; weight (n_layers, n_heads): its weight.
    """

    query: int
    target: NDArray[np.intp]
    weight: NDArray[np.float64]


def _check_query(run: Run, query: int) -> None:
    if not 0 <= query < run.n_valid:
        raise InputError(
            N_("token {i} is not one of the {n} tokens of this run"),
            "token",
            i=str(query + 1),
            n=str(run.n_valid),
        )


def top_targets(run: Run, query: int, skip_special: bool = False) -> TokenFocus:
    """Every head's top key for token ``query``; ``skip_special`` ignores [CLS]/[SEP].

    Many heads park most of their attention on [SEP]; ``skip_special=True`` shows the
    strongest real word instead (its weight is still the share of the whole row).
    """
    _check_query(run, query)
    rows = run.weights[:, :, query, : run.n_valid]  # (n_layers, n_heads, n_valid)
    if skip_special:
        keep = ~np.array(run.special[: run.n_valid])
        if not keep.any():
            raise InputError(N_("this sentence has no word tokens"), where="token")
        rows = np.where(keep, rows, -1.0)  # never the argmax
    target = rows.argmax(axis=-1)  # (n_layers, n_heads)
    weight = np.take_along_axis(run.weights[:, :, query], target[..., None], axis=-1)[..., 0]
    return TokenFocus(query=query, target=target, weight=weight)


def attention_to(run: Run, query: int, key: int) -> NDArray[np.float64]:
    """weights[layer, head, query, key] for every head: (n_layers, n_heads).

    ``ranked_heads(attention_to(run, it, animal))`` lists the heads where "it" looks at
    "animal", strongest first.
    """
    _check_query(run, query)
    _check_query(run, key)
    return run.weights[:, :, query, key]


def ranked_heads(scores: NDArray[np.floating]) -> list[tuple[int, int, float]]:
    """(layer, head, score) for every head, highest score first (ties: lower layer first)."""
    order = np.argsort(-scores, axis=None, kind="stable")
    layers, heads = np.unravel_index(order, scores.shape)
    return [
        (int(layer), int(head), float(scores[layer, head]))
        for layer, head in zip(layers, heads, strict=True)
    ]


def align_tokens(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Pairs (i in a, j in b) of tokens that stand for each other (see the module doc)."""
    pairs: list[tuple[int, int]] = []
    matcher = difflib.SequenceMatcher(a=list(a), b=list(b), autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            pairs.extend(zip(range(i1, i2), range(j1, j2), strict=True))
    return pairs


@dataclass(frozen=True)
class HeadChange:
    """How much one head's row for the picked token differs between two runs."""

    layer: int
    head: int
    change: float  # total variation distance, 0..1
    top_a: int  # strongest key in run a
    top_b: int  # strongest key in run b


def compare_runs(
    run_a: Run, run_b: Run, query_a: int, query_b: int | None = None
) -> list[HeadChange]:
    """Every head ranked by how much token ``query_a``'s attention changes, largest first.

    ``query_b`` defaults to the token of run b aligned with ``query_a``.
    """
    _check_query(run_a, query_a)
    pairs = align_tokens(run_a.tokens[: run_a.n_valid], run_b.tokens[: run_b.n_valid])
    if query_b is None:
        query_b = dict(pairs).get(query_a)
        if query_b is None:
            raise InputError(
                N_(
                    "'{token}' has no counterpart in the second sentence; pick a token both "
                    "sentences share"
                ),
                where="token",
                token=run_a.tokens[query_a],
            )
    _check_query(run_b, query_b)
    A = run_a.weights[:, :, query_a, : run_a.n_valid]  # (n_layers, n_heads, n_a)
    B = run_b.weights[:, :, query_b, : run_b.n_valid]  # (n_layers, n_heads, n_b)
    ia, ib = (np.array(ix, dtype=np.intp) for ix in zip(*pairs, strict=True)) if pairs else (
        np.zeros(0, np.intp), np.zeros(0, np.intp))  # fmt: skip
    paired = np.abs(A[..., ia] - B[..., ib]).sum(axis=-1)
    unpaired = (A.sum(axis=-1) - A[..., ia].sum(axis=-1)) + (B.sum(axis=-1) - B[..., ib].sum(-1))
    change = 0.5 * (paired + unpaired)  # (n_layers, n_heads)
    top_a, top_b = A.argmax(axis=-1), B.argmax(axis=-1)
    return [
        HeadChange(layer, head, score, int(top_a[layer, head]), int(top_b[layer, head]))
        for layer, head, score in ranked_heads(change)
    ]
