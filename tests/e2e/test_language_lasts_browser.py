"""A picked language lasts, in Chromium (issue 41, defects 2 and 3), at desktop and phone size:

- on the Start page, a language picked in the page's picker shows in the sidebar's too and
  lasts when the learner clicks *1. Inputs* (before: English again, ``lang=en``);
- a phone exploring on its own that picks a language keeps it on *Back to the teacher*
  (before: English again, or the language its other picker last held).
Screenshots go to test-artifacts/ (lang-lasts-*.png).
"""

from __future__ import annotations

import pytest
from helpers import MAIN, goto, shot, wait_idle
from page_objects import PHONE, PhonePage, PresentationPage, ProjectorPage
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from test_live_browser import go_live

from attention_ui import i18n
from attention_ui.frame.pages import BY_KEY

pytestmark = pytest.mark.e2e
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def said(code: str, msgid: str) -> str:
    return i18n.translations(code).gettext(msgid)


def pick(page: Page, key: str, option: str) -> None:
    """Open the select box ``key`` with the keyboard and click ``option`` (a click right
    after another widget may focus the box without opening it: retry)."""
    wanted = page.get_by_role("option", name=option, exact=True)
    for _attempt in range(4):
        wait_idle(page)
        page.locator(f".st-key-{key} input").focus()
        page.keyboard.press("ArrowDown")
        try:
            wanted.wait_for(timeout=3_000)
            break
        except PlaywrightTimeoutError:
            page.keyboard.press("Escape")
    wanted.click()
    wait_idle(page)


def shows(page: Page, key: str, code: str) -> None:
    """The picker ``key`` shows the language ``code`` (also while the sidebar is hidden)."""
    box = page.locator(f".st-key-{key}")
    expect(box).to_have_count(1)
    shown = (box.text_content() or "") + " ".join(
        i.get_attribute("value") or "" for i in box.locator("input").all()
    )
    assert i18n.NAMES[code] in shown, (key, shown, box.inner_html()[:1500])


@pytest.mark.parametrize(("size", "code"), [("desktop", "es"), ("phone", "fr")])
def test_a_language_picked_on_start_lasts_into_the_walkthrough(
    browser: Browser, browser_context_args: dict, size: str, code: str
) -> None:
    context = browser.new_context(**{**browser_context_args, **SIZES[size]})
    page = context.new_page()
    try:
        goto(page, "/", timeout=60_000)
        pick(page, "lang_start", i18n.NAMES[code])
        shows(page, "lang_start", code)
        shows(page, "lang_sidebar", code)  # both pickers say the same
        link = said(code, "Walk through the steps from 1. Inputs")
        page.locator(MAIN).get_by_role("link", name=link).click()
        expect(page.locator(f"{MAIN} h1").first).to_have_text(said(code, BY_KEY["inputs"].title),
                                                              timeout=30_000)  # fmt: skip
        wait_idle(page)
        assert f"lang={code}" in page.url, page.url
        shows(page, "lang_sidebar", code)
        shot(page, f"lang-lasts-inputs-{size}-{code}", full=False)
    finally:
        context.close()


@pytest.mark.parametrize(("size", "code"), [("phone", "zh"), ("desktop", "de")])
def test_an_exploring_student_keeps_its_language_back_with_the_teacher(
    live_server, browser: Browser, size: str, code: str
) -> None:
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    student_ctx = browser.new_context(**SIZES[size])
    try:
        projector = ProjectorPage(teacher_ctx.new_page())
        goto(projector.page, f"{live_server.url}/present", timeout=60_000)
        code_ = go_live(projector)
        projector.start_lesson(timeout=10_000)
        student = student_ctx.new_page()
        phone = PhonePage(student)
        goto(student, f"{live_server.url}/?join={code_}", timeout=60_000)
        phone.explore()
        expect(phone.back_button()).to_be_visible(timeout=10_000)
        PresentationPage(student).exit()  # to Start, exploring
        expect(student.locator(".st-key-lang_start")).to_be_visible(timeout=30_000)
        picker = "lang_start" if size == "phone" else "lang_sidebar"  # either picker
        pick(student, picker, i18n.NAMES[code])
        phone.back_to_teacher()
        back = phone.explore_button()
        expect(back).to_contain_text(said(code, "Explore on my own"), timeout=10_000)
        wait_idle(student)
        assert f"lang={code}" in student.url and "lang=en" not in student.url, student.url
        shot(student, f"lang-lasts-back-{size}-{code}", full=False)
    finally:
        student_ctx.close()
        teacher_ctx.close()
