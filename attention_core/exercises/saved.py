"""A learner's work as a document that is kept and loaded back: ids and numbers only.

One format for the two places it goes: the record the app keeps for a browser
(``attention_ui.practice.kept``) and the JSON file the learner downloads and may load back.
It holds exercise ids, step ids, what was typed (a choice as its letter), attempts, hints
shown and whether the solution was shown: nothing in the learner's language, so a progress
saved in French loads in German. Its verdicts are not trusted: loading checks every answer
again with the core's checker, so a file cannot claim a step right that it did not answer.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from attention_core.errors import InputError
from attention_core.exercises.checker import check_answer, check_choice
from attention_core.exercises.model import ChoiceStep, Exercise, Step
from attention_core.exercises.progress import Progress, Status, StepRecord, count_right
from attention_core.i18n import N_, Plural

APP, KIND, VERSION = "Attention Lab", "exercise progress", 2
# A progress file of every exercise with long answers is about 10 kB; a file a hundred times
# that is not one (and is not parsed: json.loads of megabytes is slow on a class's server).
MAX_BYTES = 1_000_000
MAX_ANSWER = 2_000  # characters kept of one answer (a 4 x 4 matrix is under 200)

NOT_JSON = N_("It is not a progress file of this app: it is not JSON text.")
FOREIGN = N_("It is not a progress file of this app (it has no exercise progress in it).")
TOO_BIG = N_("It is larger than {limit} kB; a progress file is far smaller.")
NEWER = N_("It was saved by a newer version of this app (format {version}); this one reads "
           "formats 1 and 2.")  # fmt: skip


@dataclass
class Work:
    """What the Exercises page keeps: step records, hints shown, solutions open."""

    progress: Progress = field(default_factory=dict)
    hints: dict[str, int] = field(default_factory=dict)  # "exercise/step" -> hints shown
    solutions: list[str] = field(default_factory=list)  # exercise ids
    left_out: int = 0  # steps of a loaded file this version does not have, or unreadable

    def empty(self) -> bool:
        return not any(self.progress.values()) and not any(self.hints.values())


def progress_json(
    exercises: tuple[Exercise, ...], progress: Progress, hints: dict[str, int] | None = None
) -> str:
    """The document: a summary (numbers) and one entry per step (ids, the answer, numbers)."""
    work = Work(progress, hints or {})
    steps = []
    for ex in exercises:
        for step in ex.steps:
            rec = work.progress.get(ex.id, {}).get(step.id) or StepRecord()
            steps.append({
                "exercise": ex.id, "step": step.id, "status": rec.status.value,
                "attempts": rec.attempts, "mistake": rec.mistake or "", "answer": rec.answer,
                "solution_shown": rec.solution_shown,
                "hints": work.hints.get(f"{ex.id}/{step.id}", 0),
            })  # fmt: skip
    doc = {
        "app": APP,
        "kind": KIND,
        "version": VERSION,
        "summary": {
            "steps": len(steps),
            "right": sum(s["status"] == Status.RIGHT.value for s in steps),
            "exercises_complete": sum(
                count_right(work.progress, ex) == len(ex.steps) for ex in exercises
            ),
            "exercises": len(exercises),
        },
        "steps": steps,
    }
    return json.dumps(doc, indent=1, ensure_ascii=False)


def load_work(data: bytes | str, exercises: tuple[Exercise, ...]) -> Work:
    """The work in a progress document (this format, or version 1 downloads), every answer
    checked again. Raises InputError saying why a file is not one; an entry this version
    does not know (another exercise, a step renamed) is counted in ``left_out``."""
    if len(data) > MAX_BYTES:
        raise InputError(TOO_BIG, where="progress", limit=MAX_BYTES // 1000)
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise InputError(NOT_JSON, where="progress") from None
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise InputError(FOREIGN, where="progress")
    if not isinstance(doc.get("steps"), list):
        raise InputError(FOREIGN, where="progress")
    version = doc.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise InputError(NEWER, where="progress", version=str(version)[:10])
    steps = {(ex.id, s.id): s for ex in exercises for s in ex.steps}
    work = Work()
    for entry in doc["steps"]:
        if not (isinstance(entry, dict) and _restore_entry(work, entry, steps)):
            work.left_out += 1
    work.solutions = sorted({ex for ex, recs in work.progress.items()
                             if any(r.solution_shown for r in recs.values())})  # fmt: skip
    return work


def _restore_entry(work: Work, entry: dict, steps: dict[tuple[str, str], Step]) -> bool:
    """One step's entry into ``work``; False when it names no step of this version or a
    field is not what the format says."""
    ex_id, step_id = str(entry.get("exercise")), str(entry.get("step"))  # "None": no step
    step = steps.get((ex_id, step_id))
    answer, attempts = entry.get("answer", ""), entry.get("attempts", 0)
    hints, shown = entry.get("hints", 0), entry.get("solution_shown", False)
    if step is None or not isinstance(answer, str) or not isinstance(shown, bool):
        return False
    if not all(_count(n) for n in (attempts, hints)):
        return False
    if hints:
        work.hints[f"{ex_id}/{step_id}"] = min(int(hints), len(step.hints))
    tried = attempts > 0 and entry.get("status") != Status.NOT_TRIED.value
    if not (tried or shown):
        return True
    rec = work.progress.setdefault(ex_id, {}).setdefault(step_id, StepRecord())
    rec.solution_shown = shown
    if tried:
        rec.answer = answer[:MAX_ANSWER]
        if isinstance(step, ChoiceStep):
            fb = check_choice(step, choice_index(step, rec.answer))
        else:
            fb = check_answer(step, rec.answer)
        rec.status = Status.RIGHT if fb.correct else Status.WRONG
        rec.attempts, rec.mistake, rec.variant = int(attempts), fb.mistake, fb.variant
        rec.said = fb.said
    return True


def _count(n: object) -> bool:
    """A whole number of attempts or hints (JSON's 3.0 too), within reason."""
    if isinstance(n, bool) or not isinstance(n, int | float):
        return False
    return math.isfinite(n) and n == int(n) and 0 <= n <= 1_000_000


def choice_letter(index: int) -> str:
    """A choice as it is kept: its letter (the same in every language)."""
    return chr(ord("A") + index)


def choice_index(step: ChoiceStep, answer: str) -> int | None:
    """The choice an answer names: its letter, or a version 1 file's "B. <its text>"."""
    letter = answer[:1]
    if not letter.isascii() or not letter.isupper() or answer[1:2] not in ("", "."):
        return None
    index = ord(letter) - ord("A")
    return index if index < len(step.choices) else None


def left_out_note(n: int) -> Plural:
    """What a load says about entries it could not use."""
    return Plural(
        "{n} step in the file is not one of this version's exercise steps: it was left out.",
        "{n} steps in the file are not this version's exercise steps: they were left out.",
        n,
        n=n,
    )
