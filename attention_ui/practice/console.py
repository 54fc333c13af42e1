"""The teacher's console: a live class's controls, on the laptop beside the projector or on
the teacher's phone, never on the projected screen (as Pear Deck's dashboard is apart from its
projector view).

It drives the room, and the teacher's projector and every phone follow: the step, the page
the class is on, the example, pause, the join screen, a question and its reveal, the end. It
is never the room's page itself: opening it does not take the class anywhere. A teacher with
one screen opens it in a second window beside the projector's.
"""

from __future__ import annotations

import streamlit as st

from attention_core import InputError, Scenario
from attention_ui.classroom.rooms import Room
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, state
from attention_ui.frame.pages import ALL_PAGES, BY_KEY, WALKTHROUGH
from attention_ui.frame.sidebar import preset_picker, undo_control
from attention_ui.i18n import _
from attention_ui.live import ask_console, console, pace_console, projector, room_control, seats
from attention_ui.live.phone import RECONNECTING
from attention_ui.practice import present
from attention_ui.stages.registry import BY_KEY as STAGE_BY_KEY

TITLE = BY_KEY["console"].title
GO_TO_KEY = "console_go_to"
WALK = tuple(p.key for p in WALKTHROUGH)  # the walkthrough's pages, in order


def render() -> None:
    st.title(_(TITLE), anchor=False)
    s = seats.seat()
    if s is None or not s.teaching:
        _not_live()
        return
    room = room_control.room()
    if room is None:  # the store not reached yet this session: End stays (issue 41)
        st.warning(_(RECONNECTING), icon=":material/sync_problem:")
        _end()
        return
    try:
        scenario = Scenario.from_url(room.scenario)
    except InputError:  # the app writes rooms: only another version of it could fail here
        scenario = state.get_scenario()
    st.html(CSS)
    _header(s, room)
    console.address_check()  # a join address no phone can open, said before anything
    if (why := seats.hub().watch_file_error()) is not None:  # the server's, never a student's
        st.warning(_("Phones on this server follow only every few seconds: it cannot write "
                     "the class's watch file ({error}).").format(error=md_escape(why)),
                   icon=":material/warning:")  # fmt: skip
    pace_console.console_panel(room)  # a class at its own pace: its pacing and dashboard
    lead, ask = st.columns([1, 1], gap="large")
    with lead:
        stage = _where(room, scenario)
        _go_to(room)
        _example()
        _pause_and_join(s, room)
    with ask, st.container(key="console_ask"):
        ask_console.console_results()
        with st.expander(_("Ask the class"), icon=":material/quiz:", expanded=not room.question):
            ask_console.teacher_ask(stage, scenario)
    with st.container(key="console_link"):
        console.control_link(s)
    _end()


def _not_live() -> None:
    st.markdown(
        _(
            "Lead a live class from here, off the projector. **Go live** opens a class on "
            "presentation mode's first slide with the current example; open presentation mode "
            "(or any page) on the projector, and every phone that joins follows you there."
        )
    )
    projector.go_live_button("present")
    st.caption(_("Already leading a class on another device? Open your control link here."))


def _header(s: seats.Seat, room: Room) -> None:
    with st.container(horizontal=True, vertical_alignment="center", key="console_head"):
        st.markdown(":red[●] " + _("**Live class {code}**").format(code=s.code))
        projector.count_line()
        st.link_button(_("Open the projector view"), _projector_url(room), icon=":material/tv:",
                       help=_("The class's page as the class sees it, with the join code, in "
                              "a new tab: put that window on the projector."))  # fmt: skip


def _projector_url(room: Room) -> str:
    return projector.here("" if room.page == "start" else room.page)


def _where(room: Room, scenario: Scenario) -> str:
    """Where the class is, with Back and Next on a slide; returns the stage on screen (what
    Ask suggests)."""
    page = BY_KEY[room.page]
    if room.page in WALK:
        return _walk(room.page)
    if room.page != "present":
        st.markdown(_("The class is on **{page}**.").format(page=md_escape(_(page.title))))
        return room.page if room.page in STAGE_BY_KEY else ""
    plan = present.steps(scenario, scenario.trace())
    n = len(plan)
    k = min(max(room.step, 1), n)
    st.markdown(_("The class is on **{page}**, step {k} of {n}: **{step}**").format(
        page=md_escape(_(page.title)), k=k, n=n, step=md_escape(_(plan[k - 1].title))))  # fmt: skip
    with st.container(horizontal=True, key="console_steps"):
        st.button(_("Back"), key="console_back", icon=":material/arrow_back:", disabled=k == 1,
                  on_click=guard.callback(room_control.drive), kwargs={"step": k - 1})  # fmt: skip
        st.button(_("Next"), key="console_next", type="primary", icon=":material/arrow_forward:",
                  disabled=k == n, on_click=guard.callback(room_control.drive),
                  kwargs={"step": k + 1})  # fmt: skip
    return "intro" if plan[k - 1].stage == "intro" else plan[k - 1].stage


def _walk(key: str) -> str:
    """A walkthrough page: where it is among them, with Back and Next to the page before and
    after (the class's scenario goes along, as with "Take the class to"). Returns its stage."""
    k, n = WALK.index(key) + 1, len(WALK)
    st.markdown(_("The class is on **{page}**, page {k} of {n} of the walkthrough.").format(
        page=md_escape(_(BY_KEY[key].title)), k=k, n=n))  # fmt: skip
    with st.container(horizontal=True, key="console_steps"):
        st.button(_("Back"), key="console_back", icon=":material/arrow_back:", disabled=k == 1,
                  on_click=guard.callback(room_control.drive),
                  kwargs={"page": WALK[k - 2] if k > 1 else key, "params": {}})  # fmt: skip
        st.button(_("Next"), key="console_next", type="primary", icon=":material/arrow_forward:",
                  disabled=k == n, on_click=guard.callback(room_control.drive),
                  kwargs={"page": WALK[k] if k < n else key, "params": {}})  # fmt: skip
    return key if key in STAGE_BY_KEY else ""


def _go_to(room: Room) -> None:
    """Take the class to another page: the projector and every phone go there."""
    options = [p.key for p in ALL_PAGES if not p.console]
    with st.container(horizontal=True, vertical_alignment="bottom", key="console_go"):
        names = {k: _(BY_KEY[k].title) for k in options}  # translated once (ask.teacher_ask)
        st.selectbox(_("Take the class to"), options, index=options.index(room.page),
                     key=GO_TO_KEY, format_func=names.__getitem__)  # fmt: skip
        st.button(_("Go there"), key="console_go_btn", icon=":material/east:",
                  on_click=guard.callback(_go))  # fmt: skip


def _go() -> None:
    room_control.drive(page=st.session_state[GO_TO_KEY], params={})


def _example() -> None:
    with st.expander(_("Change the example"), icon=":material/swap_horiz:"):
        st.caption(_("At any step: the projector and every phone take it at once."))
        preset_picker("console_preset")
        undo_control("console_undo")


def _pause_and_join(s: seats.Seat, room: Room) -> None:
    with st.container(horizontal=True, key="console_controls"):
        if s.paused:
            st.button(_("Go on"), key="live_resume", type="primary", icon=":material/play_arrow:",
                      on_click=guard.callback(room_control.set_paused), args=(False,))  # fmt: skip
        else:
            st.button(_("Pause: eyes on the screen"), key="live_pause_btn", icon=":material/pause:",
                      on_click=guard.callback(room_control.set_paused), args=(True,))  # fmt: skip
        shown = room.join
        st.button(_("Hide the join screen") if shown else _("Show the join screen"),
                  key="console_join", icon=":material/qr_code_2:",
                  on_click=guard.callback(room_control.drive),
                  kwargs={"join": not shown})  # fmt: skip


def _end() -> None:
    with st.popover(_("End the class"), icon=":material/stop:", key="console_end"):
        st.markdown(_("Every phone leaves the class, and its answers are deleted with it."))
        st.button(_("End it for everyone"), key="live_end", type="primary",
                  on_click=guard.callback(room_control.end_class))  # fmt: skip


CSS = """
<style>
.st-key-console_head p { font-size: 1.15rem; margin: 0; }
/* The chosen option's text in the theme's ink: Streamlit's red on its pink reads 4.47:1 */
.st-key-live_ask_from button { color: inherit !important; }
</style>
"""
