"""A class at its own pace through the app (AppTest): the console starts and paces it, phones
work on the Exercises page, the dashboard counts what they did, names stay on the console."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.classroom.pace import Pace
from attention_ui.classroom.rooms import Rooms
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from attention_ui.storage.store import open_store
from tests.live import test_live_faults as faults
from tests.live.apps import app

pytestmark = pytest.mark.usefixtures("public_url")  # tests/live/conftest.py
CONSOLE = BY_KEY["console"].path
durable_redis, outage = faults.durable_redis, faults.outage  # the faults' fixtures
# "…because it was hungry": scores 6, 2, 0 scaled by √4 to 3, 1, 0; weights 0.844 0.114 0.042
RIGHT = {"scaled": "3, 1, 0", "weights": "0.844, 0.114, 0.042"}
UNSCALED = {"scaled": "6, 2, 0", "weights": "0.980, 0.018, 0.002"}


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def console_practice(open_ids: list[str]) -> tuple[AppTest, str]:
    """Go live from the console and start a practice with ``open_ids`` open."""
    t = app()
    t.switch_page(CONSOLE).run()
    t.button(key="live_start").click().run()
    t.multiselect(key="pace_pick").set_value(open_ids)
    ok(t.button(key="pace_start").click().run())
    return t, t.session_state[keys.LIVE].code


def check(phone: AppTest, exercise: str, step: str, text: str) -> None:
    phone.text_input(key=f"ex_{exercise}_{step}").set_value(text)
    ok(phone.button(key=f"ex_{exercise}_{step}_check").click().run())


def markdown(at: AppTest) -> str:
    """The page's Markdown as it reads (md_escape's backslashes taken out)."""
    return "\n".join(m.value for m in at.markdown).replace("\\", "")


def test_phones_practise_and_the_dashboard_counts_them(store: str) -> None:
    t, code = console_practice(["hungry"])
    ada, plain = app({"join": code}), app({"join": code})
    for phone in (ada, plain):
        ok(phone.run())  # the room is on the Exercises page: every phone goes there
        assert phone.session_state[keys.CURRENT_PAGE] == "exercises"
        assert [tab.label for tab in phone.tabs] == ["2 · “it was hungry”"]  # only the open one
    ada.text_input(key="pace_nick").set_value("Ada")
    ok(ada.button(key="pace_nick_use").click().run())
    plain.text_input(key="pace_nick").set_value(" ADA ")  # the same name, folded
    ok(plain.button(key="pace_nick_use").click().run())
    assert any("already called 'ADA'" in e.value for e in plain.error)
    check(ada, "hungry", "scaled", UNSCALED["scaled"])
    check(ada, "hungry", "scaled", RIGHT["scaled"])
    check(ada, "hungry", "weights", UNSCALED["weights"])
    check(plain, "hungry", "scaled", RIGHT["scaled"])
    check(plain, "hungry", "weights", "")  # an empty box is not a try
    ok(t.run())
    text = markdown(t)
    assert "| Ada | ✓ (2) | ✗ used the unscaled scores in softmax | · |" in text
    assert "| Seat 2 | ✓ | · | · |" in text
    assert "| 2 · “it was hungry”: Q Kᵀ / √d_k | 2 | 1 | 2 | forgot to scale 1 |" in text
    weights = "| 2 · “it was hungry”: weights | 1 | 0 | 0 | used the unscaled scores in softmax 1 |"
    assert weights in text
    # nothing of Ada's reaches the other phone: neither her name nor her slip
    assert "Ada" not in markdown(plain) and "unscaled" not in markdown(plain)


def test_a_nickname_is_plain_text_on_the_console(store: str) -> None:
    t, code = console_practice(["hungry"])
    phone = ok(app({"join": code}).run())
    phone.text_input(key="pace_nick").set_value("**x** <b>y</b>")
    ok(phone.button(key="pace_nick_use").click().run())
    ok(t.run())
    source = "\n".join(m.value for m in t.markdown)
    assert r"| \*\*x\*\* \<b\>y\</b\> |" in source  # every mark escaped: shown as typed


def test_lock_open_the_next_and_pause(store: str) -> None:
    t, code = console_practice(["paper_toy", "hungry"])
    phone = ok(app({"join": code}).run())
    assert len(phone.tabs) == 2
    lock = next(s for s in t.selectbox if s.key.startswith("pace_lock"))
    ok(lock.set_value("paper_toy").run())
    ok(phone.run())
    assert [tab.label for tab in phone.tabs] == ["1 · Paper toy"]
    ok(t.button(key="pace_next").click().run())  # the next in the catalogue, locked to
    ok(phone.run())
    assert [tab.label for tab in phone.tabs] == ["2 · “it was hungry”"]  # the lock moved on
    ok(t.button(key="live_pause_btn").click().run())
    ok(phone.run())
    assert any("Eyes on the screen" in m.value for m in phone.markdown)


def test_the_store_down_a_student_goes_on_and_the_check_arrives_once(outage) -> None:
    t, code = console_practice(["hungry"])
    phone = ok(app({"join": code}).run())
    check(phone, "hungry", "scaled", UNSCALED["scaled"])
    outage.stop()
    check(phone, "hungry", "scaled", RIGHT["scaled"])  # the page's own verdict still shows
    assert any("Correct" in s.value for s in phone.success)
    assert any("1 not sent yet" in w.value for w in phone.warning)
    outage.start()
    ok(phone.run())  # the next run sends it
    ok(phone.run())
    assert not any("not sent yet" in w.value for w in phone.warning)
    seats, work = Pace(Rooms(open_store(outage.url))).snapshot(code)
    (seat,) = seats
    assert [(e.step, e.ok, e.slip) for e in work[seat.key]] == [
        ("scaled", False, "unscaled"),
        ("scaled", True, None),
    ]
    ok(t.run())
    assert "| Seat 1 | ✓ (2) | · | · |" in markdown(t)  # two checks, each once


def test_the_projector_shows_the_counts_and_no_name(store: str) -> None:
    t, code = console_practice(["hungry"])
    seat = t.session_state[keys.LIVE]
    projector = app({"teach": f"{seat.code}.{seat.secret}"})  # the teacher's other tab
    projector.switch_page(BY_KEY["exercises"].path)
    ok(projector.run())
    phone = ok(app({"join": code}).run())
    phone.text_input(key="pace_nick").set_value("Ada")
    ok(phone.button(key="pace_nick_use").click().run())
    check(phone, "hungry", "scaled", UNSCALED["scaled"])
    assert "The class at its own pace" not in markdown(ok(projector.run()))  # not asked for
    ok(t.toggle(key="pace_project").set_value(True).run())
    shown = markdown(ok(projector.run()))
    assert "**The class at its own pace**: 1 student" in shown
    assert "| 2 · “it was hungry”: Q Kᵀ / √d_k | 1 | 0 | 0 | forgot to scale 1 |" in shown
    assert "Ada" not in shown and "Seat 1" not in shown
