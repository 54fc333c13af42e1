"""What a live class adds to a page: the follower's bar, the pause notice, the teacher's panel
in presentation mode, and the Start page's join box.

Nothing here shows a name or the teacher's secret: the projector shows the code, the join
address, its QR code and how many follow.
"""

from __future__ import annotations

import html
import time

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attention_core import Scenario
from attention_ui.draw.text import count, md_escape
from attention_ui.frame import guard
from attention_ui.live import ask, session
from attention_ui.live.address import join_address
from attention_ui.live.hub import ASK_AGAIN_S, HEARTBEAT_S, WATCH_S
from attention_ui.live.qr import qr_img
from attention_ui.storage.store import StoreDownError

RECONNECTING = "Live class: reconnecting… This page works on its own meanwhile."
COUNT_EVERY_S = 2.0


# ---- a student's (or a second teacher device's) bar ------------------------------------------
def follow_bar(page_watches: bool = False) -> None:
    """Above every page of a session with a seat: where it stands, and how it follows.

    ``page_watches``: the page draws a following student's watcher itself (``watcher()``),
    in the fragment that the teacher's next step reruns alone (presentation mode).
    """
    s = session.seat()
    if s is None or (not s.teaching and s.role != "student"):
        return
    if s.role == "student":
        _student_bar(s)
        ask.student_card()
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
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.fragment_ids_this_run)


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


# ---- the teacher's panel (presentation mode) --------------------------------------------------
def teacher_panel(page: str, stage: str = "", scenario: Scenario | None = None) -> None:
    """Start a live class, or show how to join it and drive it."""
    s = session.seat()
    if s is None or not s.teaching:
        if s is None:
            st.button("Go live", key="live_start", icon=":material/groups:", width="stretch",
                      on_click=guard.callback(session.start_class), args=(page,),
                      help="Start a live class: students join with a code or a QR code, and "
                      "their phones follow your steps.",
                      )  # fmt: skip
        return
    with st.popover(f"Live {s.code}", icon=":material/groups:", key="live_panel",
                    width="stretch"):  # fmt: skip
        _join_card(s.code)
        _controls(s)
        if scenario is not None:
            ask.teacher_ask(stage, scenario)
    _count()


def _join_card(code: str) -> None:
    """The address, the code in big letters, and the QR code of ``<address>/?join=CODE``."""
    address = join_address(st.context.url)
    url = address.join_url(code)
    st.html(
        f'<div class="al-join"><p>Join at <b class="al-address">{html.escape(address.base)}</b>'
        f' with the code</p><p class="al-code" aria-label="code {" ".join(code)}">{code}</p>'
        f"{qr_img(url, f'QR code of {url}')}</div>"
        "<style>.al-join p { font-size: 1.4rem; margin: 0.2rem 0; }"
        ".al-join .al-code { font-size: 4rem; font-weight: 700; letter-spacing: 0.4em; }"
        ".al-join .al-qr { max-width: 100%; height: auto; }</style>"
    )
    if not address.reachable:
        st.warning(
            "This address is this computer's own (loopback): phones cannot reach it. "
            "Set ATTENTION_LAB_PUBLIC_URL, or start the app with make classroom."
        )


def _controls(s: session.Seat) -> None:
    row = st.container(horizontal=True)
    if s.paused:
        row.button("Go on", key="live_resume", type="primary", icon=":material/play_arrow:",
                   on_click=guard.callback(session.set_paused), args=(False,))  # fmt: skip
    else:
        row.button("Pause: eyes on the screen", key="live_pause_btn", icon=":material/pause:",
                   on_click=guard.callback(session.set_paused), args=(True,))  # fmt: skip
    row.button("End the class", key="live_end", icon=":material/stop:",
               on_click=guard.callback(session.end_class))  # fmt: skip
    st.caption(
        "To drive the class from another device (your phone as a remote), open your "
        "control link there. It is not shown here, so the projector never shows it."
    )
    _copy_control_link(s)


def _copy_control_link(s: session.Seat) -> None:
    """A button that copies the control link to the clipboard without displaying it."""
    link = f"{join_address(st.context.url).base}/present?teach={s.code}.{s.secret}"
    st.html(COPY_JS.replace("LINK", link), unsafe_allow_javascript=True)


COPY_JS = """
<button type="button" class="al-copy-control" style="padding:0.4rem 0.8rem;min-height:2.5rem;
border-radius:0.5rem;border:1px solid rgba(49,51,63,0.4);background:transparent;color:inherit;
cursor:pointer">Copy my control link</button>
<script>
(() => {
  for (const b of document.querySelectorAll("button.al-copy-control")) {
    if (b.dataset.ready) continue;
    b.dataset.ready = "1";
    b.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText("LINK"); b.textContent = "Copied"; }
      catch (e) { b.textContent = "Copy failed: this browser blocks the clipboard"; }
    });
  }
})();
</script>
"""


@st.fragment(run_every=COUNT_EVERY_S)
def _count() -> None:
    s = session.seat()
    if s is None or not s.teaching:
        return
    n = session.followers()
    if n is None or s.down:
        st.caption(RECONNECTING)
        if s.down and own_run():  # try the last change again: a full run publishes it
            st.rerun(scope="app")
        return
    paused = " · paused" if s.paused else ""
    st.caption(f"Live class {s.code}: {count(n, 'student')} following{paused}")


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
