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
from helpers import decode_qr
from page_objects import ConsolePage, PhonePage, ProjectorPage
from playwright.sync_api import Browser, Page, expect

from attention_core import PRESETS

pytestmark = pytest.mark.e2e
FOLLOW_MS = 10_000  # a functional wait: how fast phones follow is measured in bench/load/live.py


def scenario_of(page: Page) -> str:
    return parse_qs(urlsplit(page.url).query).get("s", [""])[0]


def go_live(projector: ProjectorPage) -> str:
    """Go live on presentation mode: the join screen shows the code (Start the lesson next)."""
    code = projector.go_live()
    assert re.fullmatch(r"[A-Z0-9]{5}", code) and "teach" not in projector.page.url
    return code


def test_two_students_follow_the_teacher(live_server, browser: Browser, tmp_path: Path) -> None:
    teacher = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    projector = ProjectorPage(teacher, live_server.url)
    projector.open()
    code = go_live(projector)

    # the projector: the code, the address and its QR code
    qr = projector.join_screen.qr()
    expect(qr).to_be_visible()
    base = projector.join_screen.address()
    png = tmp_path / "qr.png"
    qr.screenshot(path=str(png))
    assert decode_qr(png) == f"{base}/?join={code}"
    projector.start_lesson(timeout=FOLLOW_MS)

    students = [PhonePage.new(browser, live_server.url) for _ in range(2)]
    for phone in students:
        phone.join(code.lower())
        phone.expect_on_step(1, timeout=15_000)  # they land on the teacher's page
    strip = projector.room_strip(f"{code} · 2")
    expect(strip.first).to_be_visible(timeout=15_000)  # the code and how many follow

    projector.tokens().first.click()  # focus the page, not a widget
    for k in (2, 3, 4):
        projector.next_button().click()
        projector.expect_on_step(k, timeout=FOLLOW_MS)
        for phone in students:
            phone.expect_on_step(k, timeout=FOLLOW_MS)

    # an example change reaches every phone: the same ?s= as the teacher's
    for k in (3, 2, 1):
        projector.back_button().click()
        projector.expect_on_step(k, timeout=FOLLOW_MS)
    projector.load_example(PRESETS["hungry"].title)
    expect(projector.example_picker()).to_be_hidden()  # the popover closed
    for phone in students:
        expect(phone.slide_tokens()).to_contain_text("jungle", timeout=FOLLOW_MS)
        want = scenario_of(teacher)  # the address follows at the end of the run
        phone.wait_for_scenario(want, timeout=FOLLOW_MS)

    # one explores and comes back
    explorer, other = students
    explorer.explore()
    expect(explorer.back_button()).to_be_visible()
    projector.next_button().click()
    other.expect_on_step(2, timeout=FOLLOW_MS)
    explorer.page.wait_for_timeout(1_500)
    assert explorer.step_caption().startswith("Step 1 of")  # it stayed
    explorer.back_to_teacher()
    explorer.expect_on_step(2, timeout=FOLLOW_MS)

    # a reload keeps the student in the room
    other.reload()
    other.expect_on_step(2, timeout=15_000)
    projector.next_button().click()
    other.expect_on_step(3, timeout=FOLLOW_MS)
    assert code in other.page.url


def test_ask_the_class_names_the_slip_and_reveals(live_server, browser: Browser) -> None:
    """The teacher asks the weight sat -> cat; one phone answers right, one forgets to
    scale; the projector's chart shows 1 right and 1 unscaled; Reveal reaches both phones;
    the CSV holds the two answers."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    projector = ProjectorPage(context.new_page(), live_server.url)
    projector.open("?step=5")  # Softmax: it suggests a weight
    code = go_live(projector)
    projector.start_lesson(timeout=FOLLOW_MS)
    phones = [PhonePage.new(browser, live_server.url) for _ in range(2)]
    for phone in phones:
        phone.join(code)
        phone.expect_on_step(5, timeout=15_000)
    # the console: the same browser, so the teacher's
    teacher = ConsolePage(context.new_page(), live_server.url).visit()
    expect(teacher.ask_button()).to_be_visible(timeout=FOLLOW_MS)
    teacher.ask()  # the suggested cell: sat -> cat
    for phone, typed in zip(phones, ("0.42", "0.56"), strict=True):
        phone.answer(typed, timeout=FOLLOW_MS)
        expect(phone.page.get_by_text("your first answer is the one counted")).to_be_visible()
    expect(teacher.tally("2 answered")).to_have_count(1, timeout=FOLLOW_MS)
    bars = teacher.tally_bars("2 answered")
    assert bars["right"] == 1 and bars["used the unscaled scores in softmax"] == 1, bars
    rows = teacher.download_answers().decode("utf-8-sig").splitlines()
    assert rows[0] == "question,value,verdict,slip,seconds after asking" and len(rows) == 3
    assert sorted(r.split(",")[-3] for r in rows[1:]) == ["right", "wrong"]
    teacher.reveal()
    for phone in phones:
        expect(phone.page.get_by_text("The answer:")).to_be_visible(timeout=FOLLOW_MS)
        expect(phone.question()).to_contain_text("0.42")
