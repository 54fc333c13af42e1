"""Exercise cards: an input per step, Check, hints, the solution, progress and its download.

The checking itself lives in ``attention_core.exercises``; this module only draws widgets
and keeps the learner's progress in session state.

Session keys (non-widget, so they survive page switches):
- ``practice_progress``: exercise id -> step id -> ``StepRecord`` (status, answer, attempts...).
- ``practice_hints``: "<exercise>/<step>" -> how many hints are shown.
- ``practice_solutions``: exercise ids whose solution is shown.
Widget keys are stable for tests: ``ex_<exercise>_<step>`` (the answer box or radio),
``..._check`` and ``..._hint`` (buttons), ``ex_<exercise>_solution`` and ``ex_<exercise>_open``.
Answer boxes use ``persist_state="session"``, so typed text survives a visit to another page;
a reload or a restarted browser gets the work back from ``kept`` (the store, under a cookie).
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
    Work,
    answer_format,
    check_answer,
    check_choice,
    choice_letter,
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
from attention_ui.frame.language import relabelled
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import link
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.live import pace_phone
from attention_ui.practice import kept
from attention_ui.practice.kept import input_key

PROGRESS = keys.PRACTICE_PROGRESS
HINTS = keys.PRACTICE_HINTS
SOLUTIONS = keys.PRACTICE_SOLUTIONS


# ---- keys and state -------------------------------------------------------------------
__all__ = ["init", "input_key", "progress", "render_exercise", "render_progress"]


def init() -> None:
    """Create the practice keys once per session, and take back the work this browser kept
    (safe to call on every run)."""
    ss = st.session_state
    ss.setdefault(PROGRESS, {})
    ss.setdefault(HINTS, {})
    ss.setdefault(SOLUTIONS, [])
    kept.restore()


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
        answer = "" if raw is None else choice_letter(raw)  # the same in every language
    else:
        answer = raw or ""
        feedback = check_answer(step, answer)
    record_attempt(progress(), exercise_id, step_id, answer, feedback)
    kept.changed()
    pace_phone.checked(exercise_id, step, raw, feedback, answer)  # in a practice: the teacher


@guard.callback
def _on_hint(exercise_id: str, step_id: str) -> None:
    hints = st.session_state[HINTS]
    key = f"{exercise_id}/{step_id}"
    hints[key] = hints.get(key, 0) + 1
    kept.changed()


@guard.callback
def _on_solution(exercise_id: str) -> None:
    shown: list[str] = st.session_state[SOLUTIONS]
    if exercise_id in shown:
        shown.remove(exercise_id)
        return
    shown.append(exercise_id)
    pace_phone.solution_shown(exercise_id)
    for step in exercise_by_id(exercise_id).steps:
        get_record(progress(), exercise_id, step.id).solution_shown = True
    kept.changed()


@guard.callback
def _on_reset() -> None:
    kept.put(Work())
    kept.changed()


# ---- progress -------------------------------------------------------------------------
def render_progress(exercises: tuple[Exercise, ...]) -> None:
    """A progress bar over all steps, a per-exercise table and the downloads."""
    prog = progress()
    total = sum(len(ex.steps) for ex in exercises)
    right = sum(count_right(prog, ex) for ex in exercises)
    steps_right = ngettext("{right} of {total} step right", "{right} of {total} steps right", total)
    st.progress(right / total, text="**" + steps_right.format(right=right, total=total) + "**")
    kept.line()
    with st.expander(_("Your progress, downloads and reset")):
        exercise, steps, shown = _("Exercise"), _("Steps right"), _("Solution shown")
        st.dataframe(
            [
                {
                    exercise: tr(ex.title),
                    steps: f"{count_right(prog, ex)} / {len(ex.steps)}",
                    shown: _("yes") if ex.id in st.session_state[SOLUTIONS] else "",
                }
                for ex in exercises
            ],
            hide_index=True,
            width="stretch",
        )
        c1, c2, c3 = st.columns(3)
        hints = st.session_state[HINTS]
        downloads = (  # the JSON holds ids (it loads back in any language), the CSV titles
            (c1, "JSON", progress_json(exercises, prog, hints), "json", "application/json"),
            (c2, "CSV", progress_csv(exercises, prog, tr), "csv", "text/csv"),
        )
        for col, label, text, ext, mime in downloads:
            col.download_button(
                _("Download progress ({format})").format(format=label),
                text,
                file_name=f"attention-lab-progress.{ext}",
                mime=mime,
                key=f"practice_download_{ext}",
                on_click="ignore",
            )
        c3.button(
            _("Start over"),
            key="practice_reset",
            on_click=_on_reset,
            help=_("Clear every answer, hint and result on this page."),
        )
        kept.loader()


# ---- one exercise card ----------------------------------------------------------------
def render_exercise(ex: Exercise) -> None:
    """The card: what is given, one block per step, the solution and a walkthrough link."""
    with st.container(border=True, key=f"card_{ex.id}"):
        st.subheader(tr(ex.title))
        st.caption(_("From {source}").format(source=tr(ex.source)))
        st.markdown(tr(ex.statement))
        right = count_right(progress(), ex)
        left, right_col = st.columns([5, 2], vertical_alignment="center")
        if right == len(ex.steps):
            left.caption(_("Steps: all done"))
        else:
            left.caption(
                _("Steps: {right} of {total} right").format(right=right, total=len(ex.steps))
            )
        if right_col.button(
            _("Open in the walkthrough"),
            key=f"ex_{ex.id}_open",
            icon=":material/open_in_new:",
            width="stretch",
            help=_("Make this example the current scenario and step through it."),
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
            _("Hide the solution") if shown else _("Show the solution"),
            key=f"ex_{ex.id}_solution",
            on_click=_on_solution,
            args=(ex.id,),
        )
        if shown:
            _solution(ex)


def _numeric_step(ex: Exercise, step: NumericStep) -> None:
    key = input_key(ex.id, step.id)
    st.markdown(tr(step.prompt))
    st.caption(md_escape(_("Answer: {format}.").format(format=tr(answer_format(step)))))
    rows = step.shape[0]
    box, check, hint = st.columns([6, 1, 1], vertical_alignment="bottom")
    widget: Any = box.text_input if rows == 1 else box.text_area
    extra = {} if rows == 1 else {"height": 38 + 24 * rows}
    widget(
        _("Your answer: {step}").format(step=tr(step.title)),
        key=key,
        placeholder=_placeholder(step),
        help=_(
            "Expected: {format}. Numbers separated by commas or spaces; rows on separate "
            "lines or separated by ';'."
        ).format(format=tr(answer_format(step))),
        label_visibility="collapsed",
        persist_state="session",
        **extra,
    )
    _buttons(ex, step, check, hint)
    _feedback(ex, step)
    _hints(ex, step)


def _placeholder(step: NumericStep) -> str:
    rows, cols = step.shape
    if rows == 1 and cols == 1:
        return _("1 number")
    if rows == 1 and step.percent:
        return _("{n} numbers, separated by commas (% allowed)").format(n=cols)
    if rows == 1:
        return _("{n} numbers, separated by commas").format(n=cols)
    return ngettext(
        "{rows} rows of 1 number: one row per line",
        "{rows} rows of {n} numbers: one row per line",
        cols,
    ).format(rows=rows, n=cols)


def _choice_step(ex: Exercise, step: ChoiceStep) -> None:
    key = input_key(ex.id, step.id)
    st.markdown(tr(step.prompt))
    st.radio(
        tr(step.title),
        options=list(range(len(step.choices))),
        format_func=lambda i: tr(step.option(i)),
        index=None,
        key=relabelled(key),
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
        _("Check"), key=f"{key}_check", type="primary", on_click=_on_check, args=(ex.id, step.id),
        width="stretch",
    )  # fmt: skip
    n = st.session_state[HINTS].get(f"{ex.id}/{step.id}", 0)
    hint.button(
        _("Hint") if n == 0 else _("More"),
        key=f"{key}_hint",
        on_click=_on_hint,
        args=(ex.id, step.id),
        disabled=n >= len(step.hints),
        width="stretch",
        help=_("Show the next hint for this step."),
    )


def _feedback(ex: Exercise, step: Step) -> None:
    fb = find_record(progress(), ex.id, step.id).feedback()
    if fb is None:  # never checked
        return
    if fb.correct:
        st.success(md_escape(tr(fb.said)), icon=":material/check_circle:")
    else:
        st.error(md_escape(tr(fb.said)), icon=":material/cancel:")
    if isinstance(step, ChoiceStep) and step.see_also:
        _see_also(step)


def _hints(ex: Exercise, step: Step) -> None:
    n = st.session_state[HINTS].get(f"{ex.id}/{step.id}", 0)
    for i, text in enumerate(step.hints[:n], start=1):
        hint = _("Hint {i}: {text}").format(i=i, text=tr(text))
        st.info(md_escape(hint), icon=":material/lightbulb:")


# What each lab a question links to lets the learner do: one sentence per page, since
# "Try it in the {page}" put the page's short menu title in a sentence ("in the Training").
SEE_ALSO = {
    "scaling-lab": N_("Try it in the Scaling lab: sweep d_k yourself"),
    "training": N_("Try it in the Training lab: train with and without scaling yourself"),
}


def _see_also(step: ChoiceStep) -> None:
    page = BY_KEY[step.see_also]
    words = SEE_ALSO.get(step.see_also)
    text = _(words) if words else _("Open {page}").format(page=_(page.title))
    link(page.path, text, icon=":material/science:")


# ---- the solution ---------------------------------------------------------------------
def _solution(ex: Exercise) -> None:
    with st.container(key=f"solution_{ex.id}"):
        st.markdown(_("**Solution**, every step computed by the app's own attention code:"))
        for step in ex.steps:
            if isinstance(step, ChoiceStep):
                right = step.choices[step.answer_index]
                st.markdown(f"**{tr(step.title)}** {tr(step.option(step.answer_index))}")
                st.markdown(md_escape(tr(right.explanation)))
                st.markdown(tr(step.explanation))
                if step.see_also:
                    _see_also(step)
                continue
            st.latex(f"{step.symbol} = {tex_matrix(step.expected, step.decimals)}")
            if step.percent:
                percentages = _("As percentages: {values}").format(
                    values=_percent_text(step.expected)
                )
                st.caption(md_escape(percentages))
            for variant in step.accepted[1:]:
                also = _("Also accepted, with {answer}: {values}").format(
                    answer=tr(variant.label), values=format_value(variant.value, step.decimals)
                )
                st.caption(md_escape(also))
            if step.explanation:
                st.markdown(tr(step.explanation))


def _percent_text(M: FloatArray) -> str:
    return "; ".join(", ".join(f"{100 * x:.1f} %" for x in row) for row in np.atleast_2d(M))
