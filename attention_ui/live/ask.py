"""Ask the class, on screen: the teacher's question picker and live results, a student's card.

The teacher asks the number of one cell of the stage on screen (or takes the suggested
cell), or a step of one of the lessons' exercises as the Exercises page asks it; chooses
when students see their verdict; and watches the class's answers arrive as named slips.
A student types a number (or a small matrix, or picks an option) on the phone; the
exercises' own parser and checker read it. Nothing here shows a name or another student's
answer.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import InputError, Scenario
from attention_core.exercises import all_exercises, exercise_by_id
from attention_core.exercises.cell import CELL_STAGES
from attention_core.exercises.checker import check_answer, check_choice, read_answer
from attention_core.exercises.model import ChoiceStep, Feedback, Step
from attention_core.exercises.text import answer_format
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.live import session, teaching
from attention_ui.live.figures import tally_alternative, tally_figure
from attention_ui.live.questions import (
    EXERCISE,
    FEEDBACK,
    Question,
    Questions,
    Tally,
    Value,
    answer_text,
    csv_text,
    question_step,
    question_title,
)
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
ANSWER_KEY, CHOICE_KEY = "live_answer", "live_choice"
ANSWER_FOR = "live_answer_for"  # the question the answer box was last drawn for
NOT_SENT = N_("Nothing was sent: correct it and send again.")
NOT_SENT_DOWN = N_("Not sent yet: the class cannot be reached just now. Your answer is kept "
                   "and goes out by itself when the class is back, or press Send to try "
                   "again.")  # fmt: skip


def questions() -> Questions:
    return Questions(session.hub().rooms)


def room_step(s: session.Seat, q: Question) -> Step:
    """The question as an exercise step, the same on any phone (the room's scenario)."""
    return question_step(q, s.scenario)


def _prompt(q: Question, step: Step) -> str:
    """The question in Markdown: a cell's names tokens the teacher typed (escaped); an
    exercise's is the catalogue's own Markdown and LaTeX, with the exercise's numbers."""
    if q.stage != EXERCISE:
        return md_escape(tr(step.prompt))
    ex = exercise_by_id(q.exercise)
    return (f"*{md_escape(tr(ex.title))}*\n\n{_one_matrix_a_line(tr(ex.statement))}\n\n"
            f"{tr(step.prompt)}")  # fmt: skip


def _one_matrix_a_line(statement: str) -> str:
    """The statement with each of its matrices on a line of its own: a line of several
    ("X = …, W_q = …, W_k = …") wraps on a phone, and its matrices overlapped there."""
    return statement.replace(r",\quad ", "$$\n\n$$")


# ---- the teacher ---------------------------------------------------------------------------
def teacher_ask(stage_on_screen: str, scenario: Scenario) -> None:
    """Inside the Live panel: what to ask, and how students get their verdict."""
    s = session.seat()
    if s is None or not s.teaching:
        return
    # Options' names translated here, once: a format_func looked up again outside this run
    # (AppTest formats a widget's value again in its own thread) gives the same text.
    sources = {k: _(v) for k, v in SOURCES.items()}
    source = st.segmented_control(_("Ask"), list(SOURCES), format_func=sources.__getitem__,
                                  default="cell", required=True, key="live_ask_from")  # fmt: skip
    if source == EXERCISE:
        _pick_exercise_step(stage_on_screen)
    else:
        _pick_cell(stage_on_screen, scenario)
    st.radio(_("Students see if they are right"), list(FEEDBACK), horizontal=True,
             format_func={k: _(v) for k, v in FEEDBACK.items()}.__getitem__,
             key="live_ask_feedback")  # fmt: skip
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
    stage = st.selectbox(_("Ask for"), stages, index=default, key="live_ask_stage",
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
    ex_id = st.selectbox(_("Exercise"), list(exercises), index=first, key="live_ask_exercise",
                         format_func=titles.__getitem__)  # fmt: skip
    steps = [x.id for x in exercises[ex_id].steps]
    names = {k: f"{i} · {tr(exercises[ex_id].step(k).title)}" for i, k in enumerate(steps, 1)}
    step_id = st.selectbox(
        _("Step"), steps, index=steps.index(want) if want in steps else 0,
        key=f"live_ask_step_{ex_id}",  # one per exercise: each has its own steps
        format_func=names.__getitem__,
    )  # fmt: skip
    st.caption(tr(exercises[ex_id].step(step_id).prompt))  # the catalogue's Markdown


def _ask() -> None:
    s, ss = session.seat(), st.session_state
    feedback, counts = ss["live_ask_feedback"], bool(ss.get("live_ask_counts"))
    try:
        if ss.get("live_ask_from") == EXERCISE:
            ex = ss["live_ask_exercise"]
            questions().ask(s.code, s.secret, EXERCISE, 0, 0, feedback, counts, exercise=ex,
                            step_id=ss[f"live_ask_step_{ex}"])  # fmt: skip
        else:
            questions().ask(s.code, s.secret, ss["live_ask_stage"], ss["live_ask_q"],
                            ss["live_ask_k"], feedback, counts)  # fmt: skip
    except StoreDownError:
        s.down = True
        st.toast(_("Not asked: the live class cannot be reached just now."))


def projector_results() -> None:
    """On a live teacher's projector while a question is out: the question and how many
    answered; the class's counts only when the room may see them (``counts_public``). A
    card over the foot of the slide, so the slide keeps its place. No controls."""
    s = session.seat()
    if s is None or not s.teaching or not s.question or not s.question.get("open", True):
        return  # none asked, or closed: the room keeps a closed question's record
    st.html(PROJECTED_CSS)
    _projected()


def _open_question() -> tuple[Question, Step, Tally] | None:
    """The room's open question as this session last read it, its step and its answers so
    far; None when there is none (or the store cannot say, which the page then says)."""
    s = session.seat()
    q = Question.of(s.question) if s is not None and s.question else None
    if q is None or not q.open:
        return None
    try:
        return q, room_step(s, q), questions().tally(s.code, q.id)
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
            st.markdown(_("**Question:** {question}").format(question=_prompt(q, step)))
            if isinstance(step, ChoiceStep):  # the phones list them too, as their radio
                st.markdown("\n".join(f"- {tr(step.option(k))}" for k in range(len(step.choices))))
            n = teaching.followers() or 0
            st.caption(ngettext("{answered} of {n} student answered",
                                "{answered} of {n} students answered", n).format(
                answered=tally.answered, n=n))  # fmt: skip
            if q.revealed:
                st.markdown(_answer_line(_("Answer"), step))
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
    plot(tally_figure(bars, tally.answered, teaching.followers()), key=key,
         alt=tally_alternative(bars, tally.answered))  # fmt: skip


def console_results() -> None:
    """On the teacher's console while a question is out: the answers as they arrive, as
    named slips, with Reveal, Close, the CSV, and whether the projector shows the counts."""
    s = session.seat()
    if s is None or not s.teaching or not s.question or not s.question.get("open", True):
        return
    _results()


@st.fragment(run_every=1.0)
def _results() -> None:
    if (out := _open_question()) is None:
        return
    q, step, tally = out
    s = session.seat()
    with st.container(key="live_results", border=True):
        st.markdown(_("**Question:** {question}").format(question=_prompt(q, step)))
        if q.revealed:
            st.markdown(_answer_line(_("Answer"), step))
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


def _answer_line(lead: str, step: Step) -> str:
    """The line of the reveal: "The answer: **0.42**. <the worked line>"."""
    text = answer_text(step).rstrip(".。")  # a choice's text has its own full stop
    line = _("{lead}: **{answer}**. {worked}")  # the punctuation is the language's
    return line.format(lead=lead, answer=text, worked=tr(step.explanation))


def _update(changes: dict) -> None:
    s = session.seat()
    q = Question.of(s.question)
    try:
        new = questions().update(s.code, s.secret, q, **changes)
    except StoreDownError:
        s.down = True
        return
    s.question = None if not new.open else new.__dict__


# ---- a student ---------------------------------------------------------------------------------
def student_card() -> None:
    """The room's question on a following student's phone: type, send, see the verdict."""
    s = session.seat()
    if s is None or s.teaching or not s.following or not s.question:
        return
    q = Question.of(s.question)
    if not q.open:
        return
    try:
        step = room_step(s, q)
    except (InputError, IndexError):
        return  # the room's scenario changed under the question: the teacher asks again
    ss = st.session_state
    if ss.get(ANSWER_FOR) != q.id:  # a new question: an empty box, not the last answer
        for key in (ANSWER_KEY, CHOICE_KEY):
            ss.pop(key, None)
        ss[ANSWER_FOR] = q.id
    mine = ss.setdefault(keys.LIVE_ANSWERS, {}).get(q.id)
    if mine is not None and mine.get("pending") and not s.down:  # the store is back
        _deliver(mine)
    with st.container(key="live_question", border=True):
        st.markdown(_("**Question for the class.** {question}").format(question=_prompt(q, step)))
        if mine is None or mine.get("status") == "not sent":
            with st.form("live_answer_form", border=False, enter_to_submit=True):
                _answer_box(step)
                st.form_submit_button(_("Send"), key="live_answer_send", type="primary",
                                      disabled=q.revealed, on_click=guard.callback(_send),
                                      args=(step, q))  # fmt: skip
        if mine is not None:
            _verdict(mine, q, step)
        if q.counts_shown and not q.revealed:  # what students may see, not the projector's
            _counts(s, q)
        if mine is None and q.revealed:
            st.info(_("The answer: {answer}").format(answer=answer_text(step)))


def _answer_box(step: Step) -> None:
    """The exercises' own input: the options of a choice, else a box for the numbers (a
    line for one row, an area for a matrix), with the Exercises page's format line."""
    if isinstance(step, ChoiceStep):
        options = {k: tr(step.option(k)) for k in range(len(step.choices))}
        st.radio(_("Your answer"), list(options), index=None, key=CHOICE_KEY,
                 format_func=options.__getitem__)  # fmt: skip
        return
    rows, cols = step.shape
    st.caption(md_escape(_("Answer: {format}.").format(format=tr(answer_format(step)))))
    if rows == 1:  # a cell's number, or one row ("3, 1")
        hint = "0.42" if cols == 1 else _("1 row, numbers by commas")
        st.text_input(_("Your answer"), key=ANSWER_KEY, max_chars=40 * cols, placeholder=hint)
    else:
        st.text_area(_("Your answer"), key=ANSWER_KEY, max_chars=40 * rows * cols,
                     height=38 + 24 * rows, placeholder=_("one row per line"))  # fmt: skip


def _counts(s: session.Seat, q: Question) -> None:
    """The room's counts, which the teacher allowed before the reveal (never an answer)."""
    try:
        tally = questions().tally(s.code, q.id)
    except StoreDownError:
        return
    st.caption(_("So far {answered} answered, {right} right.").format(
        answered=tally.answered, right=tally.right))  # fmt: skip


def _send(step: Step, q: Question) -> None:
    """Check the answer as the Exercises page does and count it once in the class's store.

    What the checker cannot read, or an answer of another shape than asked (a typo, not a
    slip), is not sent: the exercises' message says what to fix.
    """
    answers = st.session_state.setdefault(keys.LIVE_ANSWERS, {})
    read = _read(step)
    if isinstance(read, Feedback):  # kept as said: each phone reads it in its own language
        answers[q.id] = {"status": "not sent", "said": read.said}
        return
    value, feedback = read
    answers[q.id] = {"status": "not sent", "correct": feedback.correct,
                     "said": feedback.said, "sent": _sent_text(step),
                     "pending": [value, feedback.correct, feedback.mistake]}  # fmt: skip
    _deliver(answers[q.id])


def _deliver(mine: dict) -> None:
    """Send a kept answer. A store that cannot be reached keeps it (``pending``), and the
    phone says "not sent yet, try again"; the page's next run once the store is back (the
    heartbeat reruns it) sends it by itself. Nothing is lost silently, and nothing is
    counted twice: the store keeps a student's first answer, so a try that reached the
    store before its reply was lost makes the next one "already", which is this answer."""
    s = session.seat()
    value, correct, slip = mine["pending"]
    try:
        status = questions().answer(s.code, s.id, value, correct, slip)
    except StoreDownError:
        mine["down"] = True
        return
    mine["status"] = "counted" if status == "already" and mine.get("down") else status
    for kept in ("pending", "down"):
        mine.pop(kept, None)


def _sent_text(step: Step) -> str:
    """What the student sent, as they gave it: the option's text, or the typed numbers."""
    ss = st.session_state
    if isinstance(step, ChoiceStep):
        return tr(step.option(ss.get(CHOICE_KEY) or 0))
    return " ".join((ss.get(ANSWER_KEY) or "").split())


def _read(step: Step) -> tuple[Value, Feedback] | Feedback:
    """(the value to count, the verdict), or the verdict to show instead of sending."""
    ss = st.session_state
    if isinstance(step, ChoiceStep):
        index = ss.get(CHOICE_KEY)
        feedback = check_choice(step, index)
        return feedback if index is None else (float(index + 1), feedback)
    text = ss.get(ANSWER_KEY) or ""
    feedback = check_answer(step, text)
    try:
        numbers = read_answer(step, text)
    except InputError:
        return feedback  # "Type your answer first" or "Could not read that answer"
    if not feedback.correct and feedback.mistake is None and numbers.shape != step.shape:
        return feedback  # "Your answer is 1 row × 3 columns, but ..."
    return (float(numbers[0, 0]) if numbers.size == 1 else numbers.tolist()), feedback


def _verdict(mine: dict, q: Question, step: Step) -> None:
    if mine.get("down"):
        st.error(_(NOT_SENT_DOWN), icon=":material/sync_problem:")
        return
    if mine["status"] == "not sent":
        st.error(md_escape(tr(mine["said"]) + " " + _(NOT_SENT)))
        return
    if mine["status"] == "closed":
        st.warning(_("The question was closed before your answer arrived."))
        return
    counted = (
        _("Sent: your first answer is the one counted.")
        if mine["status"] == "counted"
        else _("You had already answered: your first answer is the one counted.")
    )
    if mine.get("sent"):  # the student's own text, escaped: never Markdown or HTML
        st.markdown(_("Your answer: **{answer}**").format(answer=md_escape(mine["sent"])))
    if q.feedback == "at_once" or q.revealed:
        (st.success if mine["correct"] else st.error)(md_escape(tr(mine["said"])))
    st.caption(counted)
    if q.revealed:
        st.markdown(_answer_line(_("The answer"), step))
