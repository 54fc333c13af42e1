"""Ask the class: one question at a time in a room, each student's answer counted once.

A question is either one cell of the scenario the room shows (``stage`` a key of
``CELL_STAGES``, cell ``i, j``), or a step of one of the lessons' exercises, asked as the
Exercises page asks it, on the exercise's own numbers (``stage == EXERCISE``). Either way
``question_step`` rebuilds the same checker step on every phone.

No Streamlit here. The question rides in the room's record (``Room.question``), so asking,
revealing and closing bump the room's version and every phone shows it within a second.
Each answer is a field of ``room:CODE:answers:QID``, keyed by a hash of the student's
anonymous seat id and the question (unlinkable across questions), written first-writer-
wins: **a student's first answer is the one counted**, however many processes or machines
see it. An answer holds the number (the numbers, row by row, for an exercise's matrix; the
option's number for a multiple choice), the verdict, the slip's key and the seconds since
the question was asked; never a name, never the typed text.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections import Counter
from dataclasses import dataclass

from attention_core import Scenario, csv_rows
from attention_core.exercises.catalogue import exercise_by_id
from attention_core.exercises.cell import CELL_STAGES, cell_question
from attention_core.exercises.model import MISTAKE_LABELS, ChoiceStep, Step
from attention_core.exercises.text import format_value
from attention_ui.classroom.rooms import ROOM_TTL, Rooms
from attention_ui.i18n import N_, _
from attention_ui.i18n.texts import tr

FEEDBACK = {"reveal": N_("when I reveal"), "at_once": N_("at once")}  # msgids: _() where shown
OTHER = "other"
EXERCISE = "exercise"  # Question.stage of a step of a lesson's exercise
Value = float | list[list[float]]  # one number, or an exercise's matrix, row by row


@dataclass(frozen=True)
class Question:
    id: str
    stage: str  # a key of attention_core.exercises.cell.CELL_STAGES, or EXERCISE
    i: int
    j: int
    feedback: str  # "reveal" or "at_once": when a student sees their verdict
    counts_shown: bool  # students may see the room's counts before the reveal
    asked_at: float
    open: bool = True
    revealed: bool = False
    exercise: str = ""  # for EXERCISE: the exercise's id and its step's (catalogue)
    step_id: str = ""
    projected: bool = False  # the teacher shows the class's counts on the projector

    @property
    def counts_public(self) -> bool:
        """Whether the room may see the class's counts: after the reveal, or before it when
        the teacher allowed it (students) or chose to project them."""
        return self.revealed or self.counts_shown or self.projected

    @classmethod
    def of(cls, record: dict | None) -> Question | None:
        return cls(**record) if record else None


@dataclass(frozen=True)
class Tally:
    answered: int
    right: int
    slips: dict[str, int]  # a MISTAKE_LABELS key (or OTHER) -> how many
    rows: list[dict]  # one per answer: value, verdict, slip, seconds (the CSV)

    def bars(self) -> list[tuple[str, int]]:
        """(label, count) for the chart: right first, then the named slips, then other."""
        named = sorted(((_(MISTAKE_LABELS.get(k, k)), n) for k, n in self.slips.items()
                        if k != OTHER), key=lambda kv: -kv[1])  # fmt: skip
        return [("right", self.right), *named, (OTHER, self.slips.get(OTHER, 0))]


def question_step(q: Question, scenario_url: str) -> Step:
    """The question as an exercise step, the same on every phone: a lesson's exercise step
    as the catalogue has it, or the cell of the room's scenario (``scenario_url``, the
    room's ``?s=``). Raises InputError or IndexError when the scenario lost that cell."""
    if q.stage == EXERCISE:
        return _exercise_step(q.exercise, q.step_id)
    scenario = Scenario.from_url(scenario_url)
    t = scenario.trace()
    cols = scenario.key_labels if q.stage != "output" else [f"v{c + 1}" for c in
                                                              range(t.V.shape[1])]  # fmt: skip
    return cell_question(t, q.stage, q.i, q.j, scenario.query_labels[q.i], cols[q.j])


def _exercise_step(exercise: str, step_id: str) -> Step:
    try:
        return exercise_by_id(exercise).step(step_id)
    except StopIteration:  # a catalogue without it (another version of the app)
        raise IndexError(f"no step {step_id!r} in an exercise {exercise!r}") from None


def question_title(q: Question, step: Step) -> str:
    """One plain line naming the question (the CSV's first column)."""
    if q.stage == EXERCISE:
        return f"{tr(exercise_by_id(q.exercise).title)}: {tr(step.title)}"
    return tr(step.prompt)


def answer_text(step: Step) -> str:
    """The right answer as a student would type it (or the right option's text)."""
    if isinstance(step, ChoiceStep):
        return tr(step.option(step.answer_index))  # "B. <its text>"
    return format_value(step.expected, step.decimals)


class Questions:
    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms

    def ask(self, code: str, secret: str, stage: str, i: int, j: int, feedback: str,
            counts_shown: bool, exercise: str = "", step_id: str = "") -> Question:  # fmt: skip
        """Put a question to the room: a cell (stage, i, j), or with ``stage == EXERCISE``
        the step ``step_id`` of the exercise ``exercise``."""
        if feedback not in FEEDBACK:
            raise ValueError(f"feedback is one of {sorted(FEEDBACK)}")
        if stage == EXERCISE:
            _exercise_step(exercise, step_id)  # IndexError: no such exercise or step
        elif stage not in CELL_STAGES:
            raise ValueError(f"stage is {EXERCISE!r} or one of {sorted(CELL_STAGES)}")
        q = Question(secrets.token_hex(4), stage, int(i), int(j), feedback, bool(counts_shown),
                     time.time(), exercise=exercise, step_id=step_id)  # fmt: skip
        self.rooms.drive(code, secret, question=q.__dict__)
        return q

    def update(self, code: str, secret: str, q: Question, **changes: object) -> Question:
        """Reveal (revealed=True) or close (open=False) the room's question."""
        new = Question(**{**q.__dict__, **changes})
        self.rooms.drive(code, secret, question=new.__dict__)
        return new

    def answer(self, code: str, seat_id: str, value: Value, correct: bool,
               slip: str | None) -> str:  # fmt: skip
        """Count one answer: "counted", "already" (this student answered), or "closed"."""
        q = Question.of(self.rooms.get(code).question)
        if q is None or not q.open or q.revealed:
            return "closed"
        record = {"v": value, "ok": correct, "slip": None if correct else (slip or OTHER),
                  "t": round(time.time() - q.asked_at, 2)}  # fmt: skip
        field = hashlib.sha256(f"{seat_id}:{q.id}".encode()).hexdigest()[:16]
        added = self.rooms.store.hadd(f"room:{code}:answers:{q.id}", field,
                                      json.dumps(record), ROOM_TTL)  # fmt: skip
        return "counted" if added else "already"

    def tally(self, code: str, question_id: str) -> Tally:
        answers = self.rooms.store.hgetall(f"room:{code}:answers:{question_id}")
        rows = [json.loads(v) for v in answers.values()]
        rows.sort(key=lambda r: r["t"])
        slips = Counter(r["slip"] for r in rows if not r["ok"])
        return Tally(len(rows), sum(r["ok"] for r in rows), dict(slips), rows)


# The results file's header and verdicts, in the language of the teacher who downloads it
# (the store keeps ``ok`` and a slip's id; only this export puts them in words).
CSV_HEADER = (N_("question"), N_("value"), N_("verdict"), N_("slip"), N_("seconds after asking"))
VERDICTS = {True: N_("right"), False: N_("wrong")}


def csv_text(q: Question, tally: Tally, title: str) -> str:
    """The class's results: question, value, verdict, slip, seconds after asking. No identity.
    A multiple choice's value is the option as the phones showed it ("B. <its text>")."""
    step = _exercise_step(q.exercise, q.step_id) if q.stage == EXERCISE else None
    choices = step if isinstance(step, ChoiceStep) else None
    rows: list[list[object]] = [[_(h) for h in CSV_HEADER]]
    for r in tally.rows:
        slip = "" if r["ok"] else _(MISTAKE_LABELS.get(r["slip"], r["slip"]))
        rows.append([title, _value_text(r["v"], choices), _(VERDICTS[bool(r["ok"])]), slip, r["t"]])
    return csv_rows.csv_text(rows, bom=True)


def _value_text(v: Value, choices: ChoiceStep | None) -> str:
    """A number as is; a matrix as the learner types it ("0.844, 0.114; ..."); an option's
    number (1 for the first) as its letter and text."""
    if isinstance(v, list):
        return "; ".join(", ".join(f"{x:.6g}" for x in row) for row in v)
    if choices is not None and float(v).is_integer() and 1 <= v <= len(choices.choices):
        return tr(choices.option(int(v) - 1))
    return f"{v:.6g}"
