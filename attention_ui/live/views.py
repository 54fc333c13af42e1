"""What a live class adds to a student's page: the follower's bar, the watcher that follows the
room, the pause notice, and the Start page's join box (the teacher's screens: ``teacher``).

Nothing here shows a name or the teacher's secret.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from attention_ui.draw.text import md_escape
from attention_ui.frame import guard
from attention_ui.live import ask, session
from attention_ui.live.hub import ASK_AGAIN_S, HEARTBEAT_S, WATCH_S
from attention_ui.storage.store import StoreDownError

RECONNECTING = "Live class: reconnecting… This page works on its own meanwhile."


# ---- a student's (or a second teacher device's) bar ------------------------------------------
def follow_bar(page_watches: bool = False, bar: Callable[[], None] | None = None) -> None:
    """Above every page of a session with a seat: where it stands, and how it follows.

    ``page_watches``: the page draws a following student's watcher itself (``watcher()``),
    in the fragment that the teacher's next step reruns alone (presentation mode).
    ``bar``: what a teacher's session shows here instead of a student's bar (the page's own
    strip or console draws it where there is none).
    """
    s = session.seat()
    if s is None or (not s.teaching and s.role != "student"):
        return
    if s.role == "student":
        _student_bar(s)
        ask.student_card()
    elif bar is not None:
        bar()
    if s.following:
        if not (page_watches and _page_drawn(s)):
            _watch(s)
        _heartbeat()


def watcher() -> None:
    """A following student's watcher, where the page draws it (``follow_bar(page_watches=True)``):
    inside a fragment, its trigger reruns only that fragment."""
    s = session.seat()
    if s is not None and s.following and _page_drawn(s):
        _watch(s)


def follow_here() -> None:
    """At the top of the fragment of a page that watches (``PageSpec.watches``): the
    teacher's next step or pick reruns only this fragment (a class's 110 phones rerun at
    once: bench/RESULTS.md); anything else the teacher changed takes a full run. Nothing
    for a session outside a class: its own picks rerun only the fragment."""
    s = session.seat()
    if s is None or not s.following:
        return
    if own_run() and not session.take_step():
        st.rerun(scope="app")
    watcher()


def _page_drawn(s: session.Seat) -> bool:
    """Whether a following seat's page runs: a paused student sees only the pause notice."""
    return s.role == "student" and not s.paused


def _student_bar(s: session.Seat) -> None:
    with st.container(key="live_bar", horizontal=True, vertical_alignment="center"):
        if s.down:
            st.warning(RECONNECTING, icon=":material/sync_problem:")
        elif s.following:
            st.markdown(f":red[●] **Live class {s.code}**: following the teacher")
            st.button("Explore on my own", key="live_explore", on_click=guard.callback(
                session.explore), icon=":material/explore:")  # fmt: skip
        else:
            st.markdown(f"**Live class {s.code}**: exploring on your own")
            st.button("Back to the teacher", key="live_back", type="primary",
                      on_click=guard.callback(session.back_to_teacher),
                      icon=":material/keyboard_return:")  # fmt: skip


# The phone's side of the watch (hub.py says why): fetch the room's version file every
# WATCH_S, and ask for a rerun when it holds another number than the page shows. A rerun
# that another one overtook (a heartbeat's, a tap's) can drop the trigger: when a run has
# drawn the page since the ask and it still shows the old version, ask again at once; with
# no run at all since, ask again after ASK_AGAIN_S (1 phone in about 1,000 waited for its
# 5 s heartbeat otherwise). Not sooner: a busy server's slow run would be interrupted by
# the second ask (a rerun request restarts a running script). Static: the data is the
# app's own (a path and numbers), nothing the learner typed.
WATCH_JS = """
export default function ({ data, parentElement, setTriggerValue }) {
  parentElement.__alWatch = data;  // the latest run's version and address
  parentElement.__alDrawn = Date.now();  // every run sends new data (its "run")
  parentElement.__alTrigger = setTriggerValue;  // the latest run's (its fragment's) trigger
  // Streamlit calls this again on every run and keeps the latest call's cleanup for the
  // unmount (another page, exploring): only that one stops the timer.
  const call = (parentElement.__alCalls || 0) + 1;
  parentElement.__alCalls = call;
  const stop = () => {
    if (parentElement.__alCalls !== call) return;
    clearInterval(parentElement.__alTimer);
    parentElement.__alTimer = 0;
  };
  if (parentElement.__alTimer) return stop;
  parentElement.__alTimer = setInterval(async () => {
    const { url, version, every, again } = parentElement.__alWatch;
    try {
      const answer = await fetch(`${url}?t=${Date.now()}`, { cache: "no-store" });
      if (!answer.ok) return;  // not mirrored yet, or gone: the heartbeat finds out
      const now = parseInt(await answer.text(), 10);
      const askedAt = parentElement.__alAskedAt || 0;
      const dropped = parentElement.__alDrawn > askedAt || Date.now() - askedAt > again;
      if (now && now !== version && (parentElement.__alAsked !== now || dropped)) {
        parentElement.__alAsked = now;
        parentElement.__alAskedAt = Date.now();
        parentElement.__alTrigger("changed", now);
      }
    } catch (e) { /* offline for a moment: the next tick tries again */ }
  }, data.every);
  return stop;  // unmounted (another page, exploring): no more fetches
}
"""
_WATCH = st.components.v2.component("attention_lab.live_watch", js=WATCH_JS)


def _watch(s: session.Seat) -> None:
    """The watcher: a trigger reruns the app, whose first step follows the room."""
    data = {"url": session.hub().watch_path(s.code), "version": s.applied,
            "every": int(WATCH_S * 1000), "again": int(ASK_AGAIN_S * 1000),
            "run": time.monotonic_ns()}  # fmt: skip
    _WATCH(key="live_watch", data=data, on_changed_change=lambda: None)


@st.fragment(run_every=HEARTBEAT_S)
def _heartbeat() -> None:
    """Every HEARTBEAT_S: "still here" (the count), and the fallback check of the room."""
    s = session.seat()
    if s is None or not s.following:
        return
    try:
        session.hub().seen(s.id, s.code, student=not s.teaching)
        version = session.hub().version(s.code)
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
    s = session.seat()
    if s is None or s.role != "student" or not s.following or not s.paused:
        return False
    st.html(PAUSE_CSS)
    with st.container(key="live_pause"):
        st.markdown("## Eyes on the screen")
        st.markdown("Your teacher has paused the class. This page comes back by itself.")
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
    s = session.seat()
    if s is not None:
        st.caption(f"You are in live class {s.code}.")
        return
    with st.form("live_join", border=False, enter_to_submit=True):
        c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
        c1.text_input("Join a live class: the code on your teacher's screen", key="live_code",
                      max_chars=16, placeholder="K7MQ4")  # fmt: skip
        c2.form_submit_button("Join", on_click=guard.callback(_join_typed), type="primary")
    message = session.join_message()
    if message:
        st.error(md_escape(message))


def _join_typed() -> None:
    session.join(st.session_state.get("live_code", ""))  # a failure says why (join_message)
