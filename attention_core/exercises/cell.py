"""One number of a stage, asked of a whole class: "the weight query i gives key j".

A live class's question is one cell of the scenario the room shows, so every phone can
rebuild the same question from the room (scenario, stage, cell) and check its own answer
with the exercises' checker. Its named slips are the matrix slips of that stage read at
the same cell, plus the cell of the swapped pair (rows and columns swapped). No numbers
are typed in here: every value is the core's.
"""

from __future__ import annotations

import numpy as np

from attention_core.attention import AttentionTrace
from attention_core.exercises import mistakes as wrong
from attention_core.exercises.model import Mistake, NumericStep, Variant, tolerance
from attention_core.i18n import N_, Piece, Plural, Text

# What a class can be asked of each stage: (title, the value's field on the trace).
CELL_STAGES: dict[str, tuple[str, str]] = {
    "scores": (N_("score"), "scores"),
    "scaled": (N_("scaled score"), "scaled_scores"),
    "weights": (N_("attention weight"), "weights"),
    "output": (N_("output entry"), "output"),
}
DECIMALS = 2  # what a phone's answer is rounded to (integers are asked exactly)


def num(x: float) -> str:
    """A number in a worked line: 4 significant digits."""
    return f"{x:.4g}"


def cell_question(t: AttentionTrace, stage: str, i: int, j: int, query: str,
                  key: str) -> NumericStep:  # fmt: skip
    """The question "what is <stage>[i, j]?", with its slips, as an exercise step.

    ``query``/``key``: the labels of row i and column j (for output, column j is the
    value dimension j + 1 and ``key`` its name).
    """
    title, field = CELL_STAGES[stage]
    grid = getattr(t, field)  # (n_q, n_k), or (n_q, d_v) for the output
    if not (0 <= i < grid.shape[0] and 0 <= j < grid.shape[1]):
        raise IndexError(f"no cell ({i}, {j}) in a {grid.shape} grid")
    value = float(grid[i, j])
    decimals = None if value == round(value) else DECIMALS
    slips = _slips(t, stage, grid, i, j, value, tolerance(decimals))
    rounding = (Text("Type the exact number.") if decimals is None else
                Plural("Round to {n} decimal.", "Round to {n} decimals.", decimals))  # fmt: skip
    return NumericStep(
        id=f"{stage}-{i}-{j}", symbol=title,
        title=Text("{what} ({query}, {key})", what=Text(title), query=query, key=key),
        prompt=Text("{question} {rounding}", question=_question(stage, query, key),
                    rounding=rounding),
        accepted=(Variant(None, np.array([[value]])),), decimals=decimals,
        layout=Text("one number"), explanation=_worked(t, stage, i, j, value),
        mistakes=tuple(slips), kind="weights" if stage == "weights" else "matrix",
    )  # fmt: skip


def _question(stage: str, query: str, key: str) -> Text:
    """What is asked, naming the row's and the column's tokens (typed by the teacher)."""
    if stage == "scores":
        return Text("What is the score of query “{query}” for key “{key}”?", query=query, key=key)
    if stage == "scaled":
        return Text(
            "What is the scaled score of query “{query}” for key “{key}”?", query=query, key=key
        )
    if stage == "weights":
        return Text(
            "What is the attention weight of query “{query}” for key “{key}”?",
            query=query, key=key,
        )  # fmt: skip
    return Text("What is dimension {key} of the output of query “{query}”?", query=query, key=key)


def _slips(t: AttentionTrace, stage: str, grid: np.ndarray, i: int, j: int, value: float,
           tol: float) -> list[Mistake]:  # fmt: skip
    """The stage's matrix slips at cell (i, j): only those that give another number."""
    matrix = {
        "scores": lambda: wrong.scores_mistakes(t),
        "scaled": lambda: wrong.scaled_mistakes(t),
        "weights": lambda: wrong.weights_mistakes(t),
        "output": lambda: wrong.output_mistakes(t, DECIMALS),
    }[stage]()
    out, seen = [], [value]
    for m in matrix:
        message: Piece
        if m.key == "transposed":
            if j >= grid.shape[0] or i >= grid.shape[1]:
                continue  # no swapped cell in a non-square grid
            cell, message = float(grid[j, i]), Text(
                "That is the number of the swapped pair: row and column exchanged (query and "
                "key, or row and dimension). Row i is the query, column j the key.")  # fmt: skip
        elif m.value.shape == grid.shape and np.isfinite(m.value[i, j]):
            cell, message = float(m.value[i, j]), m.said
        else:
            continue
        if all(abs(cell - s) > 2 * tol for s in seen):  # tell it apart from the others
            seen.append(cell)
            out.append(Mistake(m.key, np.array([[cell]]), message))
    return out


def _worked(t: AttentionTrace, stage: str, i: int, j: int, value: float) -> Text:
    """One worked line for the reveal (Markdown with LaTeX)."""
    if stage == "scores":
        terms = " + ".join(f"({num(a)})({num(b)})" for a, b in zip(t.Q[i], t.K[j], strict=True))
        return Text(
            "{formula}", formula=rf"$q_{{{i + 1}}} \cdot k_{{{j + 1}}} = {terms} = {num(value)}$"
        )
    if stage == "scaled":
        raw = num(float(t.scores[i, j]))
        return Text("{formula}", formula=(
            rf"$\frac{{q_{{{i + 1}}} \cdot k_{{{j + 1}}}}}{{\sqrt{{d_k}}}} = "
            rf"\frac{{{raw}}}{{\sqrt{{{t.d_k}}}}} = {num(value)}$"))  # fmt: skip
    if stage == "weights":
        row = t.masked_scores[i]
        e = num(float(row[j]))
        return Text(
            "{formula} (softmax along the query's row of scaled scores)",
            formula=rf"$w = \frac{{e^{{{e}}}}}{{\sum_l e^{{s_l}}}} = {num(value)}$",
        )
    return Text(
        "{formula} (weights times V)",
        formula=rf"$\sum_l w_{{{i + 1},l}}\, v_{{l,{j + 1}}} = {num(value)}$",
    )
