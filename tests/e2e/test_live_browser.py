"""A live class in Chromium: a teacher's projector (and console) and two students' phones on
one real server and a real SQLite store. The students follow steps and an example change,
one explores and comes back, a reload stays in the room, the join screen's QR code decodes
(zbarimg) to the join address it shows, and a question asked from the console is answered,
tallied and revealed. (The whole lesson through make classroom: tests/deploy.)"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from helpers import decode_qr, wait_idle
from page_objects import PresentationPage
from playwright.sync_api import Browser, Page, expect

from attention_core import PRESETS

pytestmark = pytest.mark.e2e
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                       "(KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36"}  # fmt: skip
FOLLOW_MS = 10_000  # a functional wait: how fast phones follow is measured in bench/load/live.py
PROGRESS = "[data-testid='stProgress']"


@pytest.fixture
def live_server(fresh_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("LIVE_STORE", f"sqlite://{tmp_path / 'live.db'}")
    monkeypatch.delenv("ATTENTION_LAB_PUBLIC_URL", raising=False)
    return fresh_server()


def expect_step(page: Page, k: int, timeout: int = FOLLOW_MS) -> None:
    """The page shows step k (while a run redraws, the old top row may linger a moment)."""
    shown = page.locator(PROGRESS).filter(has_text=f"Step {k} of")
    expect(shown.first).to_be_visible(timeout=timeout)


def scenario_of(page: Page) -> str:
    return parse_qs(urlsplit(page.url).query).get("s", [""])[0]


def go_live(teacher: Page) -> str:
    """Go live on presentation mode: the join screen shows the code; Start the lesson."""
    teacher.locator(".st-key-live_start button").first.click()
    expect(teacher.locator(".st-key-live_join_screen")).to_be_visible(timeout=10_000)
    code = teacher.locator(".al-code").first.inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{5}", code) and "teach" not in teacher.url
    return code


def start_lesson(teacher: Page) -> None:
    teacher.locator(".st-key-live_join_hide button").click()
    expect(teacher.locator(".st-key-live_join_screen")).to_be_hidden(timeout=FOLLOW_MS)


def test_two_students_follow_the_teacher(live_server, browser: Browser, tmp_path: Path) -> None:
    teacher = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    teacher.goto(live_server.url + "/present")
    wait_idle(teacher)
    code = go_live(teacher)

    # the projector: the code, the address and its QR code
    qr = teacher.locator("img.al-qr").first
    expect(qr).to_be_visible()
    base = teacher.locator(".al-address").first.inner_text().strip()
    png = tmp_path / "qr.png"
    qr.screenshot(path=str(png))
    assert decode_qr(png) == f"{base}/?join={code}"
    start_lesson(teacher)

    students = [browser.new_context(**PHONE).new_page() for _ in range(2)]
    for phone in students:
        phone.goto(f"{live_server.url}/?join={code.lower()}")
        expect_step(phone, 1, timeout=15_000)  # they land on the teacher's page
    strip = teacher.locator(".st-key-live_strip button").filter(has_text=f"{code} · 2")
    expect(strip.first).to_be_visible(timeout=15_000)  # the code and how many follow

    teacher.locator(".st-key-present_tokens").first.click()  # focus the page, not a widget
    for k in (2, 3, 4):
        teacher.locator(".st-key-present_next button").click()
        expect_step(teacher, k)
        for phone in students:
            expect_step(phone, k)

    # an example change reaches every phone: the same ?s= as the teacher's
    for k in (3, 2, 1):
        teacher.locator(".st-key-present_back button").click()
        expect_step(teacher, k)
    PresentationPage(teacher).load_example(PRESETS["hungry"].title)
    expect(teacher.locator(".st-key-present_preset")).to_be_hidden()  # the popover closed
    for phone in students:
        expect(phone.locator(".st-key-present_tokens")).to_contain_text("jungle", timeout=FOLLOW_MS)
        want = scenario_of(teacher)  # the address follows at the end of the run
        phone.wait_for_function("(s) => location.search.includes(s)", arg=want, timeout=FOLLOW_MS)

    # one explores and comes back
    explorer, other = students
    explorer.locator(".st-key-live_explore button").click()
    expect(explorer.locator(".st-key-live_back button")).to_be_visible()
    teacher.locator(".st-key-present_next button").click()
    expect_step(other, 2)
    explorer.wait_for_timeout(1_500)
    assert explorer.locator(PROGRESS).first.inner_text().startswith("Step 1 of")  # it stayed
    explorer.locator(".st-key-live_back button").click()
    expect_step(explorer, 2)

    # a reload keeps the student in the room
    other.reload()
    expect_step(other, 2, timeout=15_000)
    teacher.locator(".st-key-present_next button").click()
    expect_step(other, 3)
    assert code in other.url


def test_ask_the_class_names_the_slip_and_reveals(live_server, browser: Browser) -> None:
    """The teacher asks the weight sat -> cat; one phone answers right, one forgets to
    scale; the projector's chart shows 1 right and 1 unscaled; Reveal reaches both phones;
    the CSV holds the two answers."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    projector = context.new_page()
    projector.goto(live_server.url + "/present?step=5")  # Softmax: it suggests a weight
    wait_idle(projector)
    code = go_live(projector)
    start_lesson(projector)
    phones = [browser.new_context(**PHONE).new_page() for _ in range(2)]
    for phone in phones:
        phone.goto(f"{live_server.url}/?join={code}")
        expect_step(phone, 5, timeout=15_000)
    teacher = context.new_page()  # the console: the same browser, so the teacher's
    teacher.goto(live_server.url + "/console")
    expect(teacher.locator(".st-key-live_ask button")).to_be_visible(timeout=FOLLOW_MS)
    teacher.locator(".st-key-live_ask button").click()  # the suggested cell: sat -> cat
    for phone, typed in zip(phones, ("0.42", "0.56"), strict=True):
        box = phone.locator(".st-key-live_answer input")
        expect(box).to_be_visible(timeout=FOLLOW_MS)
        box.fill(typed)
        box.press("Enter")
        expect(phone.get_by_text("your first answer is the one counted")).to_be_visible()
    # While the tally's fragment reruns, Streamlit may keep the old chart on screen for a
    # moment ("retained"): read the current one.
    tally = teacher.locator(".st-key-live_tally:not([data-retained])")
    expect(tally.filter(has_text="2 answered")).to_have_count(1, timeout=FOLLOW_MS)
    chart = tally.filter(has_text="2 answered").locator(".js-plotly-plot")
    bars = chart.evaluate("p => Object.fromEntries(p.data[0].y.map((y, i) => [y, p.data[0].x[i]]))")
    assert bars["right"] == 1 and bars["used the unscaled scores in softmax"] == 1, bars
    with teacher.expect_download() as download:
        teacher.locator(".st-key-live_csv button").click()
    rows = Path(download.value.path()).read_text().splitlines()
    assert rows[0] == "question,value,verdict,slip,seconds_after_asking" and len(rows) == 3
    assert sorted(r.split(",")[-3] for r in rows[1:]) == ["right", "wrong"]
    teacher.locator(".st-key-live_reveal button").click()
    for phone in phones:
        expect(phone.get_by_text("The answer:")).to_be_visible(timeout=FOLLOW_MS)
        expect(phone.locator(".st-key-live_question")).to_contain_text("0.42")
