"""What several benchmarks do to a page in Chromium: a timed key press, a select box's next
option, one mouse click, and the Real model lab's cells. Shared by bench/pages, bench/profile
and bench/compute, which import this and never each other's private helpers (issue 45,
item 14: bench/pages and bench/profile imported each other)."""

from __future__ import annotations

import time
from collections.abc import Callable

from bench.common.browser import CHANGED, IDLE, drawn

# The Real model lab's two stage charts, each redrawn when a head is picked with its tab open
STAGE_CELLS = {"Scores": ".st-key-rm_scores_chart",
               "Softmax": ".st-key-rm_softmax_chart"}  # fmt: skip


def measure(page, url: str, control: str, key: str, watch: str, steps: int) -> list[float]:
    """Times ``steps`` presses of ``key`` on ``control`` at ``url``, each until ``watch``
    shows other numbers (ms); the page idles between presses."""
    page.goto(url)
    page.wait_for_selector(watch, timeout=60_000)
    page.wait_for_selector(IDLE)
    page.wait_for_timeout(300)
    page.locator(control).first.focus()
    samples = []
    for _ in range(steps):
        before = drawn(page, watch)
        t0 = time.perf_counter()
        page.keyboard.press(key)
        page.wait_for_function(CHANGED, arg=[watch, before], timeout=15_000, polling=10)
        samples.append((time.perf_counter() - t0) * 1000)
        page.wait_for_selector(IDLE)
        page.wait_for_timeout(150)
    return samples


def pick(page, widget: str, down: bool) -> Callable[[], None]:
    """Open a select box on the next (``down``) or the previous option; returns the choice.

    ArrowDown opens the list with the option after the current one highlighted, so Enter
    takes the next one, and two ArrowUp the previous one. Only the returned Enter is the
    change (and is timed): opening the list is the browser's own, before any rerun.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(3):  # a key press right after the last pick's rerun can go unheard
        page.locator(f".st-key-{widget} input").focus()
        page.keyboard.press("ArrowDown")
        try:
            page.wait_for_selector("[role='option']", timeout=5_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
    if not down:
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowUp")
    return lambda: page.keyboard.press("Enter")


def mouse_click(page, locator):
    """A click as one mouse event at the element, found before the clock starts: Playwright's
    click() would wait for the element to be visible and stable first, inside the timing."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return lambda: page.mouse.click(x, y)
