"""A class at its own pace, on a student's phone: the seat, the nickname, and every check
sent to the teacher's dashboard, once (the store side: ``classroom.pace``).

The seat is the browser's, not the session's: a random id kept in a cookie
(``SEAT_COOKIE``, written by the page as the teacher's is, ``console.teacher_cookie``), so
a reload, a phone that slept or another process finds the same seat, and its answers come
back from the room's store. A check the store cannot take just now stays in the session's
outbox with its id and goes out at the next run once the store is back (as an asked
question's answer does, ``ask._deliver``); the id makes a second try the same field, so it
never counts twice. Nothing here reads another seat's work or name.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict

import streamlit as st

from attention_core import InputError
from attention_core.exercises import ChoiceStep, Exercise, Feedback, Step
from attention_core.exercises.checker import read_answer
from attention_ui.classroom.pace import (
    NICK_CHARS,
    Event,
    NicknameError,
    Pace,
    Practice,
    seat_progress,
)
from attention_ui.classroom.rooms import ROOM_TTL
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys
from attention_ui.i18n import N_, _, ngettext
from attention_ui.live import seats
from attention_ui.storage.store import StoreDownError

SEAT_COOKIE = "attention_lab_seat"  # a random id: this browser's seat in any practice
NICK_KEY = "pace_nick"
KEPT = N_("Your answers are kept on this phone and reach your teacher when the class is back. "
          "Go on working.")  # fmt: skip


def pace() -> Pace:
    return Pace(seats.hub().rooms)


def practice() -> Practice | None:
    """The room's practice when this session is a student of a practising room."""
    s = seats.seat()
    if s is None or s.role != "student" or not s.practice:
        return None
    return Practice.of(s.practice)


def _mine() -> dict:
    """This session's part: its seat in the room, and the checks not yet sent."""
    s = seats.seat()
    mine = st.session_state.get(keys.LIVE_PACE)
    if mine is None or mine.get("code") != s.code:
        mine = {"code": s.code, "id": _seat_id(), "seat": None, "outbox": [], "down": False}
        st.session_state[keys.LIVE_PACE] = mine
    return mine


def _seat_id() -> str:
    """The browser's seat id: its cookie, or a new one that the page writes into it."""
    kept = st.context.cookies.get(SEAT_COOKIE)
    if isinstance(kept, str) and 8 <= len(kept) <= 64 and kept.isalnum():
        return kept
    new = secrets.token_hex(12)
    cookie = f"{SEAT_COOKIE}={new}; path=/; max-age={int(ROOM_TTL)}; SameSite=Lax"
    st.html(f"<script>document.cookie = {json.dumps(cookie)};</script>",
            unsafe_allow_javascript=True)  # fmt: skip
    return new


def exercises_shown(everything: tuple[Exercise, ...]) -> tuple[Exercise, ...]:
    """The Exercises page's cards: in a practice, the open ones (or the locked one)."""
    p = practice()
    return everything if p is None else p.shown(everything)


def student_card() -> None:
    """On the Exercises page of a practising student: the seat, the nickname box, a notice
    while the store cannot be reached. It takes the seat (and its answers back) once."""
    if practice() is None:
        return
    mine = _mine()
    _settle(mine)
    with st.container(key="pace_card", border=True):
        seat = mine["seat"]
        if seat is None:
            st.warning(
                _("Live class: reconnecting…") + " " + _(KEPT), icon=":material/sync_problem:"
            )
            return
        if seat["nick"]:
            who = _("**Practice at your own pace**: you are seat {number}, “{nick}”.")
        else:
            who = _("**Practice at your own pace**: you are seat {number}.")
        words = [who.format(number=seat["number"], nick=md_escape(seat["nick"]))]
        p = practice()
        if p and p.lock:
            words.append(_("Your teacher has opened one exercise for now."))
        words.append(_("Your teacher sees your checks; no other student does."))
        st.markdown(" ".join(words))
        if n := len(mine["outbox"]):
            waiting = ngettext("{n} not sent yet.", "{n} not sent yet.", n).format(n=n)
            st.warning(waiting + " " + _(KEPT), icon=":material/sync_problem:")
        if not seat["nick"]:
            _nickname_form()


def _settle(mine: dict) -> None:
    """Take the seat (restoring its answers) and send what waits, if the store answers."""
    s = seats.seat()
    try:
        if mine["seat"] is None:
            info = pace().take_seat(s.code, mine["id"])
            mine["seat"] = {"number": info.number, "nick": info.nick}
            _restore(pace().mine(s.code, mine["id"]))
        _flush(mine)
    except StoreDownError:
        mine["down"] = True


def _restore(events: list[Event]) -> None:
    """A seat that comes back (a reload, another process: a new session, with no progress
    of its own yet) takes its answers back; a session that has some keeps its own, which
    holds every check it sent and any it could not send yet."""
    if events and not any(st.session_state.get(keys.PRACTICE_PROGRESS) or {}):
        st.session_state[keys.PRACTICE_PROGRESS] = seat_progress(events)
        solved = sorted({e.exercise for e in events if e.kind == "solution"})
        st.session_state[keys.PRACTICE_SOLUTIONS] = solved


def _flush(mine: dict) -> None:
    """Send the outbox in order; a store that fails keeps the rest for the next run."""
    s = seats.seat()
    while mine["outbox"]:
        pace().send(s.code, mine["id"], Event(**mine["outbox"][0]))  # counted, or already
        mine["outbox"].pop(0)
    mine["down"] = False


def _nickname_form() -> None:
    with st.form("pace_nick_form", border=False, enter_to_submit=True):
        c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
        c1.text_input(_("A nickname for your teacher (optional: only your teacher sees it)"),
                      key=NICK_KEY, max_chars=NICK_CHARS,
                      placeholder=_("e.g. {name}").format(name="Ada"))  # fmt: skip
        c2.form_submit_button(
            _("Use it"), key="pace_nick_use", on_click=guard.callback(_set_nickname)
        )
    if (why := _mine().pop("nick_error", None)) is not None:
        st.error(md_escape(why))


def _set_nickname() -> None:
    s, mine = seats.seat(), _mine()
    try:
        info = pace().take_seat(s.code, mine["id"], st.session_state.get(NICK_KEY, ""))
    except NicknameError as exc:
        mine["nick_error"] = str(exc)
        return
    except StoreDownError:
        mine["nick_error"] = _("The class cannot be reached just now: try again.")
        return
    mine["seat"] = {"number": info.number, "nick": info.nick}


# ---- what the Exercises page tells the class --------------------------------------------
def checked(exercise: str, step: Step, answer: object, feedback: Feedback,
            typed: str = "") -> None:  # fmt: skip
    """A check on the Exercises page: sent to the teacher if it is an answer (an empty or
    unreadable box, or one of another shape, is a typo, not a try). ``typed``: the answer
    as the student's own progress file holds it (a choice's text)."""
    if practice() is None or not _countable(step, answer, feedback):
        return
    _post(Event.check(exercise, step.id, feedback, typed))


def solution_shown(exercise: str) -> None:
    if practice() is not None:
        _post(Event.solution(exercise))


def _post(event: Event) -> None:
    mine = _mine()
    mine["outbox"].append(asdict(event))
    try:
        _flush(mine)
    except StoreDownError:
        mine["down"] = True


def _countable(step: Step, answer: object, feedback: Feedback) -> bool:
    if feedback.correct or feedback.mistake is not None:
        return True
    if isinstance(step, ChoiceStep):
        return answer not in (None, "")
    try:
        numbers = read_answer(step, str(answer or ""))
    except InputError:
        return False
    return numbers.shape == step.shape
