"""The Training lab in a real browser: train, move the step slider, watch the heatmap change,
open the step in the walkthrough; on a desktop and on a phone.

Uses the shared server of tests/e2e/conftest.py (one for the whole run).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from helpers import MAIN, goto, shot, wait_idle
from page_objects import Heatmap, key
from playwright.sync_api import Browser, Page, expect

from attention_core import Scenario
from attention_core.training import TrainSettings, train_both

pytestmark = pytest.mark.e2e
TIMEOUT = 30_000
PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36",
}  # fmt: skip


class TrainingLab:
    def __init__(self, page: Page) -> None:
        self.page = page

    def open(self, params: str = "") -> TrainingLab:
        goto(self.page, f"/training{params}")
        self.page.wait_for_selector(f"{key('tr_weights_False')} .main-svg", timeout=TIMEOUT)
        wait_idle(self.page)
        return self

    def title(self, chart: str) -> str:
        return (self.page.locator(f"{key(chart)} .g-gtitle").first.text_content() or "").strip()

    def cells(self, chart: str) -> list[str]:
        """The numbers printed in a heatmap's cells."""
        return Heatmap(self.page, key(chart)).cell_texts()

    def press(self, slider: str, button: str, chart: str, before: str) -> None:
        """Focus ``slider`` (a widget key), press ``button``; wait for ``chart``'s new title."""
        sel = f"{key(slider)} input[type='range'], {key(slider)} [role='slider']"
        self.page.locator(sel).first.focus()
        self.page.keyboard.press(button)
        self.page.wait_for_function(
            "([sel, before]) => { const t = document.querySelector(sel);"
            " return t && t.textContent.trim() !== before; }",
            arg=[f"{key(chart)} .g-gtitle", before], timeout=TIMEOUT,
        )  # fmt: skip
        wait_idle(self.page)


def test_train_step_through_and_open_in_the_walkthrough(page: Page, console_errors) -> None:
    lab = TrainingLab(page).open()
    assert page.locator(f"{MAIN} h1").first.inner_text().strip() == "Training"
    assert lab.title("tr_weights_False") == "Without scaling: weights at step 200"
    assert "after 200 steps" in page.locator(MAIN).inner_text().lower()

    # train: fewer steps (the steps slider, one notch left) is a new run of both
    lab.press("tr_steps", "ArrowLeft", "tr_weights_False", "Without scaling: weights at step 200")
    page.wait_for_url(re.compile(r"[?&]tr_steps=100"), timeout=TIMEOUT)
    assert lab.title("tr_weights_True") == "With 1/√d_k: weights at step 100"
    trained = lab.cells("tr_weights_True")

    # the step slider back to the start: the heatmap shows the untrained head
    lab.press("tr_step", "Home", "tr_weights_True", "With 1/√d_k: weights at step 100")
    page.wait_for_url(re.compile(r"[?&]tr_step=0"), timeout=TIMEOUT)
    assert lab.title("tr_weights_True") == "With 1/√d_k: weights at step 0"
    start = lab.cells("tr_weights_True")
    assert start != trained
    unscaled, scaled = train_both(TrainSettings(steps=100))  # the core, on the same settings
    expected = [f"{w:.3f}" for w in scaled.weights[0].ravel()]  # step 0, every cell
    assert sorted(start) == sorted(expected), (start[:8], expected[:8])
    assert page.locator(f"{MAIN} [data-testid='stException']").count() == 0
    shot(page, "training_lab_desktop")

    page.get_by_role("button", name="Open without scaling").click()
    page.wait_for_url(re.compile(r".*/scores\?s=.*"), timeout=TIMEOUT)
    page.wait_for_selector(f"{MAIN} h1:has-text('Scores')", timeout=TIMEOUT)
    expect(page.get_by_text("Training lab's example at step 0")).to_be_visible(timeout=10_000)
    loaded = Scenario.from_url(re.search(r"[?&]s=([^&]+)", page.url).group(1))
    assert loaded.mode == "direct" and loaded.scaled is False
    np.testing.assert_array_equal(loaded.Q, unscaled.Q[0])  # the link's numbers are exact
    np.testing.assert_array_equal(loaded.V, unscaled.V)
    console_errors.assert_clean("the Training lab")


def test_the_lab_on_a_phone(browser: Browser, browser_context_args: dict) -> None:
    context = browser.new_context(**{**browser_context_args, **PHONE})
    try:
        page = context.new_page()
        lab = TrainingLab(page).open("?tr_step=40")
        assert lab.title("tr_weights_False") == "Without scaling: weights at step 40"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["viewport"]["width"], width  # nothing wider than the screen
        shot(page, "training_lab_phone")
    finally:
        context.close()


def test_a_long_training_shows_its_progress_and_stops(page: Page, console_errors) -> None:
    """d_k 512 and 800 steps (2.2 s of CPU here): the bar moves, Stop ends the run and the
    page draws the steps trained so far, labelled as stopped; Train on finishes it. A seed
    no other test trains, so this server has no finished run of it."""
    page.goto("/training?tr_dk=512&tr_steps=800&tr_seed=903", timeout=TIMEOUT)
    stop = page.locator(f"{key('tr_stop')} button")
    stop.wait_for(timeout=TIMEOUT)
    expect(page.locator(f"{key('tr_training')} [data-testid='stProgress']")).to_be_visible()
    stop.click()
    stopped = page.locator(key("tr_stopped"))
    expect(stopped).to_contain_text("Stopped at step", timeout=TIMEOUT)
    wait_idle(page)
    at = int(re.search(r"Stopped at step (\d+) of 800", stopped.inner_text()).group(1))
    assert 0 <= at < 800
    kept = at - at % 16  # 800 steps keep every 16th step's heatmap
    assert TrainingLab(page).title("tr_weights_True") == f"With 1/√d_k: weights at step {kept}"
    assert page.locator(f"{MAIN} [data-testid='stException']").count() == 0
    assert page.locator(key("tr_stop")).count() == 0  # the bar and its button are gone
    shot(page, "training_lab_stopped", full=False)

    page.get_by_role("button", name="Train on").click()
    expect(page.get_by_text("After 800 steps")).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert page.locator(key("tr_stopped")).count() == 0
    assert TrainingLab(page).title("tr_weights_True") == "With 1/√d_k: weights at step 800"
    console_errors.assert_clean("the Training lab's stop")


# ---- Stop lands where it was pressed (issue 41, defect 8) --------------------------------
STOP_WITHIN = 20  # steps: the target between the step on the bar and the stop
# One press in three may come late on a loaded 2-core machine: while the page is still being
# drawn the browser shows the bar behind what the server has sent (CI saw [32, 0, 0]). The
# target is judged on the median; no press may land as late as the defect did (80 steps:
# pressed at 39, stopped at 119), which is what a stop that ignores the bar gives.
STOP_NEVER = 64
PRESS_AT = (39, 120, 300)  # steps on the bar when the learner presses Stop
PRESS_JS = """([bar, stop, at]) => {
  const text = (document.querySelector(bar) || {}).textContent || "";
  const m = text.match(/step (\\d+) of/);
  const button = document.querySelector(stop);
  if (!m || +m[1] < at || !button) return null;
  button.click();  // in the same frame as the step read: the press
  return +m[1];
}"""


def press_stop(page: Page, at: int) -> int:
    """Press Stop as soon as the bar shows step ``at`` or later; the step it showed."""
    bar, stop = f"{key('tr_training')} [data-testid='stProgress']", f"{key('tr_stop')} button"
    handle = page.wait_for_function(PRESS_JS, arg=[bar, stop, at], timeout=TIMEOUT, polling=10)
    return int(handle.json_value())


def stopped_at(page: Page) -> int:
    stopped = page.locator(key("tr_stopped"))
    expect(stopped).to_contain_text("Stopped at step", timeout=TIMEOUT)
    wait_idle(page)
    return int(re.search(r"Stopped at step (\d+) of 800", stopped.inner_text()).group(1))


def assert_lands(gaps: list[int]) -> None:
    assert all(g >= 0 for g in gaps), gaps  # never before the step the learner saw
    assert int(np.median(gaps)) <= STOP_WITHIN, gaps
    assert max(gaps) <= STOP_NEVER, gaps


def stop_gaps(page: Page, seeds: range) -> list[int]:
    """Steps between the bar's step at the press and the stop, one press per seed (seeds no
    other test trains: this server has no run of them yet)."""
    gaps = []
    for seed, at in zip(seeds, PRESS_AT * len(seeds), strict=False):
        page.goto(f"/training?tr_dk=512&tr_steps=800&tr_seed={seed}", timeout=TIMEOUT)
        seen = press_stop(page, at)
        gaps.append(stopped_at(page) - seen)
    print(f"Stop gaps (steps): {gaps}; min {min(gaps)}, median {int(np.median(gaps))}, "
          f"max {max(gaps)}")  # fmt: skip
    return gaps


# A timing: judged alone (`make test` runs serial tests after the parallel run), as the
# load tests are; beside another worker's browser tests one press landed 48 steps late.
@pytest.mark.serial
def test_stop_lands_where_it_was_pressed_on_a_desktop(page: Page, console_errors) -> None:
    assert_lands(stop_gaps(page, range(960, 963)))
    console_errors.assert_clean("the Training lab's stop")


# A timing: judged alone (`make test` runs serial tests after the parallel run), as the
# load tests are; beside another worker's browser tests one press landed 48 steps late.
@pytest.mark.serial
def test_stop_lands_where_it_was_pressed_on_a_phone(
    browser: Browser, browser_context_args: dict
) -> None:
    context = browser.new_context(**{**browser_context_args, **PHONE})
    try:
        page = context.new_page()
        gaps = stop_gaps(page, range(970, 973))
        shot(page, "training_lab_stopped_phone", full=False)
        assert_lands(gaps)
    finally:
        context.close()


SEEN_WHILE_TRAINING = """([bar, charts]) => {
  if (!document.querySelector(bar)) return null;  // not training yet
  return {drawn: document.querySelectorAll(charts).length};  // charts under the bar
}"""


def test_the_last_settings_charts_are_not_shown_while_new_ones_train(page: Page) -> None:
    """A finished run's charts, then more steps: while the bar runs, none of them is there
    (they would read as the new settings'); the new run's charts come when it ends."""
    lab = TrainingLab(page).open("?tr_dk=512&tr_steps=50&tr_seed=985")
    assert lab.title("tr_weights_False") == "Without scaling: weights at step 50"
    sel = f"{key('tr_steps')} input[type='range'], {key('tr_steps')} [role='slider']"
    page.locator(sel).first.focus()
    page.keyboard.press("ArrowRight")  # 100 steps: a new training of both runs
    bar = f"{key('tr_training')} [data-testid='stProgress']"
    charts = f"{MAIN} .js-plotly-plot"
    drawn = page.wait_for_function(SEEN_WHILE_TRAINING, arg=[bar, charts], timeout=TIMEOUT,
                                   polling=10).json_value()["drawn"]  # fmt: skip
    shot(page, "training_lab_new_run_training", full=False)
    assert drawn == 0, f"{drawn} charts of the last settings under the progress bar"
    page.wait_for_selector(f"{key('tr_weights_False')} .main-svg", timeout=TIMEOUT)
    wait_idle(page)
    assert lab.title("tr_weights_False") == "Without scaling: weights at step 100"
