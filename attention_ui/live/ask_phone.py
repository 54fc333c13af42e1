"""Ask the class, on a student's phone: the room's question, an answer box, Send, the verdict.

A student types a number (or a small matrix, or picks an option) on the phone; the
exercises' own parser and checker read it (the teacher's side: ask_console.py). Nothing here
shows a name or another student's answer.
"""

from __future__ import annotations

import streamlit as st

from attention_core import InputError
from attention_core.exercises.checker import (
    ASK_FOR_A_HINT,
    check_answer,
    check_choice,
    read_answer,
)
from attention_core.exercises.model import ChoiceStep, Feedback, Step
from attention_core.exercises.text import answer_format
from attention_ui.classroom.questions import (
    Question,
    Value,
    answer_text,
)
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys
from attention_ui.i18n import N_, _
from attention_ui.i18n.texts import tr
from attention_ui.live import asking, seats
from attention_ui.storage.store import StoreDownError

ANSWER_KEY, CHOICE_KEY = "live_answer", "live_choice"
ANSWER_FOR = "live_answer_for"  # the question the answer box was last drawn for
NOT_SENT = N_("Nothing was sent: correct it and send again.")
NOT_SENT_DOWN = N_("Not sent yet: the class cannot be reached just now. Your answer is kept "
                   "and goes out by itself when the class is back, or press Send to try "
                   "again.")  # fmt: skip


# ---- a student ---------------------------------------------------------------------------------
def student_card() -> None:
    """The room's question on a following student's phone: type, send, see the verdict."""
    s = seats.seat()
    if s is None or s.teaching or not s.following or not s.question:
        return
    q = Question.of(s.question)
    if not q.open:
        return
    try:
        step = asking.room_step(s, q)
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
        question = asking.prompt(q, step)
        st.markdown(_("**Question for the class.** {question}").format(question=question))
        if mine is None or mine.get("status") == "not sent":
            with st.form("live_answer_form", border=False, enter_to_submit=True):
                _answer_box(step)
                pressed = st.form_submit_button(_("Send"), key="live_answer_send",
                                                type="primary", disabled=q.revealed,
                                                on_click=guard.callback(_send),
                                                args=(step, q))  # fmt: skip
            if pressed and mine is None and not q.revealed:
                # Send pressed, and its callback never ran: Streamlit runs one only for a
                # widget of the session's last run, and a page that lost its server process
                # is a new session on another, whose first run may be this click. Sent here,
                # then drawn with its verdict (tests/state/test_lost_process.py).
                guard.callback(_send)(step, q)
                st.rerun()
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
        hint = (
            _("e.g. {example}").format(example="0.42")
            if cols == 1
            else _("1 row, numbers by commas")
        )
        st.text_input(_("Your answer"), key=ANSWER_KEY, max_chars=40 * cols, placeholder=hint)
    else:
        st.text_area(_("Your answer"), key=ANSWER_KEY, max_chars=40 * rows * cols,
                     height=38 + 24 * rows, placeholder=_("one row per line"))  # fmt: skip


def _counts(s: seats.Seat, q: Question) -> None:
    """The room's counts, which the teacher allowed before the reveal (never an answer)."""
    try:
        tally = asking.questions().tally(s.code, q.id)
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
        answers[q.id] = {"status": "not sent", "said": _live(read.said)}
        return
    value, feedback = read
    answers[q.id] = {"status": "not sent", "correct": feedback.correct,
                     "said": _live(feedback.said), "sent": _sent_text(step),
                     "pending": [value, feedback.correct, feedback.mistake]}  # fmt: skip
    _deliver(answers[q.id])


def _live(said: tuple) -> tuple:
    """The checker's words without its "Ask for a hint": a class's question has no hints."""
    return tuple(t for t in said if t != ASK_FOR_A_HINT)


def _deliver(mine: dict) -> None:
    """Send a kept answer. A store that cannot be reached keeps it (``pending``), and the
    phone says "not sent yet, try again"; the page's next run once the store is back (the
    heartbeat reruns it) sends it by itself. Nothing is lost silently, and nothing is
    counted twice: the store keeps a student's first answer, so a try that reached the
    store before its reply was lost makes the next one "already", which is this answer."""
    s = seats.seat()
    value, correct, slip = mine["pending"]
    try:
        status = asking.questions().answer(s.code, s.id, value, correct, slip)
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
        st.markdown(asking.answer_line(_("The answer"), step))
