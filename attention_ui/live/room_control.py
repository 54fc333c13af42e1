"""A teacher's part in a live class: opening the room, writing into it, driving it, ending it.

The teacher's session (``session.Seat`` with the room's secret) is the only one that writes:

- ``start_class(page)`` opens a room showing what this session shows;
- ``publish(page)``, app.py's last step (``publish_current``), and ``publish_early`` at a
  run's start: the page, step, scenario and the page's picks, when they changed. Any page
  leads the class; the teacher's console only drives, it is never the room's page;
- ``drive(**changes)``, ``set_paused``, ``end_class``: the console's (and the projector's
  join screen's) direct changes.

A store that cannot be reached never stops a page: the seat says ``down``, and a change the
teacher made meanwhile is kept in the seat and written when the store is back (``flush``,
which a teacher's screen tries every ``teacher.RETRY_S`` until then).
"""

from __future__ import annotations

import time

import streamlit as st

from attention_ui.classroom.rooms import NoRoomError, NotTeacherError, Room
from attention_ui.frame import keys, state
from attention_ui.frame.pages import BY_KEY
from attention_ui.i18n import _
from attention_ui.live.seats import Seat, hub, page_params, seat
from attention_ui.storage.store import StoreDownError


def start_class(page: str) -> None:
    """Open a room showing what this session shows; this session becomes its teacher. The
    projector shows the join screen first: the class joins before the lesson starts."""
    step = int(st.session_state.get(keys.PRESENT_STEP, 1))
    room, secret = hub().rooms.open(page, step, state.scenario_url())
    s = Seat("teacher", room.code, secret, applied=room.version, page=page)
    st.session_state[keys.LIVE] = s
    st.session_state[keys.LIVE_SHOWN] = (page, step, room.scenario, {})
    _drive(s, join=True)


def publish(page: str | None) -> None:
    """A teacher's session writes its page, step, scenario and the page's picks into the room
    if they changed (``page`` None: the teacher's console, which is never the room's page)."""
    s = seat()
    if s is None or not s.teaching:
        return
    if s.pending:  # a change the store could not take: written first, if it is back
        _drive(s)
    if page is None:  # the console: only an example it loaded (it is never the room's page)
        _publish_scenario(s)
        return
    step = int(st.session_state.get(keys.PRESENT_STEP, 1))
    shown = (page, step, state.scenario_url(), page_params(page))
    if st.session_state.get(keys.LIVE_SHOWN) == shown:
        return
    _drive(s, page=page, step=step, scenario=shown[2], params=shown[3])
    st.session_state[keys.LIVE_SHOWN] = shown  # written, or kept until the store is back
    s.page = page


def _publish_scenario(s: Seat) -> None:
    shown = st.session_state.get(keys.LIVE_SHOWN)
    scenario = state.scenario_url()
    if shown is None or shown[2] == scenario:
        return
    _drive(s, scenario=scenario)
    st.session_state[keys.LIVE_SHOWN] = (shown[0], shown[1], scenario, shown[3])


def publish_current() -> None:
    """``publish`` the page this run shows (app.py's last step, and after a fragment's own
    rerun: a lab's pick in a fragment reaches the class too)."""
    page = state.current_page()
    publish(None if BY_KEY[page].console else page)


def publish_early() -> None:
    """At the start of a run (or a fragment's own rerun): a teacher's step or pick on the page
    the class already shows reaches the room before this run draws it, so the phones draw
    with the projector, not after it (the projector's full run took 1.5-2 s of a follow:
    bench/RESULTS.md). Only on the room's page, where the picks are all in the session's
    keys already; the run's end publishes again whatever the run itself changed."""
    flush()  # a change kept through an outage first: this run draws what the class has
    page = state.current_page()
    shown = st.session_state.get(keys.LIVE_SHOWN)
    if shown is not None and shown[0] == page and not BY_KEY[page].console:
        publish(page)


def drive(**changes: object) -> bool:
    """The teacher's console (or the projector's join screen) changes the room directly;
    False when it could not (the store is down: the change is kept; or the class ended)."""
    s = seat()
    if s is None or not s.teaching:
        return False
    _drive(s, **changes)
    return not s.down and seat() is s


def flush() -> bool:
    """Write the teacher's kept change if the store takes it now; True when none is left."""
    s = seat()
    if s is not None and s.teaching and s.pending:
        _drive(s)
    return s is None or not s.pending


def behind() -> bool:
    """Whether this teacher's last change, or one of the room's other teacher screens in this
    process (the projector beside this console), has not reached the class yet."""
    s = seat()
    return s is not None and s.teaching and (bool(s.pending) or hub().behind(s.code))


def room() -> Room | None:
    """The room of this session's seat as the store has it now (None: none, or unreachable)."""
    s = seat()
    try:
        return hub().rooms.get(s.code) if s is not None else None
    except (NoRoomError, StoreDownError):
        return None


def set_paused(paused: bool) -> None:
    if (s := seat()) is not None and s.teaching:
        _drive(s, paused=paused)
        s.paused = paused  # written, or kept until the store is back


def end_class() -> None:
    s = seat()
    if s is None or not s.teaching:
        return
    try:
        hub().rooms.end(s.code, s.secret)
    except (NoRoomError, NotTeacherError):
        pass
    except StoreDownError:
        s.down = True
        return
    st.session_state[keys.LIVE] = None
    state.flash(_("The live class has ended."))


def _drive(s: Seat, **changes: object) -> None:
    """Write ``changes`` with any the store could not take before. While the store is down
    they are kept in the seat (the latest value of each field, and when the teacher made
    it) and the screens say the class has not got them yet (``teacher.behind_notice``):
    a step lost in an outage left the class a step behind with no word (issue 41, 6)."""
    if changes:
        s.pending.update(changes)
        s.pending_at = time.time()
    try:
        room = hub().rooms.drive(s.code, s.secret, at=s.pending_at, **s.pending)
    except StoreDownError:
        s.down = True
        hub().keeping(s.id, s.code, True)
        return
    except (NoRoomError, NotTeacherError):
        st.session_state[keys.LIVE] = None
        state.flash(_("The live class has ended."))
        return
    # a field another device changed later keeps its value: this session takes the room's
    later = any(getattr(room, k) != v for k, v in s.pending.items())
    s.pending = {}
    hub().keeping(s.id, s.code, False)
    s.down, s.applied = False, 0 if later else room.version


def followers() -> int | None:
    """How many students follow the teacher's room now (None: the store cannot say)."""
    s = seat()
    try:
        return hub().rooms.followers(s.code) if s is not None else None
    except StoreDownError:
        return None
