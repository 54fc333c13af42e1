"""A class at its own pace, on the teacher's screens: starting it, pacing it, and the
dashboard of who is where (the store side: ``classroom.pace``; a student's: ``pace_phone``).

The console's dashboard reads the room's seats and checks once a second (a fragment) and
shows the grid of seats by step, the counts per step with the named slips most common
first, and who is stuck. Nicknames are the students' own text: every one goes through
``md_escape``, so none is ever Markdown or HTML. The projector's card shows the counts
only, never a seat or a name.
"""

from __future__ import annotations

import io
import time
import zipfile

import streamlit as st

from attention_core.exercises import all_exercises, exercise_by_id
from attention_ui.classroom.pace import (
    NOT_TRIED,
    RIGHT,
    SOLUTION,
    Board,
    Pace,
    Practice,
    board,
    csv_text,
    seat_json,
    slip_label,
)
from attention_ui.classroom.record import NO_LOCK_LABEL
from attention_ui.classroom.rooms import NoRoomError, Room
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard
from attention_ui.frame.language import picked_id, picked_ids, relabelled
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.live import seats
from attention_ui.storage.store import StoreDownError

REFRESH_S = 1.0  # the dashboard's own reads: an answer shows within about a second
PICK_KEY, OPEN_KEY, LOCK_KEY, STUCK_KEY = "pace_pick", "pace_open", "pace_lock", "pace_stuck"
PROJECT_KEY = "pace_project"
NO_LOCK = ""
MARK = {NOT_TRIED: "·", RIGHT: "✓", SOLUTION: N_("solution")}  # _() where shown


def _pace() -> Pace:
    return Pace(seats.hub().rooms)


# The pickers' own placeholder: Streamlit's default ("Choose options") is English.
PICK_EXERCISES = N_("Choose exercises")


def _titles() -> dict[str, str]:
    return {ex.id: tr(ex.short_title) for ex in all_exercises()}


# ---- the console ------------------------------------------------------------------------------
def console_panel(room: Room) -> None:
    """Start a practice, or pace the one under way and watch its dashboard."""
    p = Practice.of(room.practice)
    if p is None:
        _start_form()
        return
    if not p.clean(room.practice) and p.open:
        _change(**p.record())  # ids again where a label was (what a console before wrote)
    with st.container(key="pace_controls", border=True):
        st.markdown(_("**Practice at their own pace** on the Exercises page, with the same "
                      "code: phones that join go there."))  # fmt: skip
        _unknown(p)
        _pacing(p)
    _dashboard()


def _unknown(p: Practice) -> None:
    """What the room's record named that is no exercise of this app: left out, said."""
    if p.unknown:
        st.warning(_("The class's record named what is no exercise here: {names}. It is left "
                     "out; open or lock exercises below.").format(
                         names=", ".join(f"“{md_escape(x)}”" for x in p.unknown)),
                   icon=":material/report:")  # fmt: skip
    if not p.open:
        st.warning(_("No exercise is open: open one below."), icon=":material/report:")


def _start_form() -> None:
    titles = _titles()
    with st.expander(_("Practice at their own pace"), icon=":material/checklist:"):
        st.caption(_("Each student works through the exercises you open, on their own phone; "
                     "this console shows who is where and who is stuck."))  # fmt: skip
        st.multiselect(_("Exercises open"), list(titles), default=list(titles)[:1],
                       key=relabelled(PICK_KEY), format_func=titles.get,
                       placeholder=_(PICK_EXERCISES))  # fmt: skip
        st.button(_("Start the practice"), key="pace_start", type="primary",
                  icon=":material/play_arrow:", on_click=guard.callback(_start))  # fmt: skip


def _start() -> None:
    s = seats.seat()
    picked = picked_ids(PICK_KEY, _titles())
    if not picked:
        st.toast(_("Open at least one exercise."))
        return
    try:
        _pace().start(s.code, s.secret, picked)
    except StoreDownError:
        s.down = True
        st.toast(_("Not started: the live class cannot be reached just now."))


def _pacing(p: Practice) -> None:
    titles = _titles()
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    opened, locked = f"{OPEN_KEY}_{p.open}", f"{LOCK_KEY}_{p.lock}_{p.open}"
    c1.multiselect(_("Open"), list(titles), default=list(p.open), key=relabelled(opened),
                   format_func=titles.get, placeholder=_(PICK_EXERCISES),
                   on_change=guard.callback(_open), args=(opened,))  # fmt: skip
    options = [NO_LOCK, *p.open]
    c2.selectbox(_("Lock the class to"), options, index=options.index(p.lock),
                 key=relabelled(locked),
                 format_func={**titles, NO_LOCK: _(NO_LOCK_LABEL)}.__getitem__,
                 on_change=guard.callback(_lock), args=(locked,))  # fmt: skip
    row = st.container(horizontal=True, vertical_alignment="bottom", key="pace_row")
    after = _next_exercise(p)
    nxt = (
        _("Open the next: {exercise}").format(exercise=titles[after])
        if after
        else _("Open the next")
    )
    row.button(nxt, key="pace_next",
               icon=":material/skip_next:", disabled=after is None,
               on_click=guard.callback(_change), kwargs=_next_changes(p, after))  # fmt: skip
    row.number_input(_("Stuck after (minutes without progress)"), 1, 120,
                     value=max(1, int(p.stuck_s // 60)), key=f"{STUCK_KEY}_{p.stuck_s}",
                     on_change=guard.callback(_stuck), args=(f"{STUCK_KEY}_{p.stuck_s}",),
                     width=180)  # fmt: skip
    row.toggle(_("Counts on the projector (no names)"), value=p.projected, key=PROJECT_KEY,
               on_change=guard.callback(_project))  # fmt: skip
    row.button(_("Stop the practice"), key="pace_stop", icon=":material/stop_circle:",
               on_click=guard.callback(_stop))  # fmt: skip


def _next_exercise(p: Practice) -> str | None:
    """The exercise after the locked one (or the last open one), in the catalogue."""
    ids = [ex.id for ex in all_exercises()]
    last = p.lock or (p.open[-1] if p.open else "")
    k = ids.index(last) + 1 if last in ids else 0
    return ids[k] if k < len(ids) else None


def _next_changes(p: Practice, after: str | None) -> dict:
    if after is None:
        return {}
    opened = [*p.open, after]
    return {"open": opened, "lock": after} if p.lock else {"open": opened}


def _change(**changes: object) -> None:
    s = seats.seat()
    try:
        _pace().change(s.code, s.secret, **changes)
    except StoreDownError:
        s.down = True
        st.toast(_("Not changed: the live class cannot be reached just now."))
    except ValueError:
        pass  # the practice was stopped meanwhile: the next run shows it


def _open(key: str) -> None:
    picked = picked_ids(key, _titles())
    if picked:
        _change(open=picked)
    elif picked is not None:
        st.toast(_("At least one exercise stays open."))


def _lock(key: str) -> None:
    if (picked := picked_id(key, [NO_LOCK, *_titles()])) is not None:
        _change(lock=picked)


def _stuck(key: str) -> None:
    _change(stuck_s=60.0 * float(st.session_state.get(key) or 5))


def _project() -> None:
    _change(projected=bool(st.session_state.get(PROJECT_KEY)))


def _stop() -> None:
    s = seats.seat()
    try:
        _pace().stop(s.code, s.secret)
    except StoreDownError:
        s.down = True


def _board() -> tuple[Board, dict] | None:
    """The practice's board now; None when there is none or the store cannot say."""
    s = seats.seat()
    try:
        room = seats.hub().rooms.get(s.code)
        p = Practice.of(room.practice)
        if p is None:
            return None
        infos, work = _pace().snapshot(s.code)
    except NoRoomError:
        return None  # the class ended: the console's next run says so
    except StoreDownError:
        st.caption(_("Live class: reconnecting… the checks are kept in the class's store."))
        return None
    return board(infos, work, p, time.time()), work


@st.fragment(run_every=REFRESH_S)
def _dashboard() -> None:
    if (out := _board()) is None:
        return
    b, work = out
    with st.container(key="pace_dashboard"):
        n = len(b.seats)
        who = ngettext("**{n} student** in the practice", "**{n} students** in the practice", n)
        st.markdown(
            who.format(n=n)
            + " · "
            + ngettext("{n} stuck", "{n} stuck", len(b.stuck)).format(n=len(b.stuck))
        )
        _stuck_list(b)
        st.markdown(_("**Each step**"))
        st.markdown(
            _counts_table(b),
            help=_(
                "Tried: checked at least once. Right first: the first check was right. "
                "Right in the end: the last check is right."
            ),
        )
        st.markdown(_("**Each student** (✓ right, ✗ wrong with its slip, · not tried)"))
        with st.container(key="pace_grid"):
            st.markdown(_grid_table(b))
        row = st.container(horizontal=True)
        code = seats.seat().code
        row.download_button(_("The session (CSV)"), csv_text(b), file_name=f"practice-{code}.csv",
                            mime="text/csv", key="pace_csv", on_click="ignore")  # fmt: skip
        row.download_button(_("Each seat's progress (JSON, zip)"), _zip(b, work),
                            file_name=f"practice-{code}-progress.zip",
                            mime="application/zip", key="pace_json",
                            on_click="ignore")  # fmt: skip


def _stuck_list(b: Board) -> None:
    with st.container(key="pace_stuck_list"):
        if not b.stuck:
            st.caption(_("Nobody is stuck."))
            return
        st.markdown(
            "**"
            + _("Stuck")
            + "**\n\n"
            + "\n".join(f"- **{md_escape(seat.name)}**: {md_escape(why)}" for seat, why in b.stuck)
        )


def _counts_table(b: Board) -> str:
    heads = [_("Step"), _("Tried"), _("Right first"), _("Right in the end"),
             _("Slips, most common first")]  # fmt: skip
    lines = ["| " + " | ".join(md_escape(h) for h in heads) + " |", "|---|---:|---:|---:|---|"]
    for c in b.counts:
        slips = "; ".join(f"{md_escape(label)} {n}" for label, n in c.slips) or "—"
        lines.append(f"| {md_escape(c.title)} | {c.tried} | {c.right_first} | {c.right_end} "
                     f"| {slips} |")  # fmt: skip
    return "\n".join(lines)


def _grid_table(b: Board) -> str:
    if not b.seats:
        return _("No student yet: phones that join with the code appear here.")
    heads = [md_escape(f"{_number(ex)}·{tr(exercise_by_id(ex).step(step).title)}")
             for ex, step in b.steps]  # the step's title, in the reader's language  # fmt: skip
    student = md_escape(_("Student"))  # not inside the f-string: extraction reads calls only
    lines = [f"| {student} | " + " | ".join(heads) + " |",
             "|---|" + "---|" * len(heads)]  # fmt: skip
    for seat in b.seats:
        cells = []
        for ex, step in b.steps:
            c = b.cell(seat.key, ex, step)
            mark = _(MARK[c.status]) if c.status in MARK else f"✗ {slip_label(c.slip)}"
            cells.append(md_escape(mark) + (f" ({len(c.verdicts)})" if len(c.verdicts) > 1
                                            else ""))  # fmt: skip
        lines.append(f"| {md_escape(seat.name)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _number(ex: str) -> str:
    """An exercise's number, as its title starts ("1 · Paper toy" -> "1")."""
    return tr(exercise_by_id(ex).short_title).split(" ·")[0]


def _zip(b: Board, work: dict) -> bytes:
    """One progress file per seat, as the Exercises page writes it, named by seat number."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for seat in b.seats:
            z.writestr(f"seat-{seat.number}.json", seat_json(work.get(seat.key, [])))
    return buf.getvalue()


# ---- the projector ---------------------------------------------------------------------------
def projector_counts() -> None:
    """On a live teacher's projector while the teacher shows them: the counts per step and
    slip, never a seat or a name."""
    s = seats.seat()
    p = Practice.of(s.practice) if s is not None and s.teaching else None
    if p is None or not p.projected:
        return
    _projected()


@st.fragment(run_every=2.0)
def _projected() -> None:
    if (out := _board()) is None:
        return
    b, _ = out
    with st.container(key="pace_projected", border=True):
        n = len(b.seats)
        st.markdown(
            ngettext(
                "**The class at its own pace**: {n} student",
                "**The class at its own pace**: {n} students",
                n,
            ).format(n=n)
        )
        st.markdown(_counts_table(b))
