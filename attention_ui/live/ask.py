"""Ask the class, on screen: the teacher's question picker and live results, a student's card.

The teacher asks the number of one cell of the stage on screen (or takes the suggested
cell), chooses when students see their verdict, and watches the class's answers arrive
as named slips. A student types a number on the phone; the exercises' own parser and
checker read it. Nothing here shows a name or another student's answer.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import InputError, Scenario
from attention_core.exercises.cell import CELL_STAGES, cell_question
from attention_core.exercises.checker import check_answer
from attention_core.exercises.model import NumericStep
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys
from attention_ui.live import session
from attention_ui.live.figures import tally_alternative, tally_figure
from attention_ui.live.questions import FEEDBACK, Question, Questions, csv_text
from attention_ui.storage.store import StoreDownError
from attention_ui.views.chart import plot

# The stage a presentation step suggests asking about.
SUGGESTED = {"scores": "scores", "scaling": "scaled", "mask": "weights", "softmax": "weights",
             "output": "output"}  # fmt: skip
ANSWER_KEY = "live_answer"


def questions() -> Questions:
    return Questions(session.hub().rooms)


def room_step(s: session.Seat, q: Question) -> NumericStep:
    """The question as an exercise step, rebuilt from the room's scenario on any phone."""
    scenario = Scenario.from_url(s.scenario)
    t = scenario.trace()
    cols = scenario.key_labels if q.stage != "output" else [f"v{c + 1}" for c in
                                                              range(t.V.shape[1])]  # fmt: skip
    return cell_question(t, q.stage, q.i, q.j, scenario.query_labels[q.i], cols[q.j])


# ---- the teacher ---------------------------------------------------------------------------
def teacher_ask(stage_on_screen: str, scenario: Scenario) -> None:
    """Inside the Live panel: what to ask, and how students get their verdict."""
    s = session.seat()
    if s is None or not s.teaching:
        return
    st.markdown("**Ask the class**")
    stages = list(CELL_STAGES)
    default = stages.index(SUGGESTED.get(stage_on_screen, "scaled"))
    stage = st.selectbox("Ask for", stages, index=default, key="live_ask_stage",
                         format_func=lambda k: CELL_STAGES[k][0])  # fmt: skip
    t = scenario.trace()
    i, j = np.unravel_index(np.argmax(t.scores), t.scores.shape)  # the suggested cell
    c1, c2 = st.columns(2)
    rows = scenario.query_labels
    cols = scenario.key_labels if stage != "output" else [f"v{c + 1}" for c in
                                                          range(t.V.shape[1])]  # fmt: skip
    c1.selectbox("Query (row)", range(len(rows)), index=int(i), key="live_ask_q",
                      format_func=lambda r: rows[r])  # fmt: skip
    c2.selectbox("Column", range(len(cols)), index=min(int(j), len(cols) - 1),
                      key="live_ask_k", format_func=lambda c: cols[c])  # fmt: skip
    st.radio("Students see if they are right", list(FEEDBACK), horizontal=True,
                        format_func=FEEDBACK.get, key="live_ask_feedback")  # fmt: skip
    st.toggle("Students may see the class's counts before the reveal", key="live_ask_counts")
    st.button(
        "Ask", key="live_ask", type="primary", icon=":material/quiz:", on_click=guard.callback(_ask)
    )  # it reads the widgets' latest values


def _ask() -> None:
    s, ss = session.seat(), st.session_state
    try:
        questions().ask(s.code, s.secret, ss["live_ask_stage"], ss["live_ask_q"],
                        ss["live_ask_k"], ss["live_ask_feedback"],
                        bool(ss.get("live_ask_counts")))  # fmt: skip
    except StoreDownError:
        s.down = True
        st.toast("Not asked: the live class cannot be reached just now.")


def teacher_results() -> None:
    """On the projector while a question is out: the answers so far, as named slips."""
    s = session.seat()
    if s is None or not s.teaching or not s.question:
        return
    _results()


@st.fragment(run_every=1.0)
def _results() -> None:
    s = session.seat()
    if s is None or not s.question:
        return
    q = Question.of(s.question)
    step = room_step(s, q)
    try:
        tally = questions().tally(s.code, q.id)
    except StoreDownError:
        st.caption("Live class: reconnecting… the answers are kept in the class's store.")
        return
    with st.container(key="live_results", border=True):
        st.markdown(f"**Question:** {md_escape(step.prompt)}")
        bars = tally.bars()
        plot(tally_figure(bars, tally.answered, session.followers()), key="live_tally",
             alt=tally_alternative(bars, tally.answered))  # fmt: skip
        row = st.container(horizontal=True)
        if not q.revealed:
            row.button("Reveal", key="live_reveal", type="primary", icon=":material/visibility:",
                       on_click=guard.callback(_update), args=({"revealed": True},))  # fmt: skip
        else:
            row.markdown(f"Answer: **{step.expected[0, 0]:.{step.decimals or 0}f}**. "
                         f"{step.explanation}")  # fmt: skip
        row.button("Close the question", key="live_close", icon=":material/close:",
                   on_click=guard.callback(_update), args=({"open": False},))  # fmt: skip
        row.download_button("Results (CSV)", csv_text(q, tally, step.prompt),
                            file_name=f"class-{s.code}-{q.id}.csv", mime="text/csv",
                            key="live_csv", on_click="ignore")  # fmt: skip


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
    mine = st.session_state.setdefault(keys.LIVE_ANSWERS, {}).get(q.id)
    with st.container(key="live_question", border=True):
        st.markdown(f"**Question for the class.** {md_escape(step.prompt)}")
        if mine is None or mine.get("status") == "not sent":
            with st.form("live_answer_form", border=False, enter_to_submit=True):
                st.text_input("Your answer", key=ANSWER_KEY, max_chars=40, placeholder="0.42")
                st.form_submit_button("Send", type="primary", disabled=q.revealed,
                                      on_click=guard.callback(_send), args=(step, q))  # fmt: skip
        if mine is not None:
            _verdict(mine, q, step)
        if q.counts_shown and not q.revealed:
            _counts(s, q)
        if mine is None and q.revealed:
            st.info(f"The answer: {step.expected[0, 0]:.{step.decimals or 0}f}.")


def _counts(s: session.Seat, q: Question) -> None:
    """The room's counts, which the teacher allowed before the reveal (never an answer)."""
    try:
        tally = questions().tally(s.code, q.id)
    except StoreDownError:
        return
    st.caption(f"So far {tally.answered} answered, {tally.right} right.")


def _send(step: NumericStep, q: Question) -> None:
    s = session.seat()
    text = st.session_state.get(ANSWER_KEY, "")
    feedback = check_answer(step, text)
    answers = st.session_state.setdefault(keys.LIVE_ANSWERS, {})
    if not feedback.correct and feedback.message.startswith(("Could not read", "Type your")):
        answers[q.id] = {"status": "not sent", "message": feedback.message}
        return  # the exercises' own message about the typing; nothing is sent
    value = float(np.ravel(_number(text))[0])
    try:
        status = questions().answer(s.code, s.id, value, feedback.correct, feedback.mistake)
    except StoreDownError:
        answers[q.id] = {"status": "not sent", "message": "Not sent: the class cannot be "
                         "reached just now. Try again in a moment."}  # fmt: skip
        return
    answers[q.id] = {"status": status, "correct": feedback.correct, "message": feedback.message}


def _number(text: str) -> np.ndarray:
    from attention_core.exercises.answers import parse_answer

    return parse_answer(text)[0]


def _verdict(mine: dict, q: Question, step: NumericStep) -> None:
    if mine["status"] == "not sent":
        st.error(md_escape(mine["message"]))
        return
    if mine["status"] == "closed":
        st.warning("The question was closed before your answer arrived.")
        return
    counted = ("Sent: your first answer is the one counted." if mine["status"] == "counted"
               else "You had already answered: your first answer is the one counted.")  # fmt: skip
    if q.feedback == "at_once" or q.revealed:
        (st.success if mine["correct"] else st.error)(md_escape(mine["message"]))
    st.caption(counted)
    if q.revealed:
        st.markdown(f"The answer: **{step.expected[0, 0]:.{step.decimals or 0}f}**. "
                    f"{step.explanation}")  # fmt: skip
