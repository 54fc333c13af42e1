"""A room's record can never take a screen away (issue 41): whatever page, lock or exercise
a record names (another version of the app wrote it, or an older one that stored a label),
the console renders with its controls (*End the class* always, *Stop the practice* in a
practice), and the projector and a phone render without an exception.

The records are written straight into the store, as another version of the app would.
"""

from __future__ import annotations

import json

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


def live_teacher() -> tuple[AppTest, seats.Seat]:
    at = app()
    at.switch_page(PATH["present"]).run()
    at.button(key="live_start").click().run()
    return ok(at), at.session_state[keys.LIVE]


def rewrite(seat: seats.Seat, **fields: object) -> None:
    """Write fields into the room's record as stored, and move its version on."""
    store = seats.hub().rooms.store
    record = json.loads(store.get(f"room:{seat.code}"))
    record.update(fields)
    store.set(f"room:{seat.code}", json.dumps(record), 3600)
    store.incr(f"room:{seat.code}:v", 3600)


def console(seat: seats.Seat) -> AppTest:
    at = app({"teach": f"{seat.code}.{seat.secret}"})
    at.switch_page(PATH["console"]).run()
    return at


ODD = {
    "a page this version does not have": {"page": "attention-v9-page"},
    "a step past the last slide": {"page": "present", "step": 99},
    "a practice locked on an exercise no catalogue has": {
        "page": "exercises",
        "practice": {
            "open": ["paper_toy", "no-such-exercise"],
            "lock": "3 · Two keys",
            "stuck_s": 120.0,
            "stopped": False,
            "started": 0.0,
        },
    },
    "a practice whose record is not a practice": {"page": "exercises", "practice": {"x": 1}},
}


@pytest.mark.parametrize("case", list(ODD))
def test_every_screen_renders_whatever_the_record_holds(case: str) -> None:
    projector, seat = live_teacher()
    student = app({"join": seat.code})
    rewrite(seat, **ODD[case])
    c = console(seat)
    assert not c.exception, (case, [e.value for e in c.exception])
    assert c.button(key="live_end"), case  # End the class is always there
    if "practice" in ODD[case]:
        assert c.button(key="pace_stop"), case
    for at in (projector, student):
        at.run()
        assert not at.exception, (case, [e.value for e in at.exception])
    c.button(key="live_end").click().run()  # and it still ends the class
    assert ok(c).session_state[keys.LIVE] is None
