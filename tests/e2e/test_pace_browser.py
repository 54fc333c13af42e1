"""A class at its own pace in Chromium: the teacher's console starts a practice, three phones
work through the open exercise (one with a nickname, one without, one that reloads in the
middle), and the dashboard's grid and counts are what the phones did; the CSV is read back.
(The store side, on SQLite and Redis: tests/live/test_pace.py.)"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from helpers import shot
from page_objects import ConsolePage, PhonePage
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e
SEEN_MS = 10_000  # a functional wait: how fast the dashboard sees a check is in bench/load
TOY = "paper_toy"  # the open exercise
# The paper's toy (1 query, 2 keys): Q Kᵀ = [1, 2]; scaled by √2: 0.7071, 1.4142.
SCORES, SCORES_ROWS_SWAPPED = "1, 2", "1; 2"  # one column: "transposed the product"
SCALED, UNSCALED = "0.7071, 1.4142", "1, 2"  # the scores again: "forgot to scale"


@pytest.fixture
def live_public_url() -> str:
    return "http://10.1.2.3:8501"


def test_a_class_at_its_own_pace(live_server, browser: Browser, tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    teacher = ConsolePage(context.new_page(), live_server.url)
    teacher.visit().wait_idle()
    teacher.press_go_live()
    teacher.wait_idle()
    code = teacher.code()
    teacher.open_practice()  # the expander
    teacher.start_practice()  # the first exercise open
    expect(teacher.dashboard()).to_be_visible(timeout=SEEN_MS)

    ada, plain, sleepy = (PhonePage.new(browser, live_server.url) for _ in range(3))
    for phone in (ada, plain, sleepy):
        phone.join(code)
        expect(phone.pace_card()).to_be_visible(timeout=20_000)
        phone.wait_idle()
    ada.set_nickname("Ada")
    expect(ada.pace_card()).to_contain_text("“Ada”", timeout=SEEN_MS)

    ada.check(TOY, "scores", SCORES)
    ada.check(TOY, "scaled", UNSCALED)
    plain.check(TOY, "scores", SCORES_ROWS_SWAPPED)
    plain.check(TOY, "scores", SCORES)
    sleepy.check(TOY, "scores", SCORES)
    sleepy.type_answer(TOY, "scaled", "0.70")  # mid-exercise...
    sleepy.reload()  # ...the phone reloads: the same seat, its answer back
    expect(sleepy.pace_card()).to_contain_text("seat 3", timeout=20_000)
    sleepy.wait_idle()
    # the verdict it saw before the reload (its kept work, re-checked by the core)
    expect(sleepy.alerts("Correct")).to_have_count(1)
    sleepy.check(TOY, "scaled", SCALED)
    sleepy.pace_card().scroll_into_view_if_needed()
    shot(sleepy.page, "pace-phone", full=False)

    grid = [
        ["Student", "1·Q Kᵀ", "1·Q Kᵀ / √d_k", "1·weights", "1·output"],  # steps' titles
        ["Ada", "✓", "✗ forgot to scale", "·", "·"],
        ["Seat 2", "✓ (2)", "·", "·", "·"],
        ["Seat 3", "✓", "✓", "·", "·"],
    ]
    expect(teacher.grid()).to_contain_text("Seat 3", timeout=SEEN_MS)
    teacher.wait_for_grid_last_row("✓\t✓", timeout=SEEN_MS)  # the next refresh has every check
    assert teacher.grid_rows() == grid
    counts = teacher.dashboard_rows()[: 1 + 4]
    assert counts == [
        ["Step", "Tried", "Right first", "Right in the end", "Slips, most common first"],
        ["1 · Paper toy: Q Kᵀ", "3", "2", "3", "transposed the product 1"],
        ["1 · Paper toy: Q Kᵀ / √d_k", "2", "1", "1", "forgot to scale 1"],
        ["1 · Paper toy: weights", "0", "0", "0", "—"],
        ["1 · Paper toy: output", "0", "0", "0", "—"],
    ]
    shot(teacher.page, "pace-console", full=False)
    teacher.scroll_to_grid()
    shot(teacher.page, "pace-console-grid", full=False)

    data = teacher.download_practice()  # UTF-8 with its BOM, for a spreadsheet
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    toy, scores, scaled = "1 · Paper toy", "Q Kᵀ", "Q Kᵀ / √d_k"  # the dashboard's titles
    assert [r[:6] for r in rows] == [
        ["seat", "exercise", "step", "verdict", "slip", "attempts"],
        ["Ada", toy, scores, "right", "", "1"],
        ["Ada", toy, scaled, "wrong", "forgot to scale", "1"],
        ["Seat 2", toy, scores, "right", "", "2"],
        ["Seat 3", toy, scores, "right", "", "1"],
        ["Seat 3", toy, scaled, "right", "", "1"],
    ]
    assert all(0 <= float(r[6]) < 300 for r in rows[1:])  # seconds since the seat came
    for phone in (plain, sleepy):  # no other student's name on a phone
        assert "Ada" not in phone.text_on_screen()
