"""A class at its own pace in Chromium: the teacher's console starts a practice, three phones
work through the open exercise (one with a nickname, one without, one that reloads in the
middle), and the dashboard's grid and counts are what the phones did; the CSV is read back.
(The store side, on SQLite and Redis: tests/live/test_pace.py.)"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from helpers import shot, wait_idle
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                       "(KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36"}  # fmt: skip
SEEN_MS = 10_000  # a functional wait: how fast the dashboard sees a check is in bench/load
# The paper's toy (1 query, 2 keys): Q Kᵀ = [1, 2]; scaled by √2: 0.7071, 1.4142.
SCORES, SCORES_ROWS_SWAPPED = "1, 2", "1; 2"  # one column: "transposed the product"
SCALED, UNSCALED = "0.7071, 1.4142", "1, 2"  # the scores again: "forgot to scale"


@pytest.fixture
def live_server(fresh_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("LIVE_STORE", f"sqlite://{tmp_path / 'live.db'}")
    monkeypatch.setenv("ATTENTION_LAB_PUBLIC_URL", "http://10.1.2.3:8501")
    return fresh_server()


def check(phone: Page, step: str, text: str) -> None:
    """Type an answer into the paper toy's step and press Check, as a student does."""
    box = phone.locator(f".st-key-ex_paper_toy_{step} input")
    box.fill(text)
    box.press("Enter")
    wait_idle(phone)
    phone.locator(f".st-key-ex_paper_toy_{step}_check button").click()
    wait_idle(phone)


def table_rows(page: Page, key: str) -> list[list[str]]:
    rows = page.locator(f".st-key-{key} table tr")
    return [[c.strip() for c in r.split("\t")] for r in rows.all_inner_texts()]


def test_a_class_at_its_own_pace(live_server, browser: Browser, tmp_path: Path) -> None:
    teacher = browser.new_context(viewport={"width": 1280, "height": 720},
                                  accept_downloads=True).new_page()  # fmt: skip
    teacher.goto(live_server.url + "/console")
    wait_idle(teacher)
    teacher.locator(".st-key-live_start button").first.click()
    wait_idle(teacher)
    code = teacher.locator(".st-key-console_head").inner_text().split("Live class ")[1][:5]
    teacher.get_by_text("Practice at their own pace").first.click()  # the expander
    teacher.locator(".st-key-pace_start button").click()  # the first exercise open
    expect(teacher.locator(".st-key-pace_dashboard")).to_be_visible(timeout=SEEN_MS)

    ada, plain, sleepy = (browser.new_context(**PHONE).new_page() for _ in range(3))
    for phone in (ada, plain, sleepy):
        phone.goto(f"{live_server.url}/?join={code}")
        expect(phone.locator(".st-key-pace_card")).to_be_visible(timeout=20_000)
        wait_idle(phone)
    ada.locator(".st-key-pace_nick input").fill("Ada")
    ada.get_by_role("button", name="Use it").click()
    expect(ada.locator(".st-key-pace_card")).to_contain_text("“Ada”", timeout=SEEN_MS)

    check(ada, "scores", SCORES)
    check(ada, "scaled", UNSCALED)
    check(plain, "scores", SCORES_ROWS_SWAPPED)
    check(plain, "scores", SCORES)
    check(sleepy, "scores", SCORES)
    sleepy.locator(".st-key-ex_paper_toy_scaled input").fill("0.70")  # mid-exercise...
    sleepy.reload()  # ...the phone reloads: the same seat, its answer back
    expect(sleepy.locator(".st-key-pace_card")).to_contain_text("seat 3", timeout=20_000)
    wait_idle(sleepy)
    expect(sleepy.locator("[data-testid='stAlert']").filter(has_text="Right")).to_have_count(1)
    check(sleepy, "scaled", SCALED)
    sleepy.locator(".st-key-pace_card").scroll_into_view_if_needed()
    shot(sleepy, "pace-phone", full=False)

    grid = [
        ["Student", "1·scores", "1·scaled", "1·weights", "1·output"],
        ["Ada", "✓", "✗ forgot to scale", "·", "·"],
        ["Seat 2", "✓ (2)", "·", "·", "·"],
        ["Seat 3", "✓", "✓", "·", "·"],
    ]
    expect(teacher.locator(".st-key-pace_grid table")).to_contain_text("Seat 3", timeout=SEEN_MS)
    teacher.wait_for_function(  # the dashboard's next refresh has every check
        "() => document.querySelector('.st-key-pace_grid table').innerText"
        ".split('\\n').pop().includes('✓\\t✓')",
        timeout=SEEN_MS,
    )
    assert table_rows(teacher, "pace_grid") == grid
    counts = table_rows(teacher, "pace_dashboard")[: 1 + 4]
    assert counts == [
        ["Step", "Tried", "Right first", "Right in the end", "Slips, most common first"],
        ["1 · Paper toy: Q Kᵀ", "3", "2", "3", "transposed the product 1"],
        ["1 · Paper toy: Q Kᵀ / √d_k", "2", "1", "1", "forgot to scale 1"],
        ["1 · Paper toy: weights", "0", "0", "0", "—"],
        ["1 · Paper toy: output", "0", "0", "0", "—"],
    ]
    shot(teacher, "pace-console", full=False)
    teacher.locator(".st-key-pace_grid").scroll_into_view_if_needed()
    shot(teacher, "pace-console-grid", full=False)

    with teacher.expect_download() as download:
        teacher.locator(".st-key-pace_csv button").click()
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text())))
    assert [r[:6] for r in rows] == [
        ["seat", "exercise", "step", "verdict", "slip", "attempts"],
        ["Ada", "paper_toy", "scores", "right", "", "1"],
        ["Ada", "paper_toy", "scaled", "wrong", "forgot to scale", "1"],
        ["Seat 2", "paper_toy", "scores", "right", "", "2"],
        ["Seat 3", "paper_toy", "scores", "right", "", "1"],
        ["Seat 3", "paper_toy", "scaled", "right", "", "1"],
    ]
    assert all(0 <= float(r[6]) < 300 for r in rows[1:])  # seconds since the seat came
    for phone in (plain, sleepy):  # no other student's name on a phone
        assert "Ada" not in phone.locator("[data-testid='stMain']").inner_text()
