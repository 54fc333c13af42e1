"""The Multi-head page in a real browser: change the head count, open a head, share the link.

Locators live in the small page object below (tests/e2e page objects are being added on
another branch; this one can move there).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from helpers import EXCEPTION, MAIN, goto, h1_text, wait_idle
from playwright.sync_api import Browser, Page, expect

from attention_core import Scenario, random_scenario

pytestmark = pytest.mark.e2e
TIMEOUT = 60_000  # a long page of charts: on a busy 2-core box it can take 30 s to settle


class MultiHeadPage:
    """Locators and actions of /multi-head."""

    SMALL = "[class*='st-key-mh_small_'] .g-gtitle"

    def __init__(self, page: Page) -> None:
        # Tall enough for the whole page: Streamlit loads elements below the fold lazily
        # (skeletons), and wait_idle waits for every one of them.
        page.set_viewport_size({"width": 1400, "height": 7000})
        self.page = page

    def open(self, s: Scenario, extra: str = "") -> MultiHeadPage:
        goto(self.page, f"/multi-head?s={s.to_url()}{extra}", timeout=TIMEOUT)
        return self

    def small_multiple_titles(self) -> list[str]:
        return [t.strip() for t in self.page.locator(self.SMALL).all_text_contents()]

    def option(self, widget: str, label: str):
        return self.page.locator(f".st-key-{widget} button").filter(
            has_text=re.compile(f"^{label}$")
        )

    def selected(self, widget: str) -> str:
        checked = self.page.locator(f".st-key-{widget} [role='radio'][aria-checked='true']")
        return checked.inner_text().strip()

    def set_heads(self, n: int) -> None:
        self.option("n_heads_choice", str(n)).click()
        expect(self.page.locator(self.SMALL)).to_have_count(n, timeout=TIMEOUT)
        wait_idle(self.page, timeout=TIMEOUT)

    def pick_head(self, n: int) -> None:
        self.option("head", str(n)).click()
        wait_idle(self.page, timeout=TIMEOUT)

    def open_in_walkthrough(self, n: int) -> None:
        # by name: while the fragment reruns, the last run's button can still be on the page
        self.page.get_by_role("button", name=f"Open head {n} in the walkthrough").click()


def scenario() -> Scenario:
    s = random_scenario(seed=3, n_tokens=5, d_model=8, d_k=8, d_v=8)
    return s.replace(W_o=np.round(np.eye(8) * 0.5, 2), name="")


def test_head_count_changes_the_small_multiples_and_travels_in_the_link(
    page: Page, browser: Browser, browser_context_args: dict, console_errors
) -> None:
    lab = MultiHeadPage(page).open(scenario())
    assert h1_text(page) == "Multi-head"
    assert lab.small_multiple_titles() == ["Head 1 (d_head = 8)"]
    lab.set_heads(4)
    assert lab.small_multiple_titles() == [f"Head {h} (d_head = 2)" for h in range(1, 5)]
    assert page.locator(EXCEPTION).count() == 0
    link = page.url
    assert "?s=" in link
    other = browser.new_context(**browser_context_args)  # a second visitor, a new session
    try:
        shared = MultiHeadPage(other.new_page())
        goto(shared.page, link, timeout=TIMEOUT)
        assert shared.small_multiple_titles() == lab.small_multiple_titles()
        assert shared.selected("n_heads_choice") == "4"
    finally:
        other.close()
    console_errors.assert_clean("multi-head page")


def test_open_a_head_in_the_walkthrough(page: Page) -> None:
    lab = MultiHeadPage(page).open(Scenario.from_url(scenario().to_url()).replace(n_heads=2))
    lab.pick_head(2)
    assert "head=2" in page.url
    lab.open_in_walkthrough(2)
    page.wait_for_url(re.compile(r".*/scores\?s=.*"), timeout=TIMEOUT)
    page.wait_for_selector(f"{MAIN} h1:has-text('Scores')", timeout=TIMEOUT)
    toast = page.get_by_test_id("stToast")
    expect(toast.first).to_contain_text("Head 2", timeout=10_000)
    summary = page.locator("[data-testid='stSidebar']").inner_text()
    assert "d_k = 4" in summary and "Q, K, V typed directly" in summary
