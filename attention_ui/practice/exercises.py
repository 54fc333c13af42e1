"""Exercise cards: an input per step, Check, hints, the solution, progress and its download.

The checking itself lives in ``attention_core.exercises``; this module only draws widgets
and keeps the learner's progress in session state.

Session keys (non-widget, so they survive page switches):
- ``practice_progress``: exercise id -> step id -> ``StepRecord`` (status, answer, attempts...).
- ``practice_hints``: "<exercise>/<step>" -> how many hints are shown.
- ``practice_solutions``: exercise ids whose solution is shown.
Widget keys are stable for tests: ``ex_<exercise>_<step>`` (the answer box or radio),
``..._check`` and ``..._hint`` (buttons), ``ex_<exercise>_solution`` and ``ex_<exercise>_open``.
Answer boxes use ``persist_state="session"``, so typed text survives a visit to another page.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from attention_core import Scenario
from attention_core.exercises import (
    ChoiceStep,
    Exercise,
    NumericStep,
    Progress,
    Step,
    answer_format,
    check_answer,
    check_choice,
    count_right,
    exercise_by_id,
    find_record,
    format_value,
    get_record,
    progress_csv,
    progress_json,
    record_attempt,
    tex_matrix,
)
from attention_core.types import FloatArray
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys, state
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import link
from attention_ui.live import pace_views

PROGRESS = keys.PRACTICE_PROGRESS
HINTS = keys.PRACTICE_HINTS
SOLUTIONS = keys.PRACTICE_SOLUTIONS


# ---- keys and state -------------------------------------------------------------------
def input_key(exercise_id: str, step_id: str) -> str:
    return f"ex_{exercise_id}_{step_id}"


def init() -> None:
    """Create the practice keys once per session (safe to call on every run)."""
    ss = st.session_state
    ss.setdefault(PROGRESS, {})
    ss.setdefault(HINTS, {})
    ss.setdefault(SOLUTIONS, [])


def progress() -> Progress:
    init()
    return st.session_state[PROGRESS]


# ---- callbacks (run before the script, so every widget below sees the new state) -----
@guard.callback
def _on_check(exercise_id: str, step_id: str) -> None:
    step = exercise_by_id(exercise_id).step(step_id)
    raw = st.session_state.get(input_key(exercise_id, step_id))
    if isinstance(step, ChoiceStep):
        feedback = check_choice(step, raw)
        answer = "" if raw is None else step.option(raw)
    else:
        answer = raw or ""
        feedback = check_answer(step, answer)
    record_attempt(progress(), exercise_id, step_id, answer, feedback)
    pace_views.checked(exercise_id, step, raw, feedback, answer)  # in a practice: the teacher


@guard.callback
def _on_hint(exercise_id: str, step_id: str) -> None:
    hints = st.session_state[HINTS]
    key = f"{exercise_id}/{step_id}"
    hints[key] = hints.get(key, 0) + 1


@guard.callback
def _on_solution(exercise_id: str) -> None:
    shown: list[str] = st.session_state[SOLUTIONS]
    if exercise_id in shown:
        shown.remove(exercise_id)
        return
    shown.append(exercise_id)
    pace_views.solution_shown(exercise_id)
    for step in exercise_by_id(exercise_id).steps:
        get_record(progress(), exercise_id, step.id).solution_shown = True


@guard.callback
def _on_reset(exercises: tuple[Exercise, ...]) -> None:
    ss = st.session_state
    ss[PROGRESS], ss[HINTS], ss[SOLUTIONS] = {}, {}, []
    for ex in exercises:
        for step in ex.steps:
            ss.pop(input_key(ex.id, step.id), None)


# ---- progress -------------------------------------------------------------------------
def render_progress(exercises: tuple[Exercise, ...]) -> None:
    """A progress bar over all steps, a per-exercise table and the downloads."""
    prog = progress()
    total = sum(len(ex.steps) for ex in exercises)
    right = sum(count_right(prog, ex) for ex in exercises)
    st.progress(right / total, text=f"**{right} of {total} steps right**")
    with st.expander("Your progress, downloads and reset"):
        st.dataframe(
            [
                {
                    "Exercise": ex.title,
                    "Steps right": f"{count_right(prog, ex)} / {len(ex.steps)}",
                    "Solution shown": "yes" if ex.id in st.session_state[SOLUTIONS] else "",
                }
                for ex in exercises
            ],
            hide_index=True,
            width="stretch",
        )
        c1, c2, c3 = st.columns(3)
        downloads = (
            (c1, "JSON", progress_json, "json", "application/json"),
            (c2, "CSV", progress_csv, "csv", "text/csv"),
        )
        for col, label, build, ext, mime in downloads:
            col.download_button(
                f"Download progress ({label})",
                build(exercises, prog),
                file_name=f"attention-lab-progress.{ext}",
                mime=mime,
                key=f"practice_download_{ext}",
                on_click="ignore",
            )
        c3.button(
            "Start over",
            key="practice_reset",
            on_click=_on_reset,
            args=(exercises,),
            help="Clear every answer, hint and result on this page.",
        )


# ---- one exercise card ----------------------------------------------------------------
def render_exercise(ex: Exercise) -> None:
    """The card: what is given, one block per step, the solution and a walkthrough link."""
    with st.container(border=True, key=f"card_{ex.id}"):
        st.subheader(ex.title)
        st.caption(f"From {ex.source}")
        st.markdown(ex.statement)
        right = count_right(progress(), ex)
        left, right_col = st.columns([5, 2], vertical_alignment="center")
        done = "all done" if right == len(ex.steps) else f"{right} of {len(ex.steps)} right"
        left.caption(f"Steps: {done}")
        if right_col.button(
            "Open in the walkthrough",
            key=f"ex_{ex.id}_open",
            icon=":material/open_in_new:",
            width="stretch",
            help="Make this example the current scenario and step through it.",
        ):
            # a private copy: the exercise's scenario is shared by every session
            state.replace_scenario(Scenario.from_dict(ex.scenario.to_dict()))
            st.switch_page(BY_KEY["inputs"].path)
        for step in ex.steps:
            st.divider()
            if isinstance(step, ChoiceStep):
                _choice_step(ex, step)
            else:
                _numeric_step(ex, step)
        st.divider()
        shown = ex.id in st.session_state[SOLUTIONS]
        st.button(
            "Hide the solution" if shown else "Show the solution",
            key=f"ex_{ex.id}_solution",
            on_click=_on_solution,
            args=(ex.id,),
        )
        if shown:
            _solution(ex)


def _numeric_step(ex: Exercise, step: NumericStep) -> None:
    key = input_key(ex.id, step.id)
    st.markdown(step.prompt)
    st.caption(md_escape(f"Answer: {answer_format(step)}."))
    rows = step.shape[0]
    box, check, hint = st.columns([6, 1, 1], vertical_alignment="bottom")
    widget: Any = box.text_input if rows == 1 else box.text_area
    extra = {} if rows == 1 else {"height": 38 + 24 * rows}
    widget(
        f"Your answer: {step.title}",
        key=key,
        placeholder=_placeholder(step),
        help=f"Expected: {answer_format(step)}. Numbers separated by commas or spaces; "
        "rows on separate lines or separated by ';'.",
        label_visibility="collapsed",
        persist_state="session",
        **extra,
    )
    _buttons(ex, step, check, hint)
    _feedback(ex, step)
    _hints(ex, step)


def _placeholder(step: NumericStep) -> str:
    rows, cols = step.shape
    numbers = f"{cols} numbers" if cols > 1 else "1 number"
    if rows == 1 and cols == 1:
        return "1 number"
    if rows == 1:
        return f"{numbers}, separated by commas" + (" (% allowed)" if step.percent else "")
    return f"{rows} rows of {numbers}: one row per line"


def _choice_step(ex: Exercise, step: ChoiceStep) -> None:
    key = input_key(ex.id, step.id)
    st.markdown(step.prompt)
    st.radio(
        step.title,
        options=list(range(len(step.choices))),
        format_func=step.option,
        index=None,
        key=key,
        label_visibility="collapsed",
        persist_state="session",
    )
    _, check, hint = st.columns([6, 1, 1])
    _buttons(ex, step, check, hint)
    _feedback(ex, step)
    _hints(ex, step)


def _buttons(ex: Exercise, step: Step, check: Any, hint: Any) -> None:
    key = input_key(ex.id, step.id)
    check.button(
        "Check", key=f"{key}_check", type="primary", on_click=_on_check, args=(ex.id, step.id),
        width="stretch",
    )  # fmt: skip
    n = st.session_state[HINTS].get(f"{ex.id}/{step.id}", 0)
    hint.button(
        "Hint" if n == 0 else "More",
        key=f"{key}_hint",
        on_click=_on_hint,
        args=(ex.id, step.id),
        disabled=n >= len(step.hints),
        width="stretch",
        help="Show the next hint for this step.",
    )


def _feedback(ex: Exercise, step: Step) -> None:
    fb = find_record(progress(), ex.id, step.id).feedback()
    if fb is None:  # never checked
        return
    if fb.correct:
        st.success(md_escape(fb.message), icon=":material/check_circle:")
    else:
        st.error(md_escape(fb.message), icon=":material/cancel:")
    if isinstance(step, ChoiceStep) and step.see_also:
        _see_also(step)


def _hints(ex: Exercise, step: Step) -> None:
    n = st.session_state[HINTS].get(f"{ex.id}/{step.id}", 0)
    for i, text in enumerate(step.hints[:n], start=1):
        st.info(md_escape(f"Hint {i}: {text}"), icon=":material/lightbulb:")


def _see_also(step: ChoiceStep) -> None:
    page = BY_KEY[step.see_also]
    link(
        page.path,
        f"Try it in the {page.title.lower()}: sweep d_k yourself",
        icon=":material/science:",
    )


# ---- the solution ---------------------------------------------------------------------
def _solution(ex: Exercise) -> None:
    with st.container(key=f"solution_{ex.id}"):
        st.markdown("**Solution**, every step computed by the app's own attention code:")
        for step in ex.steps:
            if isinstance(step, ChoiceStep):
                right = step.choices[step.answer_index]
                st.markdown(f"**{step.title}** {step.option(step.answer_index)}")
                st.markdown(md_escape(right.explanation))
                st.markdown(step.explanation)
                if step.see_also:
                    _see_also(step)
                continue
            st.latex(f"{step.symbol} = {tex_matrix(step.expected, step.decimals)}")
            if step.percent:
                st.caption(md_escape(f"As percentages: {_percent_text(step.expected)}"))
            for variant in step.accepted[1:]:
                st.caption(
                    md_escape(
                        f"Also accepted, with {variant.label}: "
                        f"{format_value(variant.value, step.decimals)}"
                    )
                )
            if step.explanation:
                st.markdown(step.explanation)


def _percent_text(M: FloatArray) -> str:
    return "; ".join(", ".join(f"{100 * x:.1f} %" for x in row) for row in np.atleast_2d(M))
