"""Plain-text and LaTeX renderings of answers: what to type, and how a matrix reads.

The words are ``Text`` to translate where they are shown; the numbers are formatted here.
"""

from __future__ import annotations

import numpy as np

from attention_core.exercises.model import NumericStep, tolerance
from attention_core.i18n import Plural, Text
from attention_core.types import FloatArray


def shape_text(shape: tuple[int, ...]) -> Text:
    """'2 rows × 3 columns'."""
    rows, cols = shape
    return Text(
        "{rows} × {columns}",
        rows=Plural("{n} row", "{n} rows", rows),
        columns=Plural("{n} column", "{n} columns", cols),
    )


def tolerance_text(step: NumericStep) -> str:
    d = step.decimals if step.decimals is not None else 6
    return f"±{tolerance(step.decimals):.{d}f}"


def answer_format(step: NumericStep) -> Text:
    """What the answer should look like, e.g. '1 row × 2 columns, to 4 decimals'."""
    if step.decimals is None:
        rounding: Text | Plural = Text("exact values")
    elif step.decimals == 0:
        rounding = Text("whole numbers")
    else:
        rounding = Plural("to {n} decimal", "to {n} decimals", step.decimals)
    if step.percent:
        return Text(
            "{shape}, {rounding} (or as percentages, e.g. {example})",
            shape=shape_text(step.shape), rounding=rounding, example="80.4 %",
        )  # fmt: skip
    return Text("{shape}, {rounding}", shape=shape_text(step.shape), rounding=rounding)


def format_value(M: FloatArray, decimals: int | None, sep: str = "; ") -> str:
    """Numbers as a learner would type them: ', ' between numbers, ``sep`` between rows."""
    d = 4 if decimals is None else decimals
    rows = []
    for row in np.atleast_2d(M):
        cells = []
        for x in row:
            x = round(float(x), d) + 0.0  # + 0.0 turns -0.0 into 0.0
            cells.append(str(int(x)) if x == int(x) else f"{x:.{d}f}")
        rows.append(", ".join(cells))
    return sep.join(rows)


def tex_matrix(M: FloatArray, decimals: int | None = None) -> str:
    """A LaTeX bmatrix of ``M`` rounded to ``decimals`` (4 when exact values are not integers)."""
    body = format_value(M, decimals, sep=r" \\ ").replace(", ", " & ")
    return r"\begin{bmatrix} " + body + r" \end{bmatrix}"
