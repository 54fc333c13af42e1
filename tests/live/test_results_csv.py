"""The class's results CSV (attention_ui/live/questions.csv_text), read back by the csv
module: every field whole, whatever it holds, and a multiple choice's answer as the option
the phones showed, its letter and its text."""

from __future__ import annotations

import csv
import io

from attention_core.exercises import exercise_by_id
from attention_ui.classroom.questions import EXERCISE, Question, Tally, csv_text

HEADER = ["question", "value", "verdict", "slip", "seconds after asking"]


def _question(exercise: str, step_id: str) -> Question:
    return Question("q1", EXERCISE, 0, 0, "reveal", False, 0.0, exercise=exercise,
                    step_id=step_id)  # fmt: skip


def _read(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")  # the byte order mark: a spreadsheet reads UTF-8
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))


def test_a_multiple_choice_answer_is_its_letter_and_text_not_its_number() -> None:
    choices = exercise_by_id("why_scale").step("choice").choices
    rows = [{"v": 2.0, "ok": True, "slip": None, "t": 4.5},
            {"v": 1.0, "ok": False, "slip": "thinks softmax ignores scale", "t": 7.25},
            {"v": 3.0, "ok": False, "slip": "other", "t": 9.0}]  # fmt: skip
    tally = Tally(3, 1, {}, rows)
    table = _read(csv_text(_question("why_scale", "choice"), tally, "Why scale?"))
    assert table[0] == HEADER
    assert [r[1] for r in table[1:]] == [f"B. {choices[1].text}", f"A. {choices[0].text}",
                                         f"C. {choices[2].text}"]  # fmt: skip
    assert [r[2:] for r in table[1:]] == [["right", "", "4.5"],
                                          ["wrong", "thinks softmax ignores scale", "7.25"],
                                          ["wrong", "other", "9.0"]]  # fmt: skip


def test_fields_holding_commas_quotes_and_line_breaks_stay_whole() -> None:
    title = 'Softmax, "row 1"\r\nof the room'
    rows = [{"v": [[0.844, 0.114], [0.5, 0.5]], "ok": False, "slip": "odd\rslip", "t": 1.0},
            {"v": 0.25, "ok": True, "slip": None, "t": 2.0}]  # fmt: skip
    text = csv_text(Question("q2", "weights", 0, 1, "reveal", False, 0.0), Tally(2, 1, {}, rows),
                    title)  # fmt: skip
    assert _read(text) == [
        HEADER,
        [title, "0.844, 0.114; 0.5, 0.5", "wrong", "odd\rslip", "1.0"],
        [title, "0.25", "right", "", "2.0"],
    ]
