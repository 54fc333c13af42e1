"""Reading what a learner typed: numbers, percentages, and how many decimals they used."""

from __future__ import annotations

import re

import numpy as np

from attention_core.errors import InputError
from attention_core.overflow import check_row_sums
from attention_core.parsing import parse_matrix
from attention_core.types import FloatArray
from attention_core.words import count

_PERCENT = re.compile(r"%")
_TYPED_NUMBER = re.compile(r"\d*\.(\d+)|\d+")


def parse_answer(text: str, allow_percent: bool = False) -> tuple[FloatArray, bool]:
    """Parse typed numbers into a (rows, cols) array; return it and whether '%' was used.

    With ``allow_percent``, '80.4 %' and '80.4%' are read as 0.804. Using '%' on some
    numbers but not others is an InputError, as is '%' where the step wants plain numbers.
    """
    text = text or ""
    n_percent = len(_PERCENT.findall(text))
    if n_percent and not allow_percent:
        raise InputError("this step asks for plain numbers: leave out the % signs", where="answer")
    M = parse_matrix(_PERCENT.sub(" ", text) if n_percent else text, name="")
    with np.errstate(over="ignore", invalid="ignore"):
        check_row_sums(M.sum(axis=1))  # the checker adds a row's weights up
    if not n_percent:
        return M, False
    if n_percent != M.size:
        raise InputError(
            "put a % sign after every number or after none of them "
            f"(found {count(n_percent, '% sign')} for {count(M.size, 'number')})",
            where="percent",
        )
    return M / 100.0, True


def looks_like_percentages(answer: FloatArray) -> bool:
    """Weights typed as percentages without the sign: non-negative rows adding up to ~100."""
    return bool(
        np.all(answer >= 0)
        and np.any(answer > 1.5)
        and np.allclose(answer.sum(axis=1), 100.0, atol=1.0)
    )


def typed_decimals(text: str) -> int | None:
    """The fewest decimals among the typed numbers ('0.71, 1.4142' -> 2)."""
    decimals = [len(m.group(1) or "") for m in _TYPED_NUMBER.finditer(text)]
    return min(decimals) if decimals else None
