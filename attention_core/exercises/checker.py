"""Checking an answer: right (and which accepted answer), a named slip, or what is off.

The verdict (right or wrong, the slip's id) has no language; what the learner is told is a
``Message`` of ``Text`` and ``Plural`` pieces, with every number formatted here, that the UI
translates (``attention_ui.i18n.texts.tr``).
"""

from __future__ import annotations

import numpy as np

from attention_core.errors import InputError
from attention_core.exercises.answers import looks_like_percentages, parse_answer, typed_decimals
from attention_core.exercises.model import ChoiceStep, Feedback, NumericStep, Variant
from attention_core.exercises.text import (
    answer_format,
    format_value,
    shape_text,
    tolerance_text,
)
from attention_core.i18n import Message, Plural, Text
from attention_core.types import FloatArray

ASK_FOR_A_HINT = Text("Ask for a hint if you are stuck.")
ONLY_0_AND_1 = Text("Use only 1 (may attend) and 0 (blocked).")


def check_answer(step: NumericStep, text: str) -> Feedback:
    """Check what the learner typed for ``step``. Never raises on bad input.

    Order: unreadable -> accepted answers (the nearest one wins, so the learner is told
    which one they used) -> known mistakes -> the right numbers in another order ->
    wrong shape -> which numbers are off.
    """
    if not (text or "").strip():
        return Feedback(
            False, (Text("Type your answer first: {format}.", format=answer_format(step)),)
        )
    try:
        answer, used_percent, note = _read(step, text)
    except InputError as exc:
        mistake = "percent_mixed" if exc.where == "percent" else None
        problem = _PROBLEMS.get(exc.where) or exc.text  # the parser's own words, a Text
        said = Text("Could not read that answer: {problem}.", problem=problem)
        return Feedback(False, (said,), mistake=mistake)
    hit = _closest(answer, step.accepted, step.tolerance)
    if hit is not None:
        fb = _right(step, answer, hit)
        return Feedback(True, fb.said + note, variant=fb.variant)
    return _wrong(step, text, answer, as_percent=used_percent or bool(note))


# The answer parser's own problems (attention_core.exercises.answers), by its ``where``.
_PROBLEMS: dict[str, Text] = {
    "answer": Text("this step asks for plain numbers: leave out the % signs"),
    "percent": Text("put a % sign after every number or after none of them"),
}


def read_answer(step: NumericStep, text: str) -> FloatArray:
    """The numbers ``check_answer`` reads from ``text`` (percentages as fractions), shape
    (rows, cols); raises InputError where it says "Could not read"."""
    return _read(step, text)[0]


def _read(step: NumericStep, text: str) -> tuple[FloatArray, bool, Message]:
    """(the numbers, whether a % sign was typed, a note for the verdict)."""
    answer, used_percent = parse_answer(text, allow_percent=step.percent)
    if step.percent and not used_percent and looks_like_percentages(answer):
        note = Text("(Read as percentages; a % sign makes that explicit.)")
        return answer / 100.0, False, (note,)
    return answer, used_percent, ()


def _wrong(step: NumericStep, text: str, answer: FloatArray, as_percent: bool) -> Feedback:
    """Name the slip behind a wrong answer, or say which numbers are off."""
    for m in step.mistakes:  # a wrong path followed exactly
        if close(answer, m.value, step.tolerance):
            return Feedback(False, (m.said,), mistake=m.key)
    typed = typed_decimals(text)
    if typed is not None and as_percent:
        typed += 2  # 80.4 % has one decimal as a percentage, three as a fraction
    if _rounded_too_coarsely(step, answer, typed):
        asked, given = step.decimals or 0, typed or 0
        if as_percent:
            asked, given = asked - 2, given - 2
            coarse = Plural(
                "On the right track, but rounded too coarsely: this step asks for {n} "
                "decimal in a percentage and your answer has {given}.",
                "On the right track, but rounded too coarsely: this step asks for {n} "
                "decimals in a percentage and your answer has {given}.",
                asked, given=str(given),
            )  # fmt: skip
        else:
            coarse = Plural(
                "On the right track, but rounded too coarsely: this step asks for {n} "
                "decimal and your answer has {given}.",
                "On the right track, but rounded too coarsely: this step asks for {n} "
                "decimals and your answer has {given}.",
                asked, given=str(given),
            )  # fmt: skip
        return Feedback(False, (coarse,), mistake="too_few_decimals")
    slip_tol = _mistake_tolerance(step, typed)
    for m in step.mistakes:  # a wrong path, rounded more coarsely than asked
        if close(answer, m.value, slip_tol):
            return Feedback(False, (m.said,), mistake=m.key)
    order = _order_slip(step, answer, slip_tol)
    if order:
        return Feedback(False, order, mistake="swapped_order")
    if answer.shape != step.expected.shape:
        said = Text(
            "Your answer is {given}, but this step needs {needed} ({layout}).",
            given=shape_text(answer.shape), needed=shape_text(step.shape), layout=step.layout,
        )  # fmt: skip
        return Feedback(False, (said,))
    return Feedback(False, _wrong_values_message(step, answer))


def check_choice(step: ChoiceStep, index: int | None) -> Feedback:
    """Check a multiple-choice answer (``index`` into ``step.choices``; None = nothing picked)."""
    if index is None or not 0 <= index < len(step.choices):
        return Feedback(False, (Text("Pick one of the answers first."),))
    choice = step.choices[index]
    if choice.correct:
        return Feedback(True, (Text("Right."), choice.explanation))
    return Feedback(False, (Text("Not this one."), choice.explanation), mistake=choice.mistake)


def close(a: FloatArray, b: FloatArray, tol: float) -> bool:
    """Same shape and every entry within ``tol`` (plus a hair for float noise)."""
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol + 1e-12))


def _closest(answer: FloatArray, accepted: tuple[Variant, ...], tol: float) -> Variant | None:
    """The accepted answer nearest to ``answer`` among those within ``tol``, if any."""
    fits = [v for v in accepted if close(answer, v.value, tol)]
    if not fits:
        return None
    return min(fits, key=lambda v: float(np.max(np.abs(answer - v.value))))


def _rounded_too_coarsely(step: NumericStep, answer: FloatArray, typed: int | None) -> bool:
    """The right numbers, correctly rounded, but to fewer decimals than the step asks for."""
    if step.decimals is None or typed is None or typed >= step.decimals:
        return False
    return close(answer, np.round(step.expected, typed), 1e-9)


def _mistake_tolerance(step: NumericStep, typed: int | None) -> float:
    """How close an answer must be to a known wrong path to name it.

    A learner who rounds a wrong path to fewer decimals than asked (0.714 for 1/1.4) is
    still on that path, so allow for the learner's own rounding, up to 10x the step's.
    """
    own = 0.6 * 10.0**-typed if typed is not None else 0.0
    return max(step.tolerance, min(own, 10 * step.tolerance))


# ---- the right numbers in the wrong order --------------------------------------------
def _order_slip(step: NumericStep, answer: FloatArray, tol: float) -> Message | None:
    """A message when ``answer`` holds an accepted answer's numbers in another order."""
    for variant in step.accepted:
        target = variant.value  # (rows, cols), the same layout the answer should have
        if answer.shape != target.shape:
            continue
        where = _rows_reordered(answer, target, tol) or _within_rows(answer, target, tol)
        if where:
            return (
                Text("The right numbers in the wrong order: {where}.", where=where),
                Text(
                    "The layout is {layout}, in the order the exercise gives them.",
                    layout=step.layout,
                ),
            )
    return None


def _rows_reordered(answer: FloatArray, target: FloatArray, tol: float) -> Text | None:
    """'rows 1 and 2 are swapped' when whole rows of ``target`` came in another order."""
    n = answer.shape[0]
    used: list[int] = []
    for i in range(n):
        j = next((j for j in range(n) if j not in used and close(answer[i], target[j], tol)), None)
        if j is None:
            return None
        used.append(j)
    moved = [i + 1 for i, j in enumerate(used) if i != j]
    if not moved:
        return None
    if len(moved) == 2:
        return Text("rows {a} and {b} are swapped", a=str(moved[0]), b=str(moved[1]))
    return Text("the rows are in a different order")


def _within_rows(answer: FloatArray, target: FloatArray, tol: float) -> Text | None:
    """Describe the first row holding its right numbers in another order; None unless every
    row that is off is such a row."""
    off = [i for i in range(answer.shape[0]) if not close(answer[i], target[i], tol)]
    if not off or not all(_same_numbers(answer[i], target[i], tol) for i in off):
        return None
    i = off[0]
    wrong_cols = [c + 1 for c in np.flatnonzero(np.abs(answer[i] - target[i]) > tol + 1e-12)]
    if answer.shape[1] == 2:
        what = Text("the two numbers are swapped")
    elif close(answer[i][::-1], target[i], tol):
        what = Text("the numbers are in reverse order")
    elif len(wrong_cols) == 2:
        what = Text("columns {a} and {b} are swapped", a=str(wrong_cols[0]), b=str(wrong_cols[1]))
    else:
        what = Text("the numbers are in a different order")
    where = Text("in row {row}, {what}", row=str(i + 1), what=what) if answer.shape[0] > 1 else what
    if len(off) == 1:
        return where
    others = [str(r + 1) for r in off[1:]]
    if len(others) == 1:
        return Text("{where} (row {row} also out of order)", where=where, row=others[0])
    return Text(
        "{where} (rows {rows} and {last} also out of order)",
        where=where, rows=", ".join(others[:-1]), last=others[-1],
    )  # fmt: skip


def _same_numbers(a: FloatArray, b: FloatArray, tol: float) -> bool:
    """The same numbers up to order: sorting pairs each number with its nearest match."""
    return close(np.sort(a), np.sort(b), tol)


# ---- feedback text --------------------------------------------------------------------
def _right(step: NumericStep, answer: FloatArray, hit: Variant) -> Feedback:
    if len(step.accepted) > 1 and hit.label:
        said: Message = (Text("Correct: you used {answer}.", answer=hit.label),)
    else:
        said = (Text("Correct."),)
    if step.decimals is not None and hit.label == step.accepted[0].label:
        rounded = np.round(hit.value, step.decimals)
        if not np.allclose(np.round(answer, step.decimals), rounded, atol=1e-12, rtol=0):
            said += (
                Text(
                    "Accepted within the rounding; at full precision this rounds to {value}.",
                    value=format_value(hit.value, step.decimals),
                ),
            )
    return Feedback(True, said, variant=hit.name)


def _wrong_values_message(step: NumericStep, answer: FloatArray) -> Message:
    if answer.size == 1:
        return _wrong_number_message(step, float(answer[0, 0]))
    off = np.abs(answer - step.expected) > step.tolerance + 1e-12
    n_off, n = int(off.sum()), off.size
    if step.decimals is None:
        said: Message = (
            Plural(
                "Not yet: {n} of {total} is wrong.", "Not yet: {n} of {total} are wrong.",
                n_off, total=Plural("{n} number", "{n} numbers", n),
            ),
        )  # fmt: skip
    else:
        said = (
            Plural(
                "Not yet: {n} of {total} is off by more than {within}.",
                "Not yet: {n} of {total} are off by more than {within}.",
                n_off, total=Plural("{n} number", "{n} numbers", n), within=tolerance_text(step),
            ),
        )  # fmt: skip
    r, c = (str(int(i) + 1) for i in np.argwhere(off)[0])
    said += (Text("The first one off is row {row}, column {column}.", row=r, column=c),)
    if step.kind == "weights" and answer.shape[1] > 1:  # a whole row: it must sum to 1
        sums = answer.sum(axis=1)
        bad = np.flatnonzero(np.abs(sums - 1.0) > max(step.tolerance * answer.shape[1], 1e-3))
        if bad.size:
            i = int(bad[0])
            said += (
                Text(
                    "Weights in a row must add up to 1, but row {row} adds up to {total}.",
                    row=str(i + 1), total=f"{sums[i]:.4g}",
                ),
            )  # fmt: skip
    if step.kind == "mask" and not np.all(np.isin(answer, (0.0, 1.0))):
        said += (ONLY_0_AND_1,)
    return (*said, ASK_FOR_A_HINT)


def _wrong_number_message(step: NumericStep, x: float) -> Message:
    """The verdict on one number (a cell a class was asked): about that number, never about
    rows, columns or how many of several are off."""
    if step.decimals is None:
        said: Message = (Text("Not yet: that number is not the one asked for."),)
    else:
        said = (
            Text("Not yet: that number is off by more than {within}.", within=tolerance_text(step)),
        )
    if step.kind == "weights" and not 0.0 <= x <= 1.0:
        said += (Text("An attention weight is always between 0 and 1."),)
    if step.kind == "mask" and x not in (0.0, 1.0):
        said += (ONLY_0_AND_1,)
    return (*said, ASK_FOR_A_HINT)
