"""Ask the class: answers counted exactly once, tallied by named slip, on both real stores."""

from __future__ import annotations

import multiprocessing
import random

import numpy as np
import pytest

from attention_core import PRESETS
from attention_core.exercises.cell import cell_question
from attention_core.exercises.checker import check_answer
from attention_ui.live.questions import OTHER, Questions, Tally, csv_text
from attention_ui.live.rooms import Rooms
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
    lines = csv_text(q, tally, step.prompt).splitlines()
    assert lines[0] == "question,value,verdict,slip,seconds_after_asking"
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
