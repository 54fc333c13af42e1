"""A teacher's whole lesson through AppTest, on a real SQLite store: the teacher leads from any
page and is never pulled back, a lab's picks travel with the class, the console drives the
projector and the phones without ever being the class's page, a student who leaves on their
own explores, a reload of the teacher's browser drives again (its cookie), and the end of the
class reaches every follower. (Chromium walks the same lesson: tests/e2e/test_lesson_browser.)
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from attention_ui.live import seats
from tests.live.apps import app

pytestmark = pytest.mark.usefixtures("store", "public_url")  # tests/live/conftest.py
PATH = {k: spec.path for k, spec in BY_KEY.items()}


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def page_of(at: AppTest) -> str:
    return at.session_state[keys.CURRENT_PAGE]


def live_teacher() -> tuple[AppTest, seats.Seat]:
    at = app()
    at.switch_page(PATH["present"]).run()
    at.button(key="live_start").click().run()
    return ok(at), at.session_state[keys.LIVE]


def console(seat: seats.Seat) -> AppTest:
    at = app({"teach": f"{seat.code}.{seat.secret}"})
    at.switch_page(PATH["console"]).run()
    return ok(at)


def room(seat: seats.Seat):
    return seats.hub().rooms.get(seat.code)


def test_the_teacher_leads_from_any_page_and_is_never_pulled_back() -> None:
    t, seat = live_teacher()
    student = app({"join": seat.code})
    assert page_of(student) == "present"
    t.switch_page(PATH["start"]).run()  # *Exit presentation*
    ok(t).run()  # the next run (the count's, the watch's): the teacher stays
    assert page_of(t) == "start" and room(seat).page == "start"
    student.run()  # the watch's rerun
    assert page_of(ok(student)) == "start" and student.session_state[keys.LIVE].following
    t.switch_page(PATH["scaling-lab"]).run()
    t.select_slider(key=keys.LAB_DK).set_value(256).run()  # the lab's d_k moves
    ok(t).run()
    assert page_of(t) == "scaling-lab" and room(seat).params == {
        keys.LAB_DK: 256, keys.LAB_SEED: t.session_state[keys.LAB_SEED]}  # fmt: skip
    student.run()
    assert page_of(ok(student)) == "scaling-lab"
    assert student.select_slider(key=keys.LAB_DK).value == 256
    t.switch_page(PATH["exercises"]).run()
    student.run()
    assert page_of(ok(student)) == "exercises"


def test_a_student_who_leaves_the_slide_explores_and_is_not_pulled_back() -> None:
    t, seat = live_teacher()
    student = app({"join": seat.code})
    student.switch_page(PATH["start"]).run()  # the student's own *Exit presentation*
    assert not ok(student).session_state[keys.LIVE].following
    t.button(key="present_next").click().run()
    student.run()
    assert page_of(student) == "start"  # it stayed where the student went
    student.button(key="live_back").click().run()
    assert page_of(ok(student)) == "present"


def test_the_console_drives_the_projector_and_the_phones_and_stays_the_console() -> None:
    projector, seat = live_teacher()
    student = app({"join": seat.code})
    c = console(seat)
    assert room(seat).page == "present"  # opening the console took the class nowhere
    c.button(key="console_next").click().run()
    c.button(key="console_next").click().run()
    for at in (projector, student):
        at.run()
        assert ok(at).session_state[keys.PRESENT_STEP] == 3
    c.selectbox(key="console_go_to").set_value("softmax")
    c.button(key="console_go_btn").click().run()
    assert page_of(ok(c)) == "console"
    for at in (projector, student):
        at.run()
        assert page_of(ok(at)) == "softmax"
    c.selectbox(key="console_preset").set_value("hungry").run()  # at any step
    c.button(key="console_preset_load").click().run()
    student.run()
    assert student.session_state[keys.SCENARIO].tokens == ("animal", "jungle", "hunt")


def test_on_a_walkthrough_page_the_console_has_back_and_next_through_the_walkthrough() -> None:
    """Issue 42, item 4: on a walkthrough page the console held only "Take the class to"."""
    projector, seat = live_teacher()
    student = app({"join": seat.code})
    c = console(seat)
    c.selectbox(key="console_go_to").set_value("scores")
    c.button(key="console_go_btn").click().run()
    assert "page 3 of 7 of the walkthrough" in " ".join(m.value for m in ok(c).markdown)
    c.button(key="console_next").click().run()  # Scores -> Scaling
    assert room(seat).page == "scaling" and page_of(ok(c)) == "console"
    for at in (projector, student):
        at.run()
        assert page_of(ok(at)) == "scaling"
    c.button(key="console_back").click().run()
    c.button(key="console_back").click().run()  # Scaling -> Scores -> Projections
    assert room(seat).page == "projections"
    c.selectbox(key="console_go_to").set_value("inputs")
    c.button(key="console_go_btn").click().run()
    assert c.button(key="console_back").disabled and not c.button(key="console_next").disabled
    c.selectbox(key="console_go_to").set_value("output")
    c.button(key="console_go_btn").click().run()
    assert c.button(key="console_next").disabled and not c.button(key="console_back").disabled


def test_the_console_shows_the_control_link_only_on_request() -> None:
    _, seat = live_teacher()
    c = console(seat)
    secret_shown = lambda: any(seat.secret in str(e.value) for e in c.get("code"))  # noqa: E731
    assert not secret_shown()
    c.toggle(key=keys.LIVE_LINK_SHOWN).set_value(True).run()
    assert secret_shown()
    assert any(f"/console?teach={seat.code}.{seat.secret}" in str(e.value) for e in c.get("code"))
    assert any("drives your class" in w.value for w in c.warning)


def test_a_reload_of_the_teachers_browser_drives_again(monkeypatch) -> None:
    t, seat = live_teacher()
    t.button(key="present_next").click().run()
    monkeypatch.setattr(seats, "_cookie", lambda: f"{seat.code}.{seat.secret}")
    reloaded = app({"s": t.query_params["s"], "step": "1"})  # F5: a new session, old address
    s2 = reloaded.session_state[keys.LIVE]
    assert s2 is not None and s2.teaching and s2.code == seat.code
    assert reloaded.session_state[keys.PRESENT_STEP] == 2  # the room's step, not the URL's
    assert "teach" not in reloaded.query_params  # the secret never reaches the address
    with monkeypatch.context() as m:  # the class ended meanwhile: the cookie is forgotten
        seats.hub().rooms.end(seat.code, seat.secret)
        m.setattr(seats, "_cookie", lambda: f"{seat.code}.{seat.secret}")
        late = app()
        assert keys.LIVE not in late.session_state or late.session_state[keys.LIVE] is None
        assert late.session_state[keys.LIVE_COOKIE] == ""  # written "" (expired) this run


def test_the_end_reaches_every_follower_and_they_are_not_offered_go_live() -> None:
    t, seat = live_teacher()
    student = app({"join": seat.code})
    c = console(seat)
    c.button(key="live_end").click().run()
    assert ok(c).session_state[keys.LIVE] is None
    for at in (t, student):
        at.run()
        assert ok(at).session_state[keys.LIVE] is None
    assert not [b for b in student.button if b.key == "live_start"]  # a phone: no Go live
    assert [b for b in t.button if b.key == "live_start"]  # the teacher may go live again


def test_a_student_sees_the_answer_they_sent() -> None:
    _, seat = live_teacher()
    student = app({"join": seat.code})
    c = console(seat)
    c.selectbox(key="live_ask_stage").set_value("weights")
    c.button(key="live_ask").click().run()
    student.run()
    student.text_input(key="live_answer").set_value("0.5")
    student.button(key="live_answer_send").click().run()
    assert any(m.value == "Your answer: **0\\.5**" for m in ok(student).markdown)


def test_the_console_says_when_this_server_cannot_write_the_watch_file(monkeypatch) -> None:
    _, seat = live_teacher()
    why = "cannot write /x/static: Not a directory"  # what Hub.watch_file_error keeps
    monkeypatch.setattr(type(seats.hub()), "watch_file_error", lambda self: why)
    c = console(seat)
    assert any("cannot write the class's watch file" in w.value for w in c.warning)
    assert any("Not a directory" in w.value for w in c.warning)
