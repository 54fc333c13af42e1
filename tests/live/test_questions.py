"""Ask the class: answers counted exactly once, tallied by named slip, on both real stores."""

from __future__ import annotations

import multiprocessing
import random

import numpy as np
import pytest

from attention_core import PRESETS
from attention_core.exercises.cell import cell_question
from attention_core.exercises.checker import check_answer
from attention_ui.classroom.questions import OTHER, Questions, Tally, csv_text
from attention_ui.classroom.rooms import Rooms
from attention_ui.storage.store import open_store

CAT = PRESETS["cat_mat"].build()


def _url(backend) -> str:
    name, _, handle = backend
    return f"sqlite://{handle}" if name == "sqlite" else handle.url


def _room(url: str):
    rooms = Rooms(open_store(url))
    room, secret = rooms.open("present", 4, CAT.to_url())
    return rooms, room.code, secret


def _weight_question():
    t = CAT.trace()
    return cell_question(t, "weights", 2, 1, CAT.query_labels[2], CAT.key_labels[1])


def test_the_cell_question_names_the_slips_the_issue_counts() -> None:
    step = _weight_question()
    keys = {m.key for m in step.mistakes}
    # unscaled, column-wise and rows swapped are told apart at this cell (sat -> cat)
    assert {"softmax_unscaled", "softmax_columns", "transposed"} <= keys
    # worked out independently: softmax of row "sat" of Q Kᵀ / √3 at key "cat"
    t = CAT.trace()
    row = t.scores[2] / np.sqrt(3)
    assert step.expected[0, 0] == pytest.approx(np.exp(row[1]) / np.exp(row).sum(), rel=1e-12)
    assert check_answer(step, f"{step.expected[0, 0]:.2f}").correct


def _send_class(url: str, code: str, plan: list[tuple[str, float]], offset: int, out) -> None:
    """One process's students: each sends its value (as its phone checks it) once, some twice."""
    q = Questions(Rooms(open_store(url)))
    step = _weight_question()
    statuses = []
    for n, (_, value) in enumerate(plan):
        fb = check_answer(step, f"{value:.2f}")
        statuses.append(q.answer(code, f"seat-{offset + n}", value, fb.correct, fb.mistake))
        if n % 7 == 0:  # a second answer from the same student is not counted
            statuses.append(q.answer(code, f"seat-{offset + n}", 0.0, False, None))
    out.put(statuses)


def test_a_mixed_class_through_two_processes_is_tallied_exactly(backend) -> None:
    """120 answers from two processes: 40 right, 30 unscaled, 20 column-wise, 15 rows
    swapped and 15 other. Each counted once, each slip named."""
    url = _url(backend)
    rooms, code, secret = _room(url)
    q = Questions(rooms).ask(code, secret, "weights", 2, 1, "reveal", False)
    step = _weight_question()
    value = {m.key: float(m.value[0, 0]) for m in step.mistakes}
    rng = random.Random(0)
    plan = ([("right", step.expected[0, 0])] * 40 + [("unscaled", value["softmax_unscaled"])] * 30
            + [("columns", value["softmax_columns"])] * 20 + [("swapped", value["transposed"])] * 15
            + [("other", rng.choice([0.05, 0.9, 0.25]))] * 15)  # fmt: skip
    rng.shuffle(plan)
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    halves = [plan[:60], plan[60:]]
    procs = [ctx.Process(target=_send_class, args=(url, code, half, 60 * k, out))
             for k, half in enumerate(halves)]  # fmt: skip
    for p in procs:
        p.start()
    statuses = out.get(timeout=120) + out.get(timeout=120)
    for p in procs:
        p.join(timeout=60)
    assert statuses.count("counted") == 120
    assert statuses.count("already") == len(statuses) - 120
    tally = Questions(rooms).tally(code, q.id)
    assert (tally.answered, tally.right) == (120, 40)
    assert tally.slips == {"softmax_unscaled": 30, "softmax_columns": 20, "transposed": 15,
                           OTHER: 15}  # fmt: skip
    assert dict(tally.bars())["right"] == 40
    assert dict(tally.bars())["used the unscaled scores in softmax"] == 30
    lines = csv_text(q, tally, step.prompt).removeprefix("\ufeff").splitlines()
    assert lines[0] == "question,value,verdict,slip,seconds after asking"
    assert len(lines) == 121 and all("seat-" not in line for line in lines)  # no identity


def test_answers_after_the_reveal_or_the_close_are_refused(backend) -> None:
    rooms, code, secret = _room(_url(backend))
    questions = Questions(rooms)
    q = questions.ask(code, secret, "scores", 0, 1, "at_once", True)
    assert questions.answer(code, "a", 3.15, True, None) == "counted"
    q = questions.update(code, secret, q, revealed=True)
    assert questions.answer(code, "b", 3.15, True, None) == "closed"
    questions.update(code, secret, q, open=False)
    assert questions.answer(code, "c", 3.15, True, None) == "closed"
    assert questions.tally(code, q.id) == Tally(1, 1, {}, questions.tally(code, q.id).rows)


# ---- a lesson's exercise, asked as it is ----------------------------------------------
# The post's hand-worked numbers ("...because it was hungry"): raw scores 6, 2, 0 (scaled by
# √4 = 2: 3, 1, 0), weights 0.844 / 0.114 / 0.042. Forgetting the scale gives the softmax of
# 6, 2, 0: e⁶ / (e⁶ + e² + 1) = 403.43 / 411.82 = 0.980, then 0.018 and 0.002.
HUNGRY = [
    ("0.844, 0.114, 0.042", True, None),
    ("0.980, 0.018, 0.002", False, "softmax_unscaled"),
    ("0.844; 0.114; 0.042", False, "transposed"),  # one column: rows and columns swapped
    ("0.84, 0.11, 0.04", False, "too_few_decimals"),
    ("0.5, 0.3, 0.2", False, None),
]


def test_an_exercise_step_is_tallied_by_slip_and_its_matrices_reach_the_csv(backend) -> None:
    """Five students, one per line of HUNGRY, answer the post's weights step through two
    connections to the store; a sixth answers twice (the first counts)."""
    import csv
    import io

    from attention_core.exercises import exercise_by_id
    from attention_core.exercises.checker import read_answer
    from attention_ui.classroom.questions import (
        EXERCISE,
        answer_text,
        question_step,
        question_title,
    )

    url = _url(backend)
    rooms, code, secret = _room(url)  # the room shows cat_mat: the exercise has its own numbers
    q = Questions(rooms).ask(code, secret, EXERCISE, 0, 0, "reveal", False, exercise="hungry",
                             step_id="weights")  # fmt: skip
    step = question_step(q, rooms.get(code).scenario)
    assert step is exercise_by_id("hungry").step("weights")
    assert answer_text(step) == "0.844, 0.114, 0.042"
    phones = [Questions(Rooms(open_store(url))) for _ in range(2)]  # two connections
    for n, (typed, right, slip) in enumerate(HUNGRY):
        fb = check_answer(step, typed)
        assert (fb.correct, fb.mistake) == (right, slip), typed
        value = read_answer(step, typed).tolist()
        assert phones[n % 2].answer(code, f"seat-{n}", value, fb.correct, fb.mistake) == "counted"
    again = phones[0].answer(code, "seat-0", [[0.5, 0.3, 0.2]], False, None)
    assert again == "already"
    tally = Questions(rooms).tally(code, q.id)
    assert (tally.answered, tally.right) == (5, 1)
    assert tally.slips == {"softmax_unscaled": 1, "transposed": 1, "too_few_decimals": 1,
                           OTHER: 1}  # fmt: skip
    title = question_title(q, step)
    assert title.startswith("“…because it was hungry”") and title.endswith(": weights")
    rows = list(csv.reader(io.StringIO(csv_text(q, tally, title).removeprefix("\ufeff"))))
    assert rows[0] == ["question", "value", "verdict", "slip", "seconds after asking"]
    values = sorted(r[1] for r in rows[1:])
    assert values == ["0.5, 0.3, 0.2", "0.84, 0.11, 0.04", "0.844, 0.114, 0.042",
                      "0.844; 0.114; 0.042", "0.98, 0.018, 0.002"]  # fmt: skip
    assert {r[3] for r in rows[1:]} == {
        "",
        "used the unscaled scores in softmax",
        "other",
        "transposed the product",
        "rounded to too few decimals",
    }


def test_percentages_are_read_as_the_exercises_read_them() -> None:
    """Lesson 88's quiz: 80.4 % and 19.6 % (the lesson's answer) are right, as fractions."""
    from attention_core.exercises import exercise_by_id
    from attention_core.exercises.checker import read_answer

    step = exercise_by_id("quiz88").step("weights")
    assert check_answer(step, "80.4 %, 19.6 %").correct
    assert read_answer(step, "80.4 %, 19.6 %").tolist() == [[0.804, 0.196]]
    assert read_answer(step, "80.4, 19.6").tolist() == [[0.804, 0.196]]  # no sign: read so too


def test_a_question_names_a_real_stage_or_exercise_step(tmp_path) -> None:
    rooms, code, secret = _room(f"sqlite://{tmp_path / 'live.db'}")
    with pytest.raises(ValueError, match="stage"):
        Questions(rooms).ask(code, secret, "nonsense", 0, 0, "reveal", False)
    with pytest.raises(IndexError, match="no-such-step"):
        Questions(rooms).ask(code, secret, "exercise", 0, 0, "reveal", False,
                             exercise="hungry", step_id="no-such-step")  # fmt: skip
