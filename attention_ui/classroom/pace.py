"""A class at its own pace: each student works through the open exercises, the teacher sees
where the room is stuck (no Streamlit).

A practice session is a live room (``rooms``) whose record carries ``practice``: which
exercises are open, the one the class is locked to (if any), the teacher's "stuck after"
time and whether the projector shows the counts. Driving it bumps the room's version, so
every phone takes a change within a second, as for any other change of the room.

What a student leaves in the store, all under the room's code and gone with it:

- ``room:CODE:seats``: one field per seat, keyed by a hash of the room's code and the seat
  id the student's browser keeps (a cookie): its number, its nickname if any, when it came;
- ``room:CODE:nicks``: the nicknames in use (folded), first writer wins: a duplicate is told;
- ``room:CODE:work``: one field per check (or solution shown), keyed by the seat's hash and
  an id drawn when the student pressed Check, written first-writer-wins like a question's
  answer (``questions.Questions.answer``): a retry after a store outage, or the same answer
  sent by two processes, is the same field, so **every check is counted exactly once**.
  It holds the exercise, the step, the verdict, the slip's key and the time; never the text
  the student typed.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass, field

from attention_core import csv_rows
from attention_core.exercises import (
    MISTAKE_LABELS,
    Exercise,
    Feedback,
    Progress,
    all_exercises,
    exercise_by_id,
    get_record,
    progress_json,
    record_attempt,
)
from attention_core.i18n import Text
from attention_ui.classroom.record import (  # noqa: F401 (Practice, exercise_id: pace's users')
    STUCK_AFTER_S,
    Practice,
    catalogue_order,
    exercise_id,
    ids_only,
)
from attention_ui.classroom.rooms import FORGOTTEN, ROOM_TTL, Rooms
from attention_ui.draw.text import titled
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr

PRACTICE_PAGE = "exercises"
NICK_CHARS = 24  # a nickname's length, in characters
STUCK_WRONG = 2  # wrong tries on one step, still not right: stuck
OTHER = "other"  # a wrong answer no named slip explains
MAX_ANSWER = 400  # characters of a typed answer kept with its check
NOT_TRIED, RIGHT, WRONG, SOLUTION = "not tried", "right", "wrong", "solution shown"
CHECK, SOLVED = "check", "solution"  # the kinds of event a seat sends


class NicknameError(ValueError):
    """A nickname that cannot be used: the message says why, in plain words."""


@dataclass(frozen=True)
class Event:
    """One check of one step (or a solution shown) by one seat."""

    id: str  # drawn when the student pressed Check: a retry sends the same id
    kind: str  # CHECK or SOLVED
    exercise: str
    step: str  # "" for SOLVED (the whole exercise)
    ok: bool = False
    slip: str | None = None  # a MISTAKE_LABELS key (or a choice's mistake), OTHER when wrong
    at: float = 0.0  # time.time() when the student pressed it
    answer: str = ""  # what the student typed (plain text, cut): their own JSON file's

    @classmethod
    def check(cls, exercise: str, step: str, feedback: Feedback, answer: str = "") -> Event:
        slip = None if feedback.correct else (feedback.mistake or OTHER)
        return cls(secrets.token_hex(6), CHECK, exercise, step, feedback.correct, slip,
                   round(time.time(), 3), answer[:MAX_ANSWER])  # fmt: skip

    @classmethod
    def solution(cls, exercise: str) -> Event:
        return cls(secrets.token_hex(6), SOLVED, exercise, "", at=round(time.time(), 3))


@dataclass(frozen=True)
class SeatInfo:
    key: str  # the seat's hash in this room (never the browser's own id)
    number: int
    nick: str = ""
    joined: float = 0.0

    @property
    def label(self) -> str:
        """What the CSV calls it: the nickname, else "Seat 3" (the console's words:
        ``name``)."""
        return self.nick or f"Seat {self.number}"

    @property
    def name(self) -> str:
        """What the teacher's console calls it, in the run's language."""
        return self.nick or _("Seat {number}").format(number=self.number)


def seat_key(code: str, seat_id: str) -> str:
    return hashlib.sha256(f"{code}:{seat_id}".encode()).hexdigest()[:16]


def clean_nickname(text: str) -> str:
    """A nickname as kept: one line, spaces folded, at most NICK_CHARS characters of
    printable text. Raises NicknameError with what to change."""
    nick = " ".join((text or "").split())
    if not nick:
        return ""
    if len(nick) > NICK_CHARS:
        raise NicknameError(_("A nickname has at most {n} characters.").format(n=NICK_CHARS))
    if any(unicodedata.category(c)[0] == "C" for c in nick):
        raise NicknameError(_("A nickname is plain text: letters, digits, spaces, punctuation."))
    return nick


def _folded(nick: str) -> str:
    return unicodedata.normalize("NFKC", nick).casefold()


class Pace:
    """A room's practice: the teacher's settings, the seats and their checks."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.store = rooms.store

    # ---- the teacher ----------------------------------------------------------------------
    def start(self, code: str, secret: str, open_ids: list[str], lock: str = "",
              stuck_s: float = STUCK_AFTER_S) -> Practice:  # fmt: skip
        """Put the room in practice on the Exercises page, with these exercises open."""
        ids_only([*open_ids, lock] if lock else open_ids)
        p = Practice(catalogue_order([*open_ids, lock]), lock, float(stuck_s), False,
                     time.time())  # fmt: skip
        if not p.open:
            raise ValueError("open at least one exercise")
        self.rooms.drive(code, secret, page=PRACTICE_PAGE, practice=p.record(), params={})
        return p

    def change(self, code: str, secret: str, **changes: object) -> Practice:
        """Open more (``open``), lock or unlock (``lock``), the stuck time, the projector.
        Only exercise ids are written (a ValueError names anything else); with no change,
        a record that held labels is written again as ids (``Practice.of`` read them)."""
        p = Practice.of(self.rooms.get(code).practice)
        if p is None:
            raise ValueError("the room is not practising")
        record = {**p.record(), **changes}
        ids_only([*record["open"], record["lock"]] if record["lock"] else record["open"])
        record["open"] = list(catalogue_order([*record["open"], record["lock"]]))
        if not record["open"]:
            raise ValueError("open at least one exercise")
        self.rooms.drive(code, secret, practice=record)
        return Practice.of(record)

    def stop(self, code: str, secret: str) -> None:
        """Back to a teacher-paced class (the seats and their work stay until the end)."""
        self.rooms.drive(code, secret, practice=None)

    # ---- a student --------------------------------------------------------------------------
    def take_seat(self, code: str, seat_id: str, nick: str = "") -> SeatInfo:
        """This browser's seat in the room: the same one again after a reload, a sleeping
        phone or another process. A nickname (optional) is refused when another seat has
        it (NicknameError); a seat that has one keeps it."""
        key = seat_key(code, seat_id)
        seats = self.store.hgetall(f"room:{code}:seats")
        if key in seats:
            mine = _seat(key, seats[key])
            if not nick or mine.nick:
                return mine
        nick = clean_nickname(nick)
        if nick and not self.store.hadd(f"room:{code}:nicks", _folded(nick), key, ROOM_TTL):
            holder = self.store.hgetall(f"room:{code}:nicks").get(_folded(nick))
            if holder != key:
                raise NicknameError(_("Someone in this class is already called '{nick}': "
                                      "choose another nickname.").format(nick=nick))  # fmt: skip
        if key in seats:  # a nickname for a seat that had none
            mine = _seat(key, seats[key])
            record = {"n": mine.number, "nick": nick, "at": mine.joined}
            self.store.hset(f"room:{code}:seats", key, json.dumps(record), ROOM_TTL)
            return SeatInfo(key, mine.number, nick, mine.joined)
        number = self.store.incr(f"room:{code}:seatno", ROOM_TTL)
        record = {"n": number, "nick": nick, "at": round(time.time(), 3)}
        if not self.store.hadd(f"room:{code}:seats", key, json.dumps(record), ROOM_TTL):
            # another process of this browser took it a moment ago: that one is the seat
            return _seat(key, self.store.hgetall(f"room:{code}:seats")[key])
        return SeatInfo(key, number, nick, record["at"])

    def send(self, code: str, seat_id: str, event: Event) -> bool:
        """Count one event, once: True when this call counted it, False when it already was
        (a retry whose first try reached the store)."""
        field = f"{seat_key(code, seat_id)}:{event.id}"
        value = json.dumps(asdict(event))
        return self.store.hadd(f"room:{code}:work", field, value, ROOM_TTL)

    def mine(self, code: str, seat_id: str) -> list[Event]:
        """This seat's events, oldest first (a rejoining seat takes its answers back). The
        filter runs here: no other seat's work leaves the server."""
        prefix = seat_key(code, seat_id) + ":"
        work = self.store.hgetall(f"room:{code}:work")
        return sorted((_event(v) for k, v in work.items() if k.startswith(prefix)),
                      key=lambda e: e.at)  # fmt: skip

    # ---- the dashboard ----------------------------------------------------------------------
    def snapshot(self, code: str) -> tuple[list[SeatInfo], dict[str, list[Event]]]:
        """Every seat and every seat's events (two reads: the console's dashboard)."""
        seats = self.store.hgetall(f"room:{code}:seats")
        work = self.store.hgetall(f"room:{code}:work")
        by_seat: dict[str, list[Event]] = {k: [] for k in seats}
        for k, v in work.items():
            by_seat.setdefault(k.split(":", 1)[0], []).append(_event(v))
        for events in by_seat.values():
            events.sort(key=lambda e: e.at)
        infos = sorted((_seat(k, v) for k, v in seats.items()), key=lambda s: s.number)
        return infos, by_seat

    def forget(self, code: str) -> None:
        """Delete every seat, nickname and check of the room (the class ended)."""
        for part in FORGOTTEN:
            self.store.delete(f"room:{code}:{part}")


def _seat(key: str, raw: str) -> SeatInfo:
    r = json.loads(raw)
    return SeatInfo(key, int(r["n"]), r.get("nick", ""), float(r.get("at", 0.0)))


def _event(raw: str) -> Event:
    return Event(**json.loads(raw))


# ---- what the dashboard shows (pure: the tests compute it by hand) -------------------------------
@dataclass
class Cell:
    """One seat's one step: its checks in order."""

    verdicts: list[bool] = field(default_factory=list)
    slips: list[str] = field(default_factory=list)  # the wrong checks' slips, in order
    solution: bool = False  # the exercise's solution was shown before a right answer
    last_at: float = 0.0

    @property
    def status(self) -> str:
        if self.verdicts and self.verdicts[-1]:
            return RIGHT
        if self.solution:
            return SOLUTION
        return WRONG if self.verdicts else NOT_TRIED

    @property
    def wrong(self) -> int:
        return self.verdicts.count(False)

    @property
    def slip(self) -> str | None:
        return self.slips[-1] if self.status == WRONG else None


@dataclass(frozen=True)
class StepCount:
    exercise: str
    step: str
    title: str  # "1 · Paper toy: Q Kᵀ"
    tried: int
    right_first: int
    right_end: int
    slips: tuple[tuple[str, int], ...]  # (a slip's label, how many wrong checks), most first


@dataclass(frozen=True)
class Board:
    seats: tuple[SeatInfo, ...]
    steps: tuple[tuple[str, str], ...]  # (exercise id, step id) of the open exercises
    cells: dict[tuple[str, str, str], Cell]  # (seat key, exercise, step)
    counts: tuple[StepCount, ...]
    stuck: tuple[tuple[SeatInfo, str], ...]  # (seat, why), in seat order

    def cell(self, seat: str, exercise: str, step: str) -> Cell:
        return self.cells.get((seat, exercise, step)) or Cell()


def slip_label(key: str | None) -> str:
    return "" if key is None else _(MISTAKE_LABELS.get(key, key.replace("_", " ")))


def board(seats: list[SeatInfo], work: dict[str, list[Event]], practice: Practice,
          now: float, exercises: tuple[Exercise, ...] | None = None) -> Board:  # fmt: skip
    """The grid, the counts per step and who is stuck, from the seats' events."""
    shown = [ex for ex in (exercises or all_exercises()) if ex.id in practice.open]
    steps = tuple((ex.id, s.id) for ex in shown for s in ex.steps)
    cells: dict[tuple[str, str, str], Cell] = {}
    for seat in seats:
        for e in work.get(seat.key, []):
            if e.kind == SOLVED:
                ex = next((x for x in shown if x.id == e.exercise), None)
                for s in ex.steps if ex is not None else ():
                    c = cells.setdefault((seat.key, e.exercise, s.id), Cell())
                    c.solution = c.solution or not (c.verdicts and c.verdicts[-1])
                continue
            c = cells.setdefault((seat.key, e.exercise, e.step), Cell())
            c.verdicts.append(e.ok)
            if not e.ok:
                c.slips.append(e.slip or OTHER)
            c.last_at = e.at
    counts = tuple(_count(ex, s.id, tr(s.title), seats, cells) for ex in shown for s in ex.steps)
    return Board(tuple(seats), steps, cells, counts, _stuck(seats, work, cells, practice, now))


def _count(ex: Exercise, step: str, title: str, seats: list[SeatInfo],
           cells: dict[tuple[str, str, str], Cell]) -> StepCount:  # fmt: skip
    mine = [cells[k] for s in seats if (k := (s.key, ex.id, step)) in cells]
    tried = [c for c in mine if c.verdicts]
    slips = Counter(slip for c in tried for slip in c.slips)
    ranked = sorted(((slip_label(k), n) for k, n in slips.items()), key=lambda kv: (-kv[1], kv[0]))
    return StepCount(ex.id, step, titled(tr(ex.short_title), title), len(tried),
                     sum(c.verdicts[0] for c in tried), sum(c.verdicts[-1] for c in tried),
                     tuple(ranked))  # fmt: skip


def _stuck(seats: list[SeatInfo], work: dict[str, list[Event]],
           cells: dict[tuple[str, str, str], Cell], practice: Practice,
           now: float) -> tuple[tuple[SeatInfo, str], ...]:  # fmt: skip
    """Seats with STUCK_WRONG or more wrong checks on a step they have not got right, or no
    right answer (nor their first check) for ``practice.stuck_s`` seconds."""
    titles = {(ex.id, s.id): f"{tr(ex.short_title)}: {tr(s.title)}" for ex in all_exercises()
              for s in ex.steps}  # fmt: skip
    out = []
    for seat in seats:
        hard = [(ex, st, c) for (k, ex, st), c in cells.items() if k == seat.key
                and c.wrong >= STUCK_WRONG and c.status != RIGHT]  # fmt: skip
        if hard:
            ex, st, c = max(hard, key=lambda h: h[2].wrong)
            why = ngettext("{n} wrong try on {step} ({slip})", "{n} wrong tries on {step} ({slip})",
                           c.wrong)  # fmt: skip
            step = titles.get((ex, st), st)
            out.append((seat, why.format(n=c.wrong, step=step, slip=slip_label(c.slips[-1]))))
            continue
        moves = [e.at for e in work.get(seat.key, []) if e.ok or e.kind == SOLVED]
        since = max([seat.joined, practice.started, *moves])
        if now - since >= practice.stuck_s:
            minutes = int((now - since) // 60)
            out.append((seat, _("no progress for {minutes} min").format(minutes=minutes)))
    return tuple(out)


# ---- exports -------------------------------------------------------------------------------------
# The session file in the language of the teacher who downloads it: the store keeps ids
# (exercise, step, verdict, slip); this export names them as the dashboard does.
CSV_HEADER = (N_("seat"), N_("exercise"), N_("step"), N_("verdict"), N_("slip"),
              N_("attempts"), N_("seconds"))  # fmt: skip
STATUS_WORDS = {RIGHT: N_("right"), WRONG: N_("wrong"), SOLUTION: N_("solution shown")}


def csv_text(b: Board) -> str:
    """The session: one row per seat and step tried (or solution shown), the exercise and
    step by their titles. ``seconds`` runs from the seat's arrival to its last check of the
    step. A nickname is defused for spreadsheets (a leading '=' is text)."""
    rows: list[list[object]] = [[_(h) for h in CSV_HEADER]]
    for seat in b.seats:
        for ex, step in b.steps:
            c = b.cell(seat.key, ex, step)
            if c.status == NOT_TRIED:
                continue
            seconds = round(c.last_at - seat.joined, 1) if c.verdicts else ""
            exercise = exercise_by_id(ex)
            rows.append([_defused(seat.name), tr(exercise.short_title),
                         tr(exercise.step(step).title), _(STATUS_WORDS[c.status]),
                         slip_label(c.slip), len(c.verdicts), seconds])  # fmt: skip
    return csv_rows.csv_text(rows, bom=True)


def _defused(text: str) -> str:
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _replayed(ok: bool, mistake: str | None) -> tuple[Text, ...]:
    """What a check said, shown again from its event: the verdict and the slip's name."""
    if ok:
        return (Text("Right."),)
    if mistake is None:
        return (Text("Not right."),)
    return (Text("Not right: {slip}.", slip=Text(MISTAKE_LABELS.get(mistake, mistake))),)


def seat_progress(events: list[Event]) -> Progress:
    """A seat's events as the Exercises page's own progress (a rejoining seat's page, and
    its JSON file), with the text each check had."""
    progress: Progress = {}
    for e in events:
        if e.kind == SOLVED:
            ex = next((x for x in all_exercises() if x.id == e.exercise), None)
            for s in ex.steps if ex is not None else ():
                get_record(progress, e.exercise, s.id).solution_shown = True
            continue
        mistake = None if e.ok or e.slip == OTHER else e.slip
        said = _replayed(e.ok, mistake)
        record_attempt(progress, e.exercise, e.step, e.answer, Feedback(e.ok, said, mistake))
    return progress


def seat_json(events: list[Event], exercises: tuple[Exercise, ...] | None = None) -> str:
    return progress_json(exercises or all_exercises(), seat_progress(events))
