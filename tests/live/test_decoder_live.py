"""The Decoder lab's sampling settings travel with a live class (keys.PAGE_PARAMS): a student
who follows sees the teacher's temperature, cut-offs, seed and tile size, so the draws and
the chart on every phone are the teacher's (real SQLite store, AppTest)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from tests.core import smollm2
from tests.live.apps import APP

pytestmark = pytest.mark.usefixtures("store", "public_url")  # tests/live/conftest.py


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_student_follows_the_teachers_sampling_settings() -> None:
    smollm2.decoder()  # skips when absent; fails under CI=true
    t = AppTest.from_file(APP, default_timeout=120).run()
    t.switch_page(BY_KEY["present"].path).run()
    t.button(key="live_start").click().run()
    seat = ok(t).session_state[keys.LIVE]
    student = AppTest.from_file(APP, default_timeout=120)
    student.query_params[keys.JOIN] = seat.code
    student.run()
    t.switch_page(BY_KEY["decoder"].path).run()
    t.slider(key=keys.DEC_TEMP).set_value(0.7).run()
    t.number_input(key=keys.DEC_TOP_K).set_value(5).run()
    t.number_input(key=keys.DEC_SEED).set_value(4).run()
    ok(t).run()
    student.run()
    assert ok(student).session_state[keys.CURRENT_PAGE] == "decoder"
    assert student.slider(key=keys.DEC_TEMP).value == 0.7
    assert student.number_input(key=keys.DEC_TOP_K).value == 5
    assert student.number_input(key=keys.DEC_SEED).value == 4
    assert student.button(key="dec_append").label == t.button(key="dec_append").label
