"""A presentation clicker in a real browser (issue 22): PageDown / PageUp step the slides,
and "b" or "." blanks the screen until any key."""

from __future__ import annotations

import pytest
from page_objects import PresentationPage
from playwright.sync_api import Page, expect

from attention_core import default_scenario
from attention_ui.practice import present

pytestmark = pytest.mark.e2e
BLANK = "#present-blank"


def test_page_down_and_up_step_like_a_clicker(page: Page, console_errors) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    slides = PresentationPage(page).open()
    s = default_scenario()
    plan = present.steps(s, s.trace())
    slides.focus()
    slides.press("PageDown")
    slides.expect_step(2, len(plan), plan[1].title)
    slides.press("PageDown")
    slides.expect_step(3, len(plan), plan[2].title)
    slides.press("PageUp")
    slides.expect_step(2, len(plan), plan[1].title)
    for key in ("b", "."):
        slides.press(key)
        expect(page.locator(BLANK)).to_be_visible()
        slides.press("PageDown")  # the first key only brings the slide back
        expect(page.locator(BLANK)).to_have_count(0)
        slides.expect_step(2, len(plan), plan[1].title)
    console_errors.assert_clean("clicker keys")
