"""Ask the class, on the teacher's screens: the question picker and live results on the console,
the count of answers on the projector (a student's card: ask_phone.py).

The teacher asks the number of one cell of the stage on screen (or takes the suggested
cell), or a step of one of the lessons' exercises as the Exercises page asks it; chooses
when students see their verdict; and watches the class's answers arrive as named slips.
Nothing here shows a name or another student's answer.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import Scenario
from attention_core.exercises import all_exercises
from attention_core.exercises.cell import CELL_STAGES
from attention_core.exercises.model import ChoiceStep, Step
from attention_ui.classroom.questions import (
    EXERCISE,
    FEEDBACK,
    Question,
    Tally,
    csv_text,
    question_title,
)
from attention_ui.frame import guard
from attention_ui.frame.language import relabelled
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.live import asking, room_control, seats
from attention_ui.live.figures import tally_alternative, tally_figure
from attention_ui.storage.store import StoreDownError
from attention_ui.views.chart import plot

# The stage a presentation step suggests asking about (a cell's, and an exercise step's id).
SUGGESTED = {"scores": "scores", "scaling": "scaled", "mask": "weights", "softmax": "weights",
             "output": "output"}  # fmt: skip
SUGGESTED_STEP = {**SUGGESTED, "mask": "mask"}
SOURCES = {"cell": N_("a number of this slide"), EXERCISE: N_("a lesson's exercise")}
# What "Ask for" offers, by CELL_STAGES key (the core's names build the question itself).
ASK_FOR = {"scores": N_("a score"), "scaled": N_("a scaled score"),
           "weights": N_("an attention weight"), "output": N_("an output entry")}  # fmt: skip


# ---- the teacher ---------------------------------------------------------------------------
def teacher_ask(stage_on_screen: str, scenario: Scenario) -> None:
    """Inside the Live panel: what to ask, and how students get their verdict."""
    s = seats.seat()
    if s is None or not s.teaching:
        return
    # Options' names translated here, once: a format_func looked up again outside this run
    # (AppTest formats a widget's value again in its own thread) gives the same text.
    sources = {k: _(v) for k, v in SOURCES.items()}
    source = st.segmented_control(_("Ask"), list(SOURCES), format_func=sources.__getitem__,
                                  default="cell", required=True,
                                  key=relabelled("live_ask_from"))  # fmt: skip
    if source == EXERCISE:
        _pick_exercise_step(stage_on_screen)
    else:
        _pick_cell(stage_on_screen, scenario)
    st.radio(_("Students see if they are right"), list(FEEDBACK), horizontal=True,
             format_func={k: _(v) for k, v in FEEDBACK.items()}.__getitem__,
             key=relabelled("live_ask_feedback"))  # fmt: skip
    st.toggle(_("Students may see the class's counts before the reveal"), key="live_ask_counts")
    st.button(
        _("Ask"),
        key="live_ask",
        type="primary",
        icon=":material/quiz:",
        on_click=guard.callback(_ask),
    )  # fmt: skip  (it reads the widgets' latest values)


def _pick_cell(stage_on_screen: str, scenario: Scenario) -> None:
    """The stage and the cell: the suggested one is the largest score's."""
    stages = list(CELL_STAGES)
    default = stages.index(SUGGESTED.get(stage_on_screen, "scaled"))
    names = {k: _(ASK_FOR[k]) if k in ASK_FOR else CELL_STAGES[k][0] for k in stages}
    stage = st.selectbox(_("Ask for"), stages, index=default, key=relabelled("live_ask_stage"),
                         format_func=names.__getitem__)  # fmt: skip
    t = scenario.trace()
    i, j = np.unravel_index(np.argmax(t.scores), t.scores.shape)  # the suggested cell
    c1, c2 = st.columns(2)
    rows = scenario.query_labels
    cols = scenario.key_labels if stage != "output" else [f"v{c + 1}" for c in
                                                          range(t.V.shape[1])]  # fmt: skip
    c1.selectbox(_("Query (row)"), range(len(rows)), index=int(i), key="live_ask_q",
                      format_func=lambda r: rows[r])  # fmt: skip
    c2.selectbox(_("Column"), range(len(cols)), index=min(int(j), len(cols) - 1),
                      key="live_ask_k", format_func=lambda c: cols[c])  # fmt: skip


def _pick_exercise_step(stage_on_screen: str) -> None:
    """One of the lessons' exercises and one of its steps; the suggested step is the one of
    the stage on screen, in the first exercise that has it."""
    want = SUGGESTED_STEP.get(stage_on_screen, "")
    exercises = {e.id: e for e in all_exercises()}
    first = next((k for k, e in enumerate(exercises.values())
                  if any(x.id == want for x in e.steps)), 0)  # fmt: skip
    titles = {k: tr(e.title) for k, e in exercises.items()}  # translated once (teacher_ask)
    ex_id = st.selectbox(_("Exercise"), list(exercises), index=first,
                         key=relabelled("live_ask_exercise"),
                         format_func=titles.__getitem__)  # fmt: skip
    steps = [x.id for x in exercises[ex_id].steps]
    names = {k: f"{i} · {tr(exercises[ex_id].step(k).title)}" for i, k in enumerate(steps, 1)}
    step_id = st.selectbox(
        _("Step"), steps, index=steps.index(want) if want in steps else 0,
        key=relabelled(f"live_ask_step_{ex_id}"),  # one per exercise: each has its own steps
        format_func=names.__getitem__,
    )  # fmt: skip
    st.caption(tr(exercises[ex_id].step(step_id).prompt))  # the catalogue's Markdown


def _ask() -> None:
    s, ss = seats.seat(), st.session_state
    feedback, counts = ss["live_ask_feedback"], bool(ss.get("live_ask_counts"))
    try:
        if ss.get("live_ask_from") == EXERCISE:
            ex = ss["live_ask_exercise"]
            asking.questions().ask(s.code, s.secret, EXERCISE, 0, 0, feedback, counts, exercise=ex,
                            step_id=ss[f"live_ask_step_{ex}"])  # fmt: skip
        else:
            asking.questions().ask(s.code, s.secret, ss["live_ask_stage"], ss["live_ask_q"],
                            ss["live_ask_k"], feedback, counts)  # fmt: skip
    except StoreDownError:
        s.down = True
        st.toast(_("Not asked: the live class cannot be reached just now."))


def projector_results() -> None:
    """On a live teacher's projector while a question is out: the question and how many
    answered; the class's counts only when the room may see them (``counts_public``). A
    card over the foot of the slide, so the slide keeps its place. No controls."""
    s = seats.seat()
    if s is None or not s.teaching or not s.question or not s.question.get("open", True):
        return  # none asked, or closed: the room keeps a closed question's record
    st.html(PROJECTED_CSS)
    _projected()


def _open_question() -> tuple[Question, Step, Tally] | None:
    """The room's open question as this session last read it, its step and its answers so
    far; None when there is none (or the store cannot say, which the page then says)."""
    s = seats.seat()
    q = Question.of(s.question) if s is not None and s.question else None
    if q is None or not q.open:
        return None
    try:
        return q, asking.room_step(s, q), asking.questions().tally(s.code, q.id)
    except StoreDownError:
        st.caption(_("Live class: reconnecting… the answers are kept in the class's store."))
        return None


@st.fragment(run_every=1.0)
def _projected() -> None:
    if (out := _open_question()) is None:
        return
    q, step, tally = out
    with st.container(key="live_projected", border=True):
        words, chart = st.columns([3, 2] if q.counts_public else [1, 0.001], gap="medium")
        with words, st.container(key="live_results_words"):
            st.markdown(_("**Question:** {question}").format(question=asking.prompt(q, step)))
            if isinstance(step, ChoiceStep):  # the phones list them too, as their radio
                st.markdown("\n".join(f"- {tr(step.option(k))}" for k in range(len(step.choices))))
            n = room_control.followers() or 0
            st.caption(ngettext("{answered} of {n} student answered",
                                "{answered} of {n} students answered", n).format(
                answered=tally.answered, n=n))  # fmt: skip
            if q.revealed:
                st.markdown(asking.answer_line(_("Answer"), step))
        if q.counts_public:
            with chart:
                _tally_chart(tally, "live_tally_projected")


PROJECTED_CSS = """
<style>
.st-key-live_projected { position: fixed; left: 1rem; right: 1rem; bottom: 0.75rem;
  width: auto !important; /* left and right size it: Streamlit's 100 % ran 15 px off screen */
  z-index: 999970; max-height: 42vh; overflow: auto;
  background: var(--st-background-color, #FFFFFF); box-shadow: 0 -2px 12px rgba(0,0,0,0.25); }
/* A page with its menu open (the teacher leads from a lab): the card starts beside the
   menu, not under it (Streamlit's sidebar is 300 px wide unless dragged). */
@media (min-width: 768px) {
  body:has([data-testid="stSidebar"][data-collapsed="false"]) .st-key-live_projected {
    left: calc(300px + 1rem); }
}
</style>
"""


def _tally_chart(tally: Tally, key: str) -> None:
    bars = tally.bars()
    plot(tally_figure(bars, tally.answered, room_control.followers()), key=key,
         alt=tally_alternative(bars, tally.answered))  # fmt: skip


def console_results() -> None:
    """On the teacher's console while a question is out: the answers as they arrive, as
    named slips, with Reveal, Close, the CSV, and whether the projector shows the counts."""
    s = seats.seat()
    if s is None or not s.teaching or not s.question or not s.question.get("open", True):
        return
    _results()


@st.fragment(run_every=1.0)
def _results() -> None:
    if (out := _open_question()) is None:
        return
    q, step, tally = out
    s = seats.seat()
    with st.container(key="live_results", border=True):
        st.markdown(_("**Question:** {question}").format(question=asking.prompt(q, step)))
        if q.revealed:
            st.markdown(asking.answer_line(_("Answer"), step))
        _tally_chart(tally, "live_tally")
        row = st.container(horizontal=True)
        if not q.revealed:
            row.button(_("Reveal"), key="live_reveal", type="primary", icon=":material/visibility:",
                       on_click=guard.callback(_update), args=({"revealed": True},))  # fmt: skip
        row.button(_("Close the question"), key="live_close", icon=":material/close:",
                   on_click=guard.callback(_update), args=({"open": False},))  # fmt: skip
        row.download_button(_("Results (CSV)"), csv_text(q, tally, question_title(q, step)),
                            file_name=f"class-{s.code}-{q.id}.csv", mime="text/csv",
                            key="live_csv", on_click="ignore")  # fmt: skip
        if not q.revealed:
            st.toggle(_("Show the counts on the projector"), value=q.projected,
                      key=f"live_project_{q.id}", on_change=guard.callback(_project),
                      args=(q.id,))  # fmt: skip


def _project(qid: str) -> None:
    _update({"projected": bool(st.session_state.get(f"live_project_{qid}"))})


def _update(changes: dict) -> None:
    s = seats.seat()
    q = Question.of(s.question)
    try:
        new = asking.questions().update(s.code, s.secret, q, **changes)
    except StoreDownError:
        s.down = True
        return
    s.question = None if not new.open else new.__dict__
