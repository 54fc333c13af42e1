"""A live class through AppTest: a teacher's session and students' sessions of one app,
sharing a real SQLite store (LIVE_STORE). AppTest never runs a fragment on its timer, so a
student's next full run stands for the poll's rerun; the browser test times the real one."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS
from attention_ui.frame import keys, state
from attention_ui.frame.pages import BY_KEY
from attention_ui.live import seats
from attention_ui.practice import present
from tests.live.apps import app

pytestmark = pytest.mark.usefixtures("store", "public_url")  # tests/live/conftest.py
PRESENT = BY_KEY["present"].path
CONSOLE = BY_KEY["console"].path


def teacher() -> tuple[AppTest, seats.Seat]:
    at = app()
    at.switch_page(PRESENT).run()
    at.button(key="live_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    seat = at.session_state[keys.LIVE]
    assert seat.teaching and seat.secret
    return at, seat


def console(seat: seats.Seat) -> AppTest:
    """The teacher's console on another device (or tab): the control link, then the page."""
    at = app({"teach": f"{seat.code}.{seat.secret}"})
    at.switch_page(CONSOLE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[keys.LIVE].teaching
    return at


def step_text(at: AppTest) -> str:
    return next(p.text for p in at.get("progress"))


def test_a_student_follows_the_teachers_steps_and_scenario() -> None:
    t, seat = teacher()
    student = app({"join": seat.code.lower()})  # lowercase is forgiven
    assert student.session_state[keys.LIVE].code == seat.code
    assert student.session_state[keys.LIVE].role == "student"
    assert "Step 1 of" in step_text(student)  # it went to the teacher's page
    for k in (2, 3, 4):
        t.button(key="present_next").click().run()
        student.run()  # the poll's rerun
        assert f"Step {k} of" in step_text(student)
    # the teacher loads another example: the class sees it
    t.session_state[keys.PRESENT_STEP] = 1
    t.run()
    t.selectbox(key="present_preset").set_value("hungry").run()
    t.button(key="present_preset_load").click().run()
    student.run()
    assert student.session_state[keys.SCENARIO].tokens == PRESETS["hungry"].build().tokens


def test_the_secret_never_reaches_a_student_or_the_address() -> None:
    t, seat = teacher()
    assert seat.secret not in str(dict(t.query_params))
    student = app({"join": seat.code})
    assert seat.secret not in str(dict(student.query_params))
    assert student.session_state[keys.LIVE].secret == ""
    assert all(seat.secret not in str(m.value) for m in t.markdown)


def test_a_student_cannot_drive_and_a_forged_control_link_is_refused() -> None:
    _, seat = teacher()
    forged = app({"teach": f"{seat.code}.not-the-secret"})
    assert forged.session_state[keys.LIVE] is None if keys.LIVE in forged.session_state else True
    assert "teach" not in forged.query_params  # removed from the address at once
    student = app({"join": seat.code})
    student.switch_page(PRESENT).run()
    shown = {b.key for b in student.button}
    assert "present_next" not in shown and "present_back" not in shown  # the teacher steps
    assert "Step 1 of" in step_text(student)


def test_the_control_link_on_a_second_device_drives_the_same_room() -> None:
    t, seat = teacher()
    t.button(key="present_next").click().run()
    remote = app({"teach": f"{seat.code}.{seat.secret}"})
    assert remote.session_state[keys.LIVE].teaching
    assert "teach" not in remote.query_params
    assert "Step 2 of" in step_text(remote)  # it took the room as it was
    remote.button(key="present_next").click().run()
    student = app({"join": seat.code})
    assert "Step 3 of" in step_text(student)


@pytest.mark.parametrize(("typed", "says"), [
    ("ZZZZZ", "No live class has the code ZZZZZ"),
    ("O0I1L", "never has O, 0, I, 1, L"),
    ("6RUEO", "never has O\\:"),  # a D misread as an O: the O is the reason, not the length
    ("k7m-q4x", "not a class code"),
    ("", "not a class code"),
])  # fmt: skip
def test_a_bad_code_says_so_and_keeps_the_page(typed: str, says: str) -> None:
    at = app({"join": typed})
    assert not at.exception
    assert any(says in e.value for e in at.error), [e.value for e in at.error]
    assert at.session_state[keys.LIVE] is None if keys.LIVE in at.session_state else True
    assert "join" not in at.query_params
    assert at.title[0].value == "Start"  # the page and its menu are still there


def test_pause_shows_every_follower_the_notice_until_the_teacher_goes_on() -> None:
    _, seat = teacher()
    student = app({"join": seat.code})
    c = console(seat)
    c.button(key="live_pause_btn").click().run()
    student.run()
    assert any("Eyes on the screen" in m.value for m in student.markdown)
    c.button(key="live_resume").click().run()
    student.run()
    assert not any("Eyes on the screen" in m.value for m in student.markdown)


def test_exploring_stops_following_and_back_catches_up() -> None:
    t, seat = teacher()
    student = app({"join": seat.code})
    student.button(key="live_explore").click().run()
    t.button(key="present_next").click().run()
    student.run()
    assert "Step 1 of" in step_text(student)  # exploring: the step stays
    student.button(key="live_back").click().run()
    assert "Step 2 of" in step_text(student)


# ---- a follower's slide, rerun alone -------------------------------------------------------------
def _slide_run() -> None:
    """What presentation mode's fragment does on its own run (AppTest runs no fragment alone)."""
    import streamlit as st

    from attention_ui.live import seats

    st.session_state["took_step"] = seats.take_step()


def slide_rerun(student: AppTest) -> bool:
    """take_step() in the student's session (its state, shared): True if the slide took it."""
    at = AppTest.from_function(_slide_run, default_timeout=30)
    for key in (keys.LIVE, state.CURRENT_PAGE, keys.PRESENT_STEP):
        at.session_state[key] = student.session_state[key]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    student.session_state[keys.PRESENT_STEP] = at.session_state[keys.PRESENT_STEP]
    return at.session_state["took_step"]


def test_a_followers_slide_takes_the_next_step_alone_and_nothing_else() -> None:
    t, seat = teacher()
    student = app({"join": seat.code})
    t.button(key="present_next").click().run()
    t.button(key="present_next").click().run()
    assert slide_rerun(student) is True
    assert student.session_state[keys.PRESENT_STEP] == 3  # the teacher's step, taken
    assert student.session_state[keys.LIVE].applied == t.session_state[keys.LIVE].applied
    assert slide_rerun(student) is True  # nothing new: the slide stays as it is
    assert student.session_state[keys.PRESENT_STEP] == 3

    c = console(seat)
    c.button(key="live_pause_btn").click().run()
    assert slide_rerun(student) is False  # a pause: the full run shows the notice
    c.button(key="live_resume").click().run()
    t.run()  # the projector follows its console (the watch's rerun)
    for _ in range(2):
        t.button(key="present_back").click().run()
    student.run()
    t.selectbox(key=present.PRESET_KEY).set_value("hungry").run()
    t.button(key=f"{present.PRESET_KEY}_load").click().run()
    assert slide_rerun(student) is False  # another example: the full run builds it
    assert student.session_state[keys.PRESENT_STEP] == 1
    student.run()
    assert "jungle" in " ".join(m.value for m in student.markdown)


# ---- ask the class -----------------------------------------------------------------------------
def ask(t: AppTest, feedback: str = "reveal") -> None:
    """Ask from the console ``t`` the weight sat -> cat."""
    t.selectbox(key="live_ask_stage").set_value("weights")
    t.selectbox(key="live_ask_q").set_value(2)  # sat
    t.selectbox(key="live_ask_k").set_value(1)  # cat
    t.radio(key="live_ask_feedback").set_value(feedback)
    t.button(key="live_ask").click().run()
    assert not t.exception, [e.value for e in t.exception]


def answer(student: AppTest, text: str) -> None:
    student.run()  # the poll's rerun brings the question
    student.text_input(key="live_answer").set_value(text)
    student.button(key="live_answer_send").click().run()
    assert not student.exception, [e.value for e in student.exception]


def test_the_teacher_asks_two_students_answer_and_the_chart_names_the_slip() -> None:
    _, seat = teacher()
    right, unscaled = app({"join": seat.code}), app({"join": seat.code})
    t = console(seat)
    ask(t)
    answer(right, "0.42")  # softmax(Q Kᵀ / √3) for sat -> cat, to 2 decimals
    answer(unscaled, "0.56")  # the softmax of the raw scores
    assert any("first answer is the one counted" in c.value for c in right.caption)
    assert not right.success and not right.error  # "when I reveal": no verdict yet
    t.run()
    chart = [c for c in t.get("plotly_chart") if "answered" in c.proto.spec]
    bars = json.loads(chart[0].proto.spec)["data"][0]
    counts = dict(zip(bars["y"], bars["x"], strict=True))
    assert counts["right"] == 1 and counts["used the unscaled scores in softmax"] == 1
    assert "2 answered" in chart[0].proto.spec
    t.button(key="live_reveal").click().run()
    for phone in (right, unscaled):
        phone.run()
        assert any("The answer: **0.42**" in m.value for m in phone.markdown)
    assert right.success and "unscaled" in unscaled.error[0].value


def test_a_bad_answer_is_the_exercises_message_and_is_not_counted() -> None:
    _, seat = teacher()
    student = app({"join": seat.code})
    t = console(seat)
    ask(t, "at_once")
    answer(student, "abc")
    assert any("Could not read that answer" in e.value for e in student.error)
    answer(student, "0.42")  # now it is sent, and at once it says so
    assert student.success and "Correct" in student.success[0].value


def test_a_wrong_answer_is_not_offered_a_hint_a_live_question_does_not_have() -> None:
    """The Exercises page ends a wrong number's verdict with "Ask for a hint"; a class's
    question has no hint button, so its verdict says what is wrong and stops there."""
    _, seat = teacher()
    student = app({"join": seat.code})
    ask(console(seat), "at_once")
    answer(student, "0.999")  # no named slip: the checker's general "off by more than"
    said = student.error[0].value
    assert "Not yet" in said and "hint" not in said, said


# ---- a lesson's exercise, asked as it is -----------------------------------------------------
def ask_exercise(t: AppTest, exercise: str, step: str, feedback: str = "at_once") -> None:
    t.segmented_control(key="live_ask_from").set_value("exercise").run()
    t.selectbox(key="live_ask_exercise").set_value(exercise).run()
    t.selectbox(key=f"live_ask_step_{exercise}").set_value(step)
    t.radio(key="live_ask_feedback").set_value(feedback)
    t.button(key="live_ask").click().run()
    assert not t.exception, [e.value for e in t.exception]


def tally_bars(t: AppTest) -> dict[str, int]:
    chart = [c for c in t.get("plotly_chart") if "answered" in c.proto.spec]
    bars = json.loads(chart[0].proto.spec)["data"][0]
    return dict(zip(bars["y"], bars["x"], strict=True))


def test_the_picker_suggests_the_exercise_step_of_the_slide_on_screen() -> None:
    p, seat = teacher()
    for _ in range(4):  # step 5 of cat_mat: Softmax
        p.button(key="present_next").click().run()
    t = console(seat)
    t.segmented_control(key="live_ask_from").set_value("exercise").run()
    assert t.selectbox(key="live_ask_exercise").value == "paper_toy"
    assert t.selectbox(key="live_ask_step_paper_toy").value == "weights"
    assert any("Apply softmax to the scaled scores" in c.value for c in t.caption)


def test_an_exercise_is_asked_on_its_own_numbers_and_its_slips_are_named() -> None:
    """The post's weights for "it": 0.844 / 0.114 / 0.042 right; 0.980 / 0.018 / 0.002 is the
    softmax of the unscaled 6, 2, 0; two numbers for three is a typo, not sent."""
    _, seat = teacher()  # the room shows cat_mat; the exercise brings the post's numbers
    right, unscaled, typo = (app({"join": seat.code}) for _ in range(3))
    t = console(seat)
    ask_exercise(t, "hungry", "weights")
    answer(right, "0.844, 0.114, 0.042")
    card = " ".join(m.value for m in right.markdown)
    assert "jungle" in card and "Turn the scaled scores into attention weights" in card
    assert right.session_state[keys.SCENARIO].tokens == PRESETS["cat_mat"].build().tokens
    assert right.success and right.success[0].value.startswith("Correct")  # at once
    answer(unscaled, "0.980, 0.018, 0.002")
    assert "softmax of the unscaled scores" in unscaled.error[0].value
    answer(typo, "0.844, 0.114")
    assert "1 row × 2 columns, but this step needs 1 row × 3" in typo.error[0].value
    assert "Nothing was sent" in typo.error[0].value
    t.run()
    bars = tally_bars(t)
    assert bars["right"] == 1 and bars["used the unscaled scores in softmax"] == 1
    assert sum(bars.values()) == 2  # the typo was not counted
    t.button(key="live_reveal").click().run()
    for phone in (right, unscaled):
        phone.run()
        assert any("The answer: **0.844, 0.114, 0.042**" in m.value for m in phone.markdown)


def test_a_multiple_choice_exercise_is_asked_with_its_options() -> None:
    """Lesson 89's "why not remove the scaling?": B is right; A names its misconception."""
    projector, seat = teacher()
    right, wrong = app({"join": seat.code}), app({"join": seat.code})
    t = console(seat)
    ask_exercise(t, "why_scale", "choice")
    for phone, option in ((right, 1), (wrong, 0)):
        phone.run()
        phone.radio(key="live_choice").set_value(option)
        phone.button(key="live_answer_send").click().run()
        assert not phone.exception
    assert right.success[0].value.startswith("Right")  # (Markdown-escaped)
    assert wrong.error[0].value.startswith("Not this one")
    t.run()
    assert tally_bars(t) == {"right": 1, "thinks softmax ignores scale": 1, "other": 0}
    projector.run()  # the options, and no counts before the reveal
    assert any(m.value.startswith("- A. Nothing: softmax") for m in projector.markdown)
    assert not [c for c in projector.get("plotly_chart") if "answered" in c.proto.spec]
    t.button(key="live_reveal").click().run()
    right.run()
    assert any("The answer: **B. The dot products grow" in m.value for m in right.markdown)


def test_a_closed_question_leaves_the_projector_and_the_phones() -> None:
    projector, seat = teacher()
    student = app({"join": seat.code})
    t = console(seat)
    ask(t)
    answer(student, "0.42")
    t.run()
    assert tally_bars(t)["right"] == 1
    t.button(key="live_close").click().run()
    t.run()  # the next run reads the room again: it still holds the closed question
    assert not [c for c in t.get("plotly_chart") if "answered" in c.proto.spec]
    projector.run()
    assert not any("Question:" in m.value for m in projector.markdown)
    student.run()
    assert not any("Question for the class" in m.value for m in student.markdown)
