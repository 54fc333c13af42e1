"""The Decoder lab in a real browser: a typed prompt, what comes next, one causal head stage
by stage, then that head in the walkthrough; and the lab on a phone.

The expected numbers come from the core's own run of the same prompt (checked against
transformers' Llama in tests/core); the page must show them. Printed cells carry 2 decimals
(weights 3): a printed number is within half its last digit of the core's.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from helpers import shot, wait_idle
from page_objects import DecoderPage, ScoresPage, query
from playwright.sync_api import Browser, Page

from tests.core import smollm2

pytestmark = pytest.mark.e2e

PROMPT = "The capital of France is"
LAYER, HEAD = 3, 8  # 1-based, as on the page
PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0 Mobile Safari/537.36"
)


@pytest.fixture(scope="module")
def run():
    return smollm2.decoder().run(PROMPT)  # skips when absent; fails under CI=true


def test_a_prompt_its_next_token_and_one_causal_head(page: Page, run, console_errors) -> None:
    lab = DecoderPage(page).open()
    assert lab.h1 == "Decoder" and lab.exceptions().count() == 0
    lab.type_prompt(PROMPT)
    assert lab.next_tokens()[0] == "1. ␣Paris"
    assert query(page.url)["dec_text"] == PROMPT

    lab.watch_gallery()
    t0 = time.perf_counter()
    lab.pick_head(LAYER, HEAD)
    print(f"\npick layer and head -> idle: {(time.perf_counter() - t0) * 1000:.0f} ms")
    assert lab.gallery_stale_flips() == 0  # only the head's fragment reran
    assert (query(page.url)["dec_layer"], query(page.url)["dec_head"]) == ("3", "8")
    t = run.head(LAYER - 1, HEAD - 1)
    n = run.n
    np.testing.assert_allclose(lab.open_stage("Scores").numbers(n), t.scores, atol=0.006)
    masked = lab.open_stage("Mask").cell_texts()[: n * n]
    grid = np.array(masked).reshape(n, n)
    assert (grid[np.triu_indices(n, 1)] == "−∞").all()  # the causal mask, from a real head
    assert lab.main_text("causal mask").count() > 0
    weights = lab.open_stage("Softmax").numbers(n)  # masked cells print −∞ (greyed)
    assert np.isneginf(weights[np.triu_indices(n, 1)]).all()
    np.testing.assert_allclose(np.where(np.isneginf(weights), 0, weights), t.weights, atol=6e-4)
    lab.open_stage("RoPE")
    assert lab.main_text("turned by their position").count() > 0
    lab.open_stage("Shared K and V")
    assert lab.main_text("Query heads 7–9 all read key/value head 3").count() > 0
    assert lab.exceptions().count() == 0

    lab.open_in_walkthrough()
    scores = ScoresPage(page)
    assert scores.h1 == "3. Scores"
    np.testing.assert_allclose(scores.chart.numbers(n), t.scores, atol=0.006)
    assert scores.sidebar.scenario_label().startswith("Scenario: SmolLM2 layer 3, head 8")
    console_errors.assert_clean("decoder lab")


def test_the_lab_on_a_phone(browser: Browser, app_server: str, run) -> None:
    """Opens on a phone's screen and user agent without an exception; the screenshot is kept
    in test-artifacts/ for a person to look at."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, user_agent=PHONE_UA)
    page = context.new_page()
    try:
        page.goto(f"{app_server}/decoder?dec_text=" + PROMPT.replace(" ", "+"))
        wait_idle(page)
        lab = DecoderPage(page)
        assert lab.h1 == "Decoder" and lab.exceptions().count() == 0
        assert lab.next_tokens()[0] == "1. ␣Paris"
        width = page.evaluate("document.querySelector('[data-testid=stMain]').scrollWidth")
        assert width <= 390  # nothing pushes the page sideways (wide charts scroll inside)
        shot(page, "decoder-phone")
    finally:
        context.close()
