"""The Multi-head page in a real browser: change the head count, open a head, share the link.

Locators live in ``page_objects.MultiHeadPage``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from helpers import MAIN
from page_objects import MultiHeadPage
from playwright.sync_api import Browser, Page, expect

from attention_core import Scenario, random_scenario

pytestmark = pytest.mark.e2e


def scenario(n_heads: int = 1) -> Scenario:
    s = random_scenario(seed=3, n_tokens=5, d_model=8, d_k=8, d_v=8)
    return s.replace(W_o=np.round(np.eye(8) * 0.5, 2), n_heads=n_heads, name="")


def test_head_count_changes_the_small_multiples_and_travels_in_the_link(
    page: Page, browser: Browser, browser_context_args: dict, console_errors
) -> None:
    lab = MultiHeadPage(page).open(f"?s={scenario().to_url()}")
    assert lab.h1 == "Multi-head"
    assert lab.small_multiple_titles() == ["Head 1"]
    lab.set_heads(4)
    assert lab.small_multiple_titles() == [f"Head {h}" for h in range(1, 5)]
    assert lab.exceptions().count() == 0
    assert lab.scenario().n_heads == 4  # the address bar is the share link
    other = browser.new_context(**browser_context_args)  # a second visitor, a new session
    try:
        shared = MultiHeadPage(other.new_page()).open_link(page.url)
        assert shared.small_multiple_titles() == lab.small_multiple_titles()
        assert shared.selected("n_heads_choice") == "4"
    finally:
        other.close()
    console_errors.assert_clean("multi-head page")


def test_open_a_head_in_the_walkthrough(page: Page) -> None:
    lab = MultiHeadPage(page).open(f"?s={scenario(2).to_url()}")
    lab.pick_head(2)
    assert "head=2" in page.url
    lab.open_in_walkthrough(2)
    page.wait_for_url(re.compile(r".*/scores\?s=.*"), timeout=lab.TIMEOUT)
    page.wait_for_selector(f"{MAIN} h1:has-text('Scores')", timeout=lab.TIMEOUT)
    expect(lab.alerts("Head 2's Q, K and V")).to_be_visible(timeout=10_000)  # not a toast
    loaded = lab.scenario()
    s = scenario(2)
    assert loaded.mode == "direct"
    np.testing.assert_allclose(loaded.Q, s.X @ s.W_q[:, 4:8])  # head 2: columns 5 to 8
