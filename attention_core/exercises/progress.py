"""A learner's progress: one typed record per step, and its export as CSV (the JSON document,
which is loaded back, is ``saved``'s)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from attention_core.csv_rows import csv_text
from attention_core.exercises.model import MISTAKE_LABELS, Exercise, Feedback
from attention_core.i18n import Message, Piece, Text, english

Say = Callable[[Piece], str]  # a text in the reader's language (english: no catalogue)


class Status(StrEnum):
    """Where a step stands. The values are what the progress files say."""

    RIGHT = "right"
    WRONG = "wrong"
    NOT_TRIED = "not tried"


@dataclass
class StepRecord:
    """One step's latest checked answer and its verdict (the latest check decides)."""

    status: Status = Status.NOT_TRIED
    answer: str = ""
    attempts: int = 0
    mistake: str | None = None  # a MISTAKE_LABELS key, or a Choice's mistake name
    variant: str | None = None  # which accepted answer matched
    said: Message = ()  # what the learner was told (translated where it is shown again)
    solution_shown: bool = False

    @property
    def right(self) -> bool:
        return self.status is Status.RIGHT

    @property
    def message(self) -> str:
        """What the learner was told, in English."""
        return english(self.said)

    def feedback(self) -> Feedback | None:
        """The verdict to show again, or None before the first check."""
        if not self.said:
            return None
        return Feedback(self.right, self.said, self.mistake, self.variant)


Progress = dict[str, dict[str, StepRecord]]  # exercise id -> step id -> record


def get_record(progress: Progress, exercise_id: str, step_id: str) -> StepRecord:
    """The record for one step, created when missing."""
    return progress.setdefault(exercise_id, {}).setdefault(step_id, StepRecord())


def find_record(progress: Progress, exercise_id: str, step_id: str) -> StepRecord:
    """The record for one step, or a fresh one (not stored) when it was never touched."""
    return progress.get(exercise_id, {}).get(step_id) or StepRecord()


def record_attempt(
    progress: Progress, exercise_id: str, step_id: str, answer: str, feedback: Feedback
) -> StepRecord:
    """Store a checked answer and its verdict."""
    rec = get_record(progress, exercise_id, step_id)
    rec.status = Status.RIGHT if feedback.correct else Status.WRONG
    rec.answer = answer
    rec.attempts += 1
    rec.mistake = feedback.mistake
    rec.variant = feedback.variant
    rec.said = feedback.said
    return rec


def count_right(progress: Progress, exercise: Exercise) -> int:
    return sum(find_record(progress, exercise.id, s.id).right for s in exercise.steps)


def progress_rows(
    exercises: tuple[Exercise, ...], progress: Progress, say: Say = english
) -> list[dict[str, Any]]:
    """One flat row per step (every step, tried or not), for tables and downloads. Titles
    and slips are in ``say``'s language; ids, statuses and answers have none."""
    rows = []
    for ex in exercises:
        for step in ex.steps:
            rec = find_record(progress, ex.id, step.id)
            rows.append(
                {
                    "exercise": ex.id,
                    "exercise_title": say(ex.title),
                    "step": step.id,
                    "step_title": say(step.title),
                    "status": rec.status.value,
                    "attempts": rec.attempts,
                    "mistake": say(Text(MISTAKE_LABELS.get(rec.mistake, rec.mistake)))
                    if rec.mistake
                    else "",
                    "answer": rec.answer,
                    "solution_shown": rec.solution_shown,
                }
            )
    return rows


def progress_csv(exercises: tuple[Exercise, ...], progress: Progress, say: Say = english) -> str:
    """The progress as CSV, one row per step. Typed answers are defused for spreadsheets."""
    rows = progress_rows(exercises, progress, say)
    header = list(rows[0])
    return csv_text([header] + [[_csv_safe(r[k]) if k == "answer" else r[k] for k in header]
                                for r in rows])  # fmt: skip


def _csv_safe(text: str) -> str:
    """Stop a spreadsheet from reading a typed answer as a formula ('=', '+', '@' ...)."""
    if text and (text[0] in "=+@\t\r" or (text[0] == "-" and not re.match(r"-\s*[\d.]", text))):
        return "'" + text
    return text
