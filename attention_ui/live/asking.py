"""The question of a live class as both sides show it: the room's question as an exercise step,
its Markdown, and the reveal's line (the console's results and the projector, and a student's card).
"""

from __future__ import annotations

from attention_core.exercises import exercise_by_id
from attention_core.exercises.model import Step
from attention_ui.classroom.questions import (
    EXERCISE,
    Question,
    Questions,
    answer_text,
    question_step,
)
from attention_ui.draw.text import md_escape
from attention_ui.i18n import _
from attention_ui.i18n.texts import tr
from attention_ui.live import seats


def questions() -> Questions:
    return Questions(seats.hub().rooms)


def room_step(s: seats.Seat, q: Question) -> Step:
    """The question as an exercise step, the same on any phone (the room's scenario)."""
    return question_step(q, s.scenario)


def prompt(q: Question, step: Step) -> str:
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


def answer_line(lead: str, step: Step) -> str:
    """The line of the reveal: "The answer: **0.42**. <the worked line>"."""
    text = answer_text(step).rstrip(".。")  # a choice's text has its own full stop
    line = _("{lead}: **{answer}**. {worked}")  # the punctuation is the language's
    return line.format(lead=lead, answer=text, worked=tr(step.explanation))
