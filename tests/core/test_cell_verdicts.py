"""Every one-cell question a class can be asked gets verdicts about that cell: never "row 1
adds up to 0.5", "1 of 1 number" or "row 1, column 1" (issue: a phone answering 0.5 for the
weight it -> animal was told about a whole row). Checked over every cell of every stage of
every example, with a wrong number that matches no slip."""

from __future__ import annotations

import re

import pytest

from attention_core import PRESETS
from attention_core.exercises.cell import CELL_STAGES, cell_question
from attention_core.exercises.checker import check_answer

ABOUT_MANY = re.compile(r"\brows?\b|\bcolumns?\b|adds? up|of 1 number|numbers are", re.I)


def cells():
    for key, preset in PRESETS.items():
        scenario = preset.build()
        t = scenario.trace()
        for stage, (_, field) in CELL_STAGES.items():
            grid = getattr(t, field)
            cols = scenario.key_labels if stage != "output" else [
                f"v{c + 1}" for c in range(grid.shape[1])]  # fmt: skip
            for i in range(grid.shape[0]):
                for j in range(grid.shape[1]):
                    yield pytest.param(t, stage, i, j, scenario.query_labels[i], cols[j],
                                       id=f"{key}-{stage}-{i}-{j}")  # fmt: skip


def _far_from_everything(step) -> float:
    """A number of two decimals farther from the answer and from every slip than the checker
    looks for a slip (10x the step's tolerance), inside [0, 1] for a weight."""
    taken = [float(step.expected[0, 0])] + [float(m.value[0, 0]) for m in step.mistakes]
    gap = 10 * step.tolerance + 0.01
    for x in (0.01 * k for k in range(-2000, 2001)):
        if all(abs(x - y) > gap for y in taken) and (step.kind != "weights" or 0 <= x <= 1):
            return x
    raise AssertionError("no free number")  # pragma: no cover


@pytest.mark.parametrize(("t", "stage", "i", "j", "query", "key"), list(cells()))
def test_a_wrong_number_for_one_cell_is_told_about_that_number(t, stage, i, j, query, key):
    step = cell_question(t, stage, i, j, query, key)
    fb = check_answer(step, f"{_far_from_everything(step):.2f}")
    assert not fb.correct and fb.mistake is None
    assert fb.message.startswith("Not yet: that number"), fb.message
    assert not ABOUT_MANY.search(fb.message), fb.message
    for m in step.mistakes:  # each named slip that a cell can show says something of it
        assert m.message and "1 of 1" not in m.message


def test_half_for_it_to_animal_is_off_not_a_row_that_adds_up_to_half() -> None:
    """The issue's case: hungry's weight it -> animal is 0.844 (softmax of 3, 1, 0)."""
    t = PRESETS["hungry"].build().trace()
    step = cell_question(t, "weights", 0, 0, "it", "animal")
    assert step.expected[0, 0] == pytest.approx(0.8438, abs=5e-5)  # e^3 / (e^3 + e + 1)
    fb = check_answer(step, "0.5")
    assert fb.message == ("Not yet: that number is off by more than ±0.01. Ask for a hint "
                          "if you are stuck.")  # fmt: skip
    fb = check_answer(step, "1.5")
    assert "An attention weight is always between 0 and 1." in fb.message


def test_a_whole_row_of_weights_still_hears_that_it_must_add_up_to_one() -> None:
    from attention_core.exercises import exercise_by_id

    step = exercise_by_id("hungry").step("weights")  # the post's row: 0.844, 0.114, 0.042
    fb = check_answer(step, "0.5, 0.3, 0.1")
    assert "row 1 adds up to 0.9" in fb.message
