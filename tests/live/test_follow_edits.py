"""Issue 41, 7: a student's edit of the example on a phone that follows the teacher.

The phone explores from the edit on, and is told so (the teacher's next change replaced the
edit without a word); *Back to the teacher* takes the class's example again. And two edits
that reach the server in one run (a busy class's server takes a phone's requests together)
are both kept: the first one's callback unmapped the editor's widget keys, and the second
raised ``KeyError: st.session_state has no key "size_d_v"``. AppTest with a real SQLite
store; the browser journey is tests/e2e/test_live_edit_browser.py."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS, shapes
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from tests.live.apps import app

pytestmark = pytest.mark.usefixtures("store")  # tests/live/conftest.py
INPUTS = BY_KEY["inputs"].path
FAILED = "Something went wrong with your last change"


def failed(at: AppTest) -> bool:
    return bool(at.exception) or any(FAILED in str(w.value) for w in at.warning)


def bar(at: AppTest) -> str:
    return " ".join(m.value for m in at.markdown if "Live class" in m.value)


def test_edits_that_arrive_in_one_run_are_all_kept() -> None:
    at = app()
    at.switch_page(INPUTS).run()
    at.text_input(key="tokens_text").set_value("a b c")
    at.number_input(key="size_d_k").set_value(2)
    at.number_input(key="size_d_v").set_value(3)
    at.run()  # three changed widgets, three callbacks in one run
    assert not failed(at)
    draft = at.session_state[keys.DRAFT]
    assert draft.tokens == ("a", "b", "c")
    assert (shapes.dims(draft)["d_k"], shapes.dims(draft)["d_v"]) == (2, 3)
    assert at.number_input(key="size_d_v").value == 3  # the widgets show the draft


def test_a_following_student_who_edits_explores_and_comes_back() -> None:
    t = app()
    t.switch_page(BY_KEY["present"].path).run()
    t.button(key="live_start").click().run()
    t.button(key="live_join_hide").click().run()
    t.switch_page(INPUTS).run()  # the teacher leads from the Inputs page
    code = t.session_state[keys.LIVE].code
    phone = app({"join": code})
    assert phone.session_state[keys.CURRENT_PAGE] == "inputs"
    assert "following the teacher" in bar(phone)
    phone.text_input(key="tokens_text").set_value("my own words").run()
    assert not failed(phone)
    assert "exploring on your own" in bar(phone)  # it says so, and offers the way back
    assert any("you now explore on your own" in c.value for c in phone.caption)
    assert phone.button(key="live_back")
    t.selectbox(key="preset_choice").set_value("hungry").run()
    t.button(key="preset_choice_load").click().run()  # the teacher's next change
    phone.run()  # its next poll
    assert phone.session_state[keys.DRAFT].tokens == ("my", "own", "words")  # kept
    phone.button(key="live_back").click().run()
    assert "following the teacher" in bar(phone)
    assert phone.session_state[keys.SCENARIO].tokens == PRESETS["hungry"].build().tokens
    t.selectbox(key="preset_choice").set_value("paper_toy").run()
    t.button(key="preset_choice_load").click().run()
    phone.run()  # it follows again
    assert phone.session_state[keys.SCENARIO].tokens == PRESETS["paper_toy"].build().tokens
    assert "following the teacher" in bar(phone)
