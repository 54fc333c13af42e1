"""Ask the class: one question at a time in a room, each student's answer counted once.

No Streamlit here. The question rides in the room's record (``Room.question``), so asking,
revealing and closing bump the room's version and every phone shows it within a second.
Each answer is a field of ``room:CODE:answers:QID``, keyed by a hash of the student's
anonymous seat id and the question (unlinkable across questions), written first-writer-
wins: **a student's first answer is the one counted**, however many processes or machines
see it. An answer holds the number, the verdict, the slip's key and the seconds since the
question was asked; never a name, never the typed text.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections import Counter
from dataclasses import dataclass

from attention_core.exercises.model import MISTAKE_LABELS
from attention_ui.live.rooms import ROOM_TTL, Rooms

FEEDBACK = {"reveal": "when I reveal", "at_once": "at once"}
OTHER = "other"


@dataclass(frozen=True)
class Question:
    id: str
    stage: str  # a key of attention_core.exercises.cell.CELL_STAGES
    i: int
    j: int
    feedback: str  # "reveal" or "at_once": when a student sees their verdict
    counts_shown: bool  # students may see the room's counts before the reveal
    asked_at: float
    open: bool = True
    revealed: bool = False

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
        named = sorted(((MISTAKE_LABELS.get(k, k), n) for k, n in self.slips.items()
                        if k != OTHER), key=lambda kv: -kv[1])  # fmt: skip
        return [("right", self.right), *named, (OTHER, self.slips.get(OTHER, 0))]


class Questions:
    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms

    def ask(self, code: str, secret: str, stage: str, i: int, j: int, feedback: str,
            counts_shown: bool) -> Question:  # fmt: skip
        if feedback not in FEEDBACK:
            raise ValueError(f"feedback is one of {sorted(FEEDBACK)}")
        q = Question(secrets.token_hex(4), stage, int(i), int(j), feedback, bool(counts_shown),
                     time.time())  # fmt: skip
        self.rooms.drive(code, secret, question=q.__dict__)
        return q

    def update(self, code: str, secret: str, q: Question, **changes: object) -> Question:
        """Reveal (revealed=True) or close (open=False) the room's question."""
        new = Question(**{**q.__dict__, **changes})
        self.rooms.drive(code, secret, question=new.__dict__)
        return new

    def answer(self, code: str, seat_id: str, value: float, correct: bool,
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


def csv_text(q: Question, tally: Tally, title: str) -> str:
    """The class's results: question, value, verdict, slip, seconds after asking. No identity."""
    lines = ["question,value,verdict,slip,seconds_after_asking"]
    quoted = '"' + title.replace('"', '""') + '"'
    for r in tally.rows:
        slip = "" if r["ok"] else MISTAKE_LABELS.get(r["slip"], r["slip"])
        lines.append(f"{quoted},{r['v']:.6g},{'right' if r['ok'] else 'wrong'},{slip},{r['t']}")
    return "\n".join(lines) + "\n"
