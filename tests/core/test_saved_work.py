"""A learner's work as the document that is kept and loaded back (issue 41, defect 4): ids and
numbers only, every answer checked again on loading, and a bad or foreign file refused with
a reason. The answers are the test's own: the paper guide's toy worked by hand (Q Kᵀ = [1, 2],
divided by √2, softmax, times V = [10, 20] gives 16.698)."""

from __future__ import annotations

import json

import pytest

from attention_core import PRESETS, InputError
from attention_core.exercises import (
    ChoiceStep,
    Progress,
    all_exercises,
    check_answer,
    check_choice,
    choice_letter,
    exercise_by_id,
    load_work,
    progress_json,
    record_attempt,
)
from attention_core.exercises.saved import MAX_BYTES
from attention_core.i18n import english

EXERCISES = all_exercises()
HAND = {"scores": "1, 2", "scaled": "0.7071, 1.4142", "weights": "0.3302, 0.6698"}


def worked() -> tuple[Progress, dict[str, int]]:
    """Three steps of the toy right, its output once wrong, the choice question right."""
    progress: Progress = {}
    toy = exercise_by_id("paper_toy")
    for step_id, text in [("scaled", "1, 2"), *HAND.items(), ("output", "15")]:
        record_attempt(progress, "paper_toy", step_id, text, check_answer(toy.step(step_id), text))
    choice = exercise_by_id("why_scale").steps[0]
    assert isinstance(choice, ChoiceStep)
    letter = choice_letter(1)  # B: the gradients answer (the test's reading of the lesson)
    record_attempt(progress, "why_scale", "choice", letter, check_choice(choice, 1))
    return progress, {"paper_toy/weights": 2}


def test_the_document_holds_ids_answers_and_numbers_and_no_words() -> None:
    progress, hints = worked()
    doc = json.loads(progress_json(EXERCISES, progress, hints))
    assert doc["kind"] == "exercise progress" and doc["version"] == 2
    assert doc["summary"]["right"] == 4
    rows = {(r["exercise"], r["step"]): r for r in doc["steps"]}
    assert rows[("paper_toy", "scaled")] == {
        "exercise": "paper_toy", "step": "scaled", "status": "right", "attempts": 2,
        "mistake": "", "answer": "0.7071, 1.4142", "solution_shown": False, "hints": 0,
    }  # fmt: skip
    assert rows[("paper_toy", "output")]["status"] == "wrong"
    assert rows[("why_scale", "choice")]["answer"] == "B"  # a letter, not the option's text
    assert rows[("paper_toy", "weights")]["hints"] == 2
    assert rows[("paper_toy", "scaled")]["attempts"] == 2  # once "1, 2": forgot to scale
    text = json.dumps(doc, ensure_ascii=False)
    assert all(english(ex.title) not in text for ex in EXERCISES)  # English is a language too
    assert "forgot to scale" not in text and english(choice_option()) not in text


def choice_option():
    choice = exercise_by_id("why_scale").steps[0]
    assert isinstance(choice, ChoiceStep)
    return choice.option(1)


def test_the_document_loads_back_as_it_was() -> None:
    progress, hints = worked()
    work = load_work(progress_json(EXERCISES, progress, hints), EXERCISES)
    assert work.left_out == 0 and work.hints == hints
    for ex_id, records in progress.items():
        for step_id, rec in records.items():
            back = work.progress[ex_id][step_id]
            assert (back.status, back.answer, back.attempts, back.mistake) == (
                rec.status,
                rec.answer,
                rec.attempts,
                rec.mistake,
            )
            assert back.said == rec.said  # the verdict, said again in any language


def test_a_file_cannot_claim_a_step_right_it_did_not_answer() -> None:
    progress, hints = worked()
    doc = json.loads(progress_json(EXERCISES, progress, hints))
    output = next(r for r in doc["steps"] if r["step"] == "output")
    output["status"] = "right"  # its answer, 15, is not 16.698
    work = load_work(json.dumps(doc), EXERCISES)
    assert not work.progress["paper_toy"]["output"].right


def test_a_version_1_download_loads_too() -> None:
    """The files downloaded before this change: titles beside the ids, a choice as its text."""
    choice = exercise_by_id("why_scale").steps[0]
    assert isinstance(choice, ChoiceStep)
    steps = [
        {"exercise": "paper_toy", "exercise_title": "Le jouet", "step": "scores",
         "step_title": "Q Kᵀ", "status": "right", "attempts": 1, "mistake": "", "answer": "1, 2",
         "solution_shown": False},
        {"exercise": "why_scale", "exercise_title": "Pourquoi", "step": "choice",
         "step_title": "Pourquoi", "status": "right", "attempts": 1, "mistake": "",
         "answer": "B. Les gradients du softmax…", "solution_shown": True},
    ]  # fmt: skip
    doc = {"app": "Attention Lab", "kind": "exercise progress", "version": 1, "steps": steps}
    work = load_work(json.dumps(doc, ensure_ascii=False), EXERCISES)
    assert work.progress["paper_toy"]["scores"].right
    assert work.progress["why_scale"]["choice"].right == choice.choices[1].correct
    assert work.solutions == ["why_scale"]


def test_steps_this_version_does_not_have_are_counted_and_left_out() -> None:
    progress, hints = worked()
    doc = json.loads(progress_json(EXERCISES, progress, hints))
    doc["steps"] += [
        {"exercise": "gone", "step": "scores", "status": "right", "attempts": 1, "answer": "1"},
        {"exercise": "paper_toy", "step": "renamed", "status": "right", "attempts": 1},
        {"exercise": "paper_toy", "step": "scores", "attempts": "many", "status": "right"},
        {"exercise": "paper_toy", "step": "scores", "attempts": 1, "answer": 12},
        "not an entry",
    ]
    work = load_work(json.dumps(doc), EXERCISES)
    assert work.left_out == 5
    assert work.progress["paper_toy"]["scores"].right  # the good entry is kept


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\x89PNG\r\n\x1a\n", "it is not JSON text"),
        (b"{'kind': 1", "it is not JSON text"),
        (PRESETS["hungry"].build().to_json().encode(), "no exercise progress in it"),
        (b"[1, 2, 3]", "no exercise progress in it"),
        (b'{"kind": "exercise progress", "steps": {}}', "no exercise progress in it"),
        (b'{"kind": "exercise progress", "version": 9, "steps": []}', "format 9"),
        (b" " * (MAX_BYTES + 1), "larger than 1000 kB"),
    ],
)
def test_a_bad_or_foreign_file_is_refused_with_its_reason(data: bytes, why: str) -> None:
    with pytest.raises(InputError) as raised:
        load_work(data, EXERCISES)
    assert why in raised.value.message
