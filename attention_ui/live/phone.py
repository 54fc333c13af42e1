"""What a live class adds to a student's page: the follower's bar, the watcher that follows the
room, the pause notice, and the Start page's join box (the teacher's screens: ``teacher``).

Nothing here shows a name or the teacher's secret.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from attention_ui.classroom.hub import ASK_AGAIN_S, HEARTBEAT_S, IDLE_AGAIN_S, QUIET_MS, WATCH_S
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, state
from attention_ui.frame.pages import BY_KEY
from attention_ui.i18n import N_, _
from attention_ui.live import ask_phone, room_control, seats
from attention_ui.storage.store import StoreDownError

RECONNECTING = N_("Live class: reconnecting… This page works on its own meanwhile.")  # an msgid
BEHIND = N_("**The class has not got this yet**: the live class cannot be reached just now. "
            "Your last change is kept and sent as soon as it is back.")  # fmt: skip
# While the store is down, a teacher's screen tries it this often: the kept change reaches
# the class within about this of the store's return (a Redis client that failed waits
# RedisStore.PAUSE_S before it tries again).
RETRY_S = 0.5


# ---- a student's (or a second teacher device's) bar ------------------------------------------
def follow_bar(page_watches: bool = False, bar: Callable[[], None] | None = None) -> None:
    """Above every page of a session with a seat: where it stands, and how it follows.

    ``page_watches``: the page draws a following student's watcher itself (``watcher()``),
    in the fragment that the teacher's next step reruns alone (presentation mode).
    ``bar``: what a teacher's session shows here instead of a student's bar (the page's own
    strip or console draws it where there is none).
    """
    s = seats.seat()
    if s is None or (not s.teaching and s.role != "student"):
        return
    if s.role == "student":
        _student_bar(s)
        ask_phone.student_card()
    else:
        if bar is not None:
            bar()
        behind_notice()
    if s.following:
        if not (page_watches and _page_drawn(s)):
            _watch(s)
        _heartbeat()


def watcher() -> None:
    """A following student's watcher, where the page draws it (``follow_bar(page_watches=True)``):
    inside a fragment, its trigger reruns only that fragment."""
    s = seats.seat()
    if s is not None and s.following and _page_drawn(s):
        _watch(s)


def follow_here() -> None:
    """At the top of the fragment of a page that watches (``PageSpec.watches``): the
    teacher's next step or pick reruns only this fragment (a class's 110 phones rerun at
    once: bench/RESULTS.md); anything else the teacher changed takes a full run. Nothing
    for a session outside a class: its own picks rerun only the fragment."""
    s = seats.seat()
    if s is None or not s.following:
        return
    if own_run() and not seats.take_step():
        if (page := seats.room_page_elsewhere()) is not None:
            # the class moved on: straight to its page, whose run follows the room (one
            # run, not a run of this page that switches: 110 phones do it at once)
            st.switch_page(BY_KEY[page].path, query_params=state.share_query())
        st.rerun(scope="app")
    watcher()


def behind_notice() -> None:
    """On a teacher's screens (the projector's page, the console) while the store is down
    or a change waits for it: the class has not got it yet; tried again every RETRY_S."""
    s = seats.seat()
    if s is not None and s.teaching and (s.down or room_control.behind()):
        _retry()


@st.fragment(run_every=RETRY_S)
def _retry() -> None:
    """Write the kept change (``teaching.flush``), or see whether the store is back; once it
    is and nothing is kept any more, the full run draws the page as the class has it (and
    this notice goes)."""
    s = seats.seat()
    if s is None or not s.teaching:
        return
    if own_run():
        room_control.flush()
        if room_control.room() is not None and (s.down or not room_control.behind()):
            st.rerun(scope="app")
    if room_control.behind():
        st.warning(_(BEHIND), icon=":material/schedule_send:")


def _page_drawn(s: seats.Seat) -> bool:
    """Whether a following seat's page runs: a paused student sees only the pause notice."""
    return s.role == "student" and not s.paused


def _student_bar(s: seats.Seat) -> None:
    with st.container(key="live_bar", horizontal=True, vertical_alignment="center"):
        if s.down:
            st.warning(_(RECONNECTING), icon=":material/sync_problem:")
        elif s.following:
            st.markdown(":red[●] " + _("**Live class {code}**: following the teacher").format(
                code=s.code))  # fmt: skip
            st.button(_("Explore on my own"), key="live_explore", on_click=guard.callback(
                seats.explore), icon=":material/explore:")  # fmt: skip
        else:
            st.markdown(_("**Live class {code}**: exploring on your own").format(code=s.code))
            st.button(_("Back to the teacher"), key="live_back", type="primary",
                      on_click=guard.callback(seats.back_to_teacher),
                      icon=":material/keyboard_return:")  # fmt: skip
    if not s.following and s.edited:  # under the bar: a toast covered it on a phone
        st.caption(_("You changed the example, so you now explore on your own: the teacher's "
                     "steps no longer replace your edits. *Back to the teacher* takes the "
                     "class's example again."))  # fmt: skip


# The phone's side of the watch (hub.py says why): fetch the room's version file every
# WATCH_S, and ask for a rerun when it holds another number than the page shows.
#
# One request at a time. When a request reaches the server just as the session's previous
# run has ended, Streamlit starts a new runner and ignores the old one's last messages, so
# a run's drawing can be lost (bench/RESULTS.md, issue 31: with Streamlit's own 5 s timer for
# the heartbeat, 2-4 phones in 110 lost a step's run and waited 3 s). So the heartbeat's
# timer is this page's own (``BEAT_JS``), and both timers send only while the page is idle
# (no run requested or running, as Streamlit marks its root element) and not within QUIET_MS
# of the other's request.
#
# While the page still shows an old version, ask again: at once when a run has drawn the
# page since the ask (it was overtaken); when the page went idle IDLE_AGAIN_S after the ask
# with nothing drawn (a run was lost all the same, a tap's say); after ASK_AGAIN_S in any case.
# Static: the data is the app's own (a path and numbers), nothing the learner typed.
_SHARED_JS = """
const idle = () => {  // Streamlit's own state of the page's run, on its root element
  const app = document.querySelector("[data-testid='stApp']");
  return !app || app.dataset.testScriptState === "notRunning";
};
// idle, or a request long gone unanswered (a rerun Streamlit dropped leaves the page
// marked "rerun requested")
const mayRequest = (quiet, again) => {
  const since = Date.now() - (window.__alSentAt || 0);
  return since > quiet && (idle() || since > again);
};
const request = (trigger, name, value) => {
  window.__alSentAt = Date.now();
  trigger(name, value);
};
// Streamlit calls a component's function again on every run and keeps the latest call's
// cleanup for the unmount (another page, exploring): only that one stops the timer.
const timer = (el, every, tick) => {
  const call = (el.__alCalls || 0) + 1;
  el.__alCalls = call;
  const stop = () => {
    if (el.__alCalls !== call) return;
    clearInterval(el.__alTimer);
    el.__alTimer = 0;
  };
  if (!el.__alTimer) el.__alTimer = setInterval(tick, every);
  return stop;
};
"""
WATCH_JS = (
    _SHARED_JS
    + """
export default function ({ data, parentElement: el, setTriggerValue }) {
  el.__alWatch = data;  // the latest run's version and address
  el.__alDrawn = Date.now();  // every run sends new data (its "run")
  el.__alTrigger = setTriggerValue;  // the latest run's (its fragment's) trigger
  return timer(el, data.every, async () => {
    const { url, version, again, idleAgain, quiet } = el.__alWatch;
    try {
      const answer = await fetch(`${url}?t=${Date.now()}`, { cache: "no-store" });
      if (!answer.ok) return;  // not mirrored yet, or gone: the heartbeat finds out
      const now = parseInt(await answer.text(), 10);
      const since = Date.now() - (el.__alAskedAt || 0);
      const dropped = el.__alDrawn > (el.__alAskedAt || 0) || since > again ||
        (since > idleAgain && idle());
      if (now && now !== version && (el.__alAsked !== now || dropped) && mayRequest(quiet, again)) {
        el.__alAsked = now;
        el.__alAskedAt = Date.now();
        request(el.__alTrigger, "changed", now);
      }
    } catch (e) { /* offline for a moment: the next tick tries again */ }
  });
}
"""
)
BEAT_JS = (
    _SHARED_JS
    + """
export default function ({ data, parentElement: el, setTriggerValue }) {
  el.__alTrigger = setTriggerValue;
  el.__alEvery = data.every;
  // Every run draws this (its data carries the run): that run has said "still here", so
  // the next beat is due `every` after it. A class's change makes every phone run at once;
  // then no phone beats for `every`, and the change's runs have the server to themselves.
  el.__alBeatAt = Date.now();
  // tick often, beat once `every` has passed and the page may send: never on top of an ask
  return timer(el, 250, () => {
    const due = Date.now() - (el.__alBeatAt || 0) >= el.__alEvery;
    if (!due || !mayRequest(data.quiet, data.again)) return;
    el.__alBeatAt = Date.now();
    request(el.__alTrigger, "beat", el.__alBeatAt);
  });
}
"""
)
_WATCH = st.components.v2.component("attention_lab.live_watch", js=WATCH_JS)
_BEAT = st.components.v2.component("attention_lab.live_beat", js=BEAT_JS)


def _watch(s: seats.Seat) -> None:
    """The watcher: a trigger reruns the app, whose first step follows the room."""
    data = {"url": seats.hub().watch_path(s.code), "version": s.applied,
            "every": int(WATCH_S * 1000), "again": int(ASK_AGAIN_S * 1000),
            "idleAgain": int(IDLE_AGAIN_S * 1000), "quiet": QUIET_MS,
            "run": time.monotonic_ns()}  # fmt: skip
    _WATCH(key="live_watch", data=data, on_changed_change=guard.callback(seats.phone_asks))


@st.fragment
def _heartbeat() -> None:
    """Every HEARTBEAT_S (its own timer, BEAT_JS): "still here" (the count), and the fallback
    check of the room."""
    s = seats.seat()
    if s is None or not s.following:
        return
    data = {
        "every": int(HEARTBEAT_S * 1000),
        "quiet": QUIET_MS,
        "again": int(ASK_AGAIN_S * 1000),
        "run": time.monotonic_ns(),
    }  # a new run: the beat's timer starts again (BEAT_JS)
    _BEAT(key="live_beat", data=data, on_beat_change=lambda: None)
    try:
        seats.hub().seen(s.id, s.code, student=not s.teaching)
        version = seats.hub().version(s.code)
    except StoreDownError:
        if not s.down and own_run():
            s.down = True
            st.rerun(scope="app")  # say "reconnecting"
        return
    if (s.down or version != s.applied) and own_run():
        st.rerun(scope="app")  # back, changed or ended: the full run takes it


def own_run() -> bool:
    """Whether this is the fragment's own timed run (not the page's full run, which has
    just read the room: rerunning the page from there would loop)."""
    return guard.own_fragment_run()


def pause_screen() -> bool:
    """A calm full-screen notice while the teacher has paused the class; True if shown."""
    s = seats.seat()
    if s is None or s.role != "student" or not s.following or not s.paused:
        return False
    st.html(PAUSE_CSS)
    with st.container(key="live_pause"):
        st.markdown("## " + _("Eyes on the screen"))
        st.markdown(_("Your teacher has paused the class. This page comes back by itself."))
    return True


PAUSE_CSS = """
<style>
.st-key-live_pause { position: fixed; inset: 0; z-index: 999990; display: flex;
  flex-direction: column; justify-content: center; align-items: center; text-align: center;
  padding: 2rem; background: var(--st-background-color, #FFFFFF); }
.st-key-live_pause h2 { font-size: 2.4rem; }
.st-key-live_pause p { font-size: 1.3rem; }
/* Nothing to Tab to under the notice (WCAG 2.4.11): the menu and the bar are hidden. */
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], .st-key-live_bar { visibility: hidden; }
</style>
"""


# ---- the Start page's join box -----------------------------------------------------------------
def join_box() -> None:
    """Type the code the teacher shows: the same as opening ``?join=CODE``."""
    s = seats.seat()
    if s is not None:
        st.caption(_("You are in live class {code}.").format(code=s.code))
        return
    with st.form("live_join", border=False, enter_to_submit=True):
        c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
        example = _("e.g. {example}").format(example="K7MQ4")  # an example, not a value
        c1.text_input(_("Join a live class: the code on your teacher's screen"), key="live_code",
                      max_chars=16, placeholder=example)  # fmt: skip
        c2.form_submit_button(
            _("Join"), key="live_join_go", on_click=guard.callback(_join_typed), type="primary"
        )
    message = seats.join_message()
    if message:
        st.error(md_escape(message))


def _join_typed() -> None:
    seats.join(st.session_state.get("live_code", ""))  # a failure says why (join_message)
