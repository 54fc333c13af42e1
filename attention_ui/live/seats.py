"""A session's part in a live class: its seat, joining, following (teaching: ``teaching``).

A session holds one ``Seat`` (keys.LIVE): a student's (the room's code), or the teacher's
(the code and its secret, which never goes back into the address). Every run, app.py calls

- ``arrive()`` first: a ``?teach=`` in the address, or the teacher's cookie (a reload, a
  new tab, a restarted browser), or a ``?join=`` takes the seat; then a following session
  takes what the room changed since it last looked (scenario, step, the page's picks) and
  learns the room's page when that changed;
- ``stay_or_explore(page)`` once the page is known: a following student who went to
  another page on their own (a link, Back) explores from then on;
- ``teaching.publish_current()`` last: a teacher's session writes what it shows into the
  room (``live.room_control``, which builds on this module's seat and hub).

Between runs a follower's page polls the room's version (``views.follow_bar``, through the
process's ``Hub``) and reruns when the teacher changed something. A teacher's other devices
(a projector tab, the console, a phone) follow each other the same way. A store that cannot
be reached never stops a page: the seat says ``down`` and the page says "reconnecting".
"""

from __future__ import annotations

import contextlib
import math
import time
import uuid
from dataclasses import dataclass, field

import streamlit as st

from attention_core import InputError, Scenario
from attention_ui.classroom.hub import Hub
from attention_ui.classroom.rooms import (
    CODE_LEN,
    JoinLimiter,
    NoRoomError,
    Room,
    Rooms,
    client_address,
    never_used,
    normalise_code,
)
from attention_ui.frame import keys, state
from attention_ui.i18n import _
from attention_ui.storage.store import STORE_ENV, StoreDownError, open_store

TEACHER_COOKIE = "attention_lab_teach"  # CODE.SECRET, in the teacher's browser only
FREE_TRIES = 5  # wrong codes a session may type before each next try waits longer
MAX_WAIT_S = 60


@dataclass
class Seat:
    role: str  # "teacher" or "student"
    code: str
    secret: str = ""  # the teacher's only; kept in the session, never in the address
    following: bool = True  # a student exploring on their own stops following
    applied: int = 0  # the room version this session last took
    paused: bool = False
    down: bool = False  # the store could not be reached at the last try
    question: dict | None = None  # the room's question, as the last page run read it
    scenario: str = ""  # the room's scenario (a question is about it, whatever this page shows)
    page: str = ""  # the room's page, as this session last read it
    join_screen: bool = False  # the projector shows the join screen
    practice: dict | None = None  # the room's practice at their own pace (classroom.pace), if any
    edits: int = 0  # the session's own edits of the example when it last took the room's
    edited: bool = False  # a student explores because they edited the example
    # a teacher's changes the store did not take (it was down): written when it is back
    pending: dict = field(default_factory=dict)
    pending_at: float = 0.0  # when the teacher made the latest of them (time.time())
    id: str = field(default_factory=lambda: uuid.uuid4().hex)  # anonymous, for the count

    @property
    def teaching(self) -> bool:
        return self.role == "teacher"


@st.cache_resource(show_spinner=False)
def _hub(url: str) -> Hub:
    return Hub(Rooms(open_store(url or None)))


def hub() -> Hub:
    """This process's hub for the store the setting names (LIVE_STORE)."""
    import os

    return _hub(os.environ.get(STORE_ENV, ""))


def seat() -> Seat | None:
    return st.session_state.get(keys.LIVE)


# ---- arriving: ?teach= and ?join= ---------------------------------------------------------
def arrive() -> str | None:
    """Take a seat from the address, then follow the room: the page key it is on, or None."""
    if seat() is not None:  # a seat taken meanwhile (Go live, a code): no link to try again
        st.session_state.pop(keys.LIVE_RETRY, None)
    if (teach := state.url_value(keys.TEACH)) is not None:
        state.drop_url_value(keys.TEACH)  # the secret leaves the address bar at once
        message = take_teacher_seat(teach)
        if message:
            state.flash(message)
    elif seat() is None and (kept := kept_teacher_link() or _retry_link()):
        # a class that ended meanwhile: the cookie is cleared; a store that is down: the
        # page says so, and the next run tries again (the cookie is kept)
        if (message := take_teacher_seat(kept)) and keys.LIVE_RETRY in st.session_state:
            state.flash(message)
    elif _new_code(code := state.url_value(keys.JOIN)) and not join(code or ""):
        state.drop_url_value(keys.JOIN)  # the page says why (join_message)
    return follow()


def kept_teacher_link() -> str | None:
    """The control link this browser keeps for its teacher (``TEACHER_COOKIE``), on a
    session's first run only: a reload or a new tab drives the room again, and the secret
    never shows in the address bar or on the projector."""
    if keys.LIVE_COOKIE in st.session_state:
        return None  # looked once this session (an ended class's cookie is not read again)
    kept = _cookie()
    st.session_state[keys.LIVE_COOKIE] = kept
    return kept or None


def _cookie() -> str:
    """The teacher's cookie as this session's first request sent it, or ""."""
    kept = st.context.cookies.get(TEACHER_COOKIE)
    return kept if isinstance(kept, str) else ""  # a test's context may hold none at all


def _retry_link() -> str | None:
    """The control link the store could not check at an earlier run (it was down), once: a
    console reloaded during an outage drives its class again once the store is back."""
    return st.session_state.pop(keys.LIVE_RETRY, None)


def _new_code(code: str | None) -> bool:
    """An address's ?join= that is not already this session's room."""
    s = seat()
    return code is not None and (s is None or s.code != normalise_code(code))


def take_teacher_seat(link: str) -> str | None:
    """``CODE.SECRET`` from a control link: the room's teacher seat, or why not."""
    code, _dot, secret = link.partition(".")
    code = normalise_code(code) or ""
    try:
        if not code or not secret or not hub().rooms.is_teacher(code, secret):
            return _("This control link does not drive any live class (it may be old or wrong).")
    except NoRoomError:
        return _("The live class of this control link has ended.")
    except StoreDownError:
        st.session_state[keys.LIVE_RETRY] = link  # the next run tries it again
        return _("The live class cannot be reached just now: open the control link again soon.")
    st.session_state[keys.LIVE] = Seat("teacher", code, secret)
    st.session_state.pop(keys.LIVE_SHOWN, None)  # take the room as it is before writing it
    return None


def cookie_due() -> str | None:
    """What this browser's teacher cookie must become ("CODE.SECRET", or "" to forget it),
    if it differs from what the browser holds; the view writes it (``console.teacher_cookie``)."""
    s = seat()
    want = f"{s.code}.{s.secret}" if s is not None and s.teaching else ""
    held = st.session_state.get(keys.LIVE_COOKIE)
    if held is None:
        held = _cookie()
    if want == held or (not want and s is not None):
        return None  # a student's seat never clears a teacher's cookie in the same browser
    if not want and keys.LIVE_RETRY in st.session_state:
        return None  # the store was down: the class may well go on (kept for the next try)
    return want


def cookie_written(value: str) -> None:
    st.session_state[keys.LIVE_COOKIE] = value


def join(text: str) -> bool:
    """Join the class with code ``text`` (the Start page's box, or ``?join=``).

    False when it did not, and ``join_message()`` says why: a code that is not one, no
    such class, too many wrong codes, or a store that cannot be reached.
    """
    tries = st.session_state.setdefault(keys.LIVE_TRIES, {"wrong": 0, "next": 0.0})
    message = _why_not(text, tries)
    tries["message"] = message
    return message is None


def _why_not(text: str, tries: dict) -> str | None:
    wait = tries["next"] - time.time()
    if wait > 0:
        return _("Too many wrong codes: try again in {seconds} s.").format(seconds=math.ceil(wait))
    code = normalise_code(text)
    limiter, client = JoinLimiter(hub().rooms.store), _client()
    try:
        if not limiter.allowed(client):
            return _("Too many wrong codes from this device: try again in a minute.")
        if code is not None:
            hub().rooms.get(code)
    except NoRoomError:
        why = _("No live class has the code {code}: check it with your teacher (the class may "
                "have ended).").format(code=code)  # fmt: skip
        return _wrong(tries, limiter, client, why)
    except StoreDownError:
        return _("The live class cannot be reached just now: try again in a moment.")
    if code is None:
        return _wrong(tries, limiter, client, _not_a_code(text))
    tries.update(wrong=0, next=0.0)
    st.session_state[keys.LIVE] = Seat("student", code, edits=state.own_edits())
    state.set_url_value(keys.JOIN, code)  # a reload, or a phone that slept, rejoins
    return None


def _not_a_code(text: str) -> str:
    """Why a typed text is no code: a character no code uses (a misread O for a D), else the
    length."""
    if odd := never_used(text):
        return _("A class code never has {chars}: codes leave out O, 0, I, L and 1, which "
                 "look alike. Check that character on your teacher's screen.").format(
            chars=", ".join(odd))  # fmt: skip
    why = _("That is not a class code: a code has {n} letters and digits, for example {example}.")
    return why.format(n=CODE_LEN, example="K7MQ4")


def _wrong(tries: dict, limiter: JoinLimiter, client: str, message: str) -> str:
    tries["wrong"] += 1
    if tries["wrong"] > FREE_TRIES:
        tries["next"] = time.time() + min(2 ** (tries["wrong"] - FREE_TRIES), MAX_WAIT_S)
    with contextlib.suppress(StoreDownError):  # the session's own wait still applies
        limiter.wrong(client)
    return message


def _client() -> str:
    """The device's address, as far as it can be trusted (``rooms.client_address``)."""
    return client_address(st.context.headers.get("X-Forwarded-For"), st.context.ip_address)


def join_message() -> str | None:
    """Why the last ``?join=`` or typed code did not join (shown once)."""
    tries = st.session_state.get(keys.LIVE_TRIES) or {}
    return tries.pop("message", None)


# ---- following ------------------------------------------------------------------------------
def follow() -> str | None:
    """A following session takes what the room changed since this session last looked (its
    scenario, step and the page's picks) and returns the room's page; None when nothing
    changed, so a teacher who went to another page leads from there (it is not pulled back),
    and ``stay_or_explore`` tells a student who left on their own."""
    s = seat()
    room = _room(s) if s is not None and s.following and not edited_on_own(s) else None
    if room is None:
        return None
    s.down, s.paused, s.question, s.scenario = False, room.paused, room.question, room.scenario
    s.page, s.join_screen, s.practice = room.page, room.join, room.practice
    if room.version == s.applied or s.pending:  # a teacher's kept change is newer: it is
        return None  # written by this run's publish (live.room_control), not replaced
    if room.scenario != state.scenario_url():
        # the app writes rooms; an unreadable one keeps the scenario
        with contextlib.suppress(InputError):
            state.set_scenario(Scenario.from_url(room.scenario))
    st.session_state[keys.PRESENT_STEP] = room.step
    params = _page_params(room.page, room.params or {})
    st.session_state.update(params)  # the page's widgets take them (they are its keys)
    s.applied = room.version
    if s.teaching:  # what the room shows now is what this teacher's session shows
        st.session_state[keys.LIVE_SHOWN] = (room.page, room.step, room.scenario, params)
    return room.page


def _page_params(page: str, values: dict) -> dict:
    """The picks of ``page`` that its link carries (keys.PAGE_PARAMS), and only those: a
    room's record is written by the app, but nothing else ever becomes a session key."""
    wanted = [p for p in keys.PAGE_PARAMS.get(page, ()) if p != keys.STEP_PARAM]
    return {p: values[p] for p in wanted if isinstance(values.get(p), str | int | float)}


def page_params(page: str) -> dict:
    """This session's picks on ``page`` that a follower takes (its widgets' values)."""
    ss = st.session_state
    return _page_params(page, {p: ss[p] for p in keys.PAGE_PARAMS.get(page, ()) if p in ss})


def stay_or_explore(page: str) -> None:
    """A following student on another page than the room's, with nothing changed in the room
    (a link such as *Exit presentation*, the browser's Back), explores on their own."""
    s = seat()
    if s is not None and s.role == "student" and s.following and s.page and s.page != page:
        explore()


def take_step() -> bool:
    """A follower's slide or lab, rerun alone: take the room's step and the page's picks if
    nothing else changed. False when a full run must take the rest: another page or example,
    a pause or a question, a class that ended, a store that is down or back."""
    s = seat()
    room = _room(s) if s is not None and s.following and not edited_on_own(s) else None
    if room is None or s.down:
        return False
    shown = (state.current_page(), s.scenario, s.paused, s.question, s.join_screen)
    if (room.page, room.scenario, room.paused, room.question, room.join) != shown:
        s.page = room.page  # room_page_elsewhere() says where the class went
        return False
    if room.version != s.applied:
        st.session_state[keys.PRESENT_STEP] = room.step
        st.session_state.update(_page_params(room.page, room.params or {}))
        s.applied = room.version
    return True


def phone_asks() -> None:
    """A following phone's watcher asks for the room's change. When this session took that
    change already, the phone missed the run that drew it (Streamlit can lose a run's
    messages: bench/RESULTS.md, issue 31), and the session believes the phone shows a page
    it does not: take the room afresh (its page too) and send the address again. Without
    it, the next run of the phone's old page made the student explore."""
    s = seat()
    if s is None or s.role != "student" or not s.following:
        return
    room = _room(s)  # the store's, not this process's mirror: another one may be ahead
    if room is not None and room.version == s.applied:
        s.applied = 0  # as back_to_teacher: the next follow takes everything
        state.resend_url()


def edited_on_own(s: Seat) -> bool:
    """A following student who edited the example (tokens, numbers, sizes, mode) explores
    from then on, and is told so: the teacher's next change would have replaced the edit
    without a word (issue 41, 7). Back to the teacher takes the class's example again."""
    if s.role != "student" or not s.following or state.own_edits() == s.edits:
        return False
    explore()
    s.edited = True  # the bar says why (live.phone)
    return True


def room_page_elsewhere() -> str | None:
    """The page the class is on, as ``take_step`` last read it, when a following seat's page
    is another one (None: the same page)."""
    s = seat()
    if s is None or not s.following or not s.page or s.page == state.current_page():
        return None
    return s.page


def _room(s: Seat) -> Room | None:
    """The seat's room, seen (the count, and its version file kept fresh); None when it
    ended (the seat is left) or the store is down (the seat says so)."""
    try:
        room = hub().rooms.get(s.code)
    except NoRoomError:
        leave(_("The live class has ended."))
        return None
    except StoreDownError:
        s.down = True
        return None
    hub().seen(s.id, s.code, student=not s.teaching)
    return room


def leave(message: str = "") -> None:
    s = seat()
    if s is not None:
        hub().left(s.id, s.code)
        if s.role == "student":  # a class's phone is not offered "Go live" afterwards
            st.session_state[keys.LIVE_WAS_STUDENT] = True
    st.session_state[keys.LIVE] = None
    state.drop_url_value(keys.JOIN)
    if message:
        state.flash(message)


def explore() -> None:
    """A student stops following (their edits never reach the room in any case)."""
    if (s := seat()) is not None and s.role == "student" and s.following:
        s.following = False
        hub().left(s.id, s.code)


def following_student() -> bool:
    """A student whose screen follows the teacher's (their Back/Next are the teacher's)."""
    s = seat()
    return s is not None and s.role == "student" and s.following


def back_to_teacher() -> None:
    if (s := seat()) is not None:
        s.following, s.applied = True, 0  # applied 0: take the room afresh
        s.edits, s.edited = state.own_edits(), False  # the edits made meanwhile stay behind
