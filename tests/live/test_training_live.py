"""A live class follows the Training lab as it follows the other labs: the teacher's
settings and step slider reach every following phone (AppTest, a real SQLite store)."""

from __future__ import annotations

import pytest

from attention_ui.frame import keys
from tests.live.apps import app
from tests.live.test_live_lesson import PATH, live_teacher, ok, page_of, room

pytestmark = pytest.mark.usefixtures("store", "public_url")  # tests/live/conftest.py


def test_the_class_follows_the_labs_settings_and_step() -> None:
    t, seat = live_teacher()
    student = app({"join": seat.code})
    t.switch_page(PATH["training"]).run()
    t.select_slider(key=keys.TR_DK).set_value(64).run()
    t.select_slider(key=keys.TR_STEPS).set_value(100).run()
    t.slider(key=keys.TR_STEP).set_value(40).run()
    ok(t).run()
    params = room(seat).params
    assert page_of(t) == "training" and params[keys.TR_DK] == 64 and params[keys.TR_STEP] == 40
    student.run()
    assert page_of(ok(student)) == "training"
    assert student.select_slider(key=keys.TR_DK).value == 64
    assert student.select_slider(key=keys.TR_STEPS).value == 100
    assert student.slider(key=keys.TR_STEP).value == 40
    titles = [c.proto.spec for c in student.get("plotly_chart")]
    assert any("Without scaling: weights at step 40" in spec for spec in titles)
