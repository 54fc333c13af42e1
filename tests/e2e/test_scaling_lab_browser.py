"""The scaling lab in a real browser: move the d_k slider with the keyboard, watch it saturate.

Uses the shared server and page fixtures of tests/e2e/conftest.py. Prints the measured
slider-to-redraw times (run with ``-s`` to see them; bench/RESULTS.md records them).
"""

from __future__ import annotations

import re
import statistics
import time

import pytest
from helpers import EXCEPTION, MAIN, goto, shot, wait_idle
from playwright.sync_api import Page

pytestmark = pytest.mark.e2e

SLIDER = ".st-key-lab_dk [data-testid='stSlider'] input[type='range']"
METRIC_VALUE = f"{MAIN} [data-testid='stMetricValue']"
TITLE = ".st-key-{key} .g-gtitle"
# Counts how often an element is marked stale (data-stale flips while a script run that
# includes it is in progress). Elements outside the fragment must never flip on a slider move.
WATCH_STALE = """(sel) => {
    const el = document.querySelector(sel);
    el.__staleFlips = 0;
    new MutationObserver((ms) => { el.__staleFlips += ms.length; })
        .observe(el, {attributes: true, attributeFilter: ['data-stale']});
}"""
STALE_FLIPS = "(sel) => document.querySelector(sel).__staleFlips"
OUTSIDE = ".st-key-lab_my_weights_True"  # "Apply to my scenario", after the fragment


def titles(page: Page, key: str) -> list[str]:
    """Every rendered title of the chart with this key (two while a rerun swaps them)."""
    return [t.strip() for t in page.locator(TITLE.format(key=key)).all_text_contents()]


def metric_values(page: Page) -> list[float]:
    """The lab's numbers in page order: 4 without scaling, then 4 with scaling."""
    return [float(v) for v in page.locator(METRIC_VALUE).all_inner_texts()[:8]]


def slider_value(page: Page) -> int:
    return int(page.locator(SLIDER).first.get_attribute("aria-valuetext") or "0")


def press_and_time(page: Page, key: str) -> float:
    """Press ``key`` on the focused d_k slider; ms until the unscaled histogram is redrawn."""
    before = titles(page, "lab_hist_False")
    t0 = time.perf_counter()
    page.keyboard.press(key)
    page.wait_for_function(
        """([sel, before]) => {
               const t = [...document.querySelectorAll(sel)].map(e => e.textContent.trim());
               return t.length === 1 && t[0] !== before;
           }""",
        arg=[TITLE.format(key="lab_hist_False"), before[0]],
        timeout=10_000,
        polling=10,
    )
    elapsed = (time.perf_counter() - t0) * 1000
    wait_idle(page, settle_ms=100)
    return elapsed


def test_slider_saturates_unscaled_softmax_only(page: Page, console_errors) -> None:
    goto(page, "/scaling-lab")
    page.wait_for_selector(TITLE.format(key="lab_curve_grad_norm"), timeout=20_000)
    assert page.locator(EXCEPTION).count() == 0
    assert page.locator(f"{MAIN} h1").first.inner_text().strip() == "Scaling lab"
    assert slider_value(page) == 64
    start = metric_values(page)
    # unscaled std ~ 8 at d_k = 64, scaled ~ 1; the unscaled softmax is already sharper
    assert abs(start[0] - 8) < 0.4 and abs(start[4] - 1) < 0.05, start
    assert start[1] > start[5]

    page.evaluate(WATCH_STALE, OUTSIDE)
    page.locator(SLIDER).first.focus()
    step_ms, seen = [], [start]
    for expected in (128, 256):
        step_ms.append(press_and_time(page, "ArrowRight"))
        assert slider_value(page) == expected
        seen.append(metric_values(page))
    step_ms.append(press_and_time(page, "End"))
    assert slider_value(page) == 1024
    assert page.evaluate(STALE_FLIPS, OUTSIDE) == 0  # only the fragment reran
    page.wait_for_url(re.compile(r"[?&]lab_dk=1024"), timeout=5_000)
    top = metric_values(page)
    seen.append(top)
    unscaled_max = [m[1] for m in seen]
    assert unscaled_max == sorted(unscaled_max) and top[1] > 0.95  # one key takes all
    assert top[0] > 30  # sqrt(1024) = 32
    assert top[3] < start[3] / 2  # the gradient fades
    assert all(abs(m[4] - 1) < 0.05 and abs(m[5] - start[5]) < 0.02 for m in seen)  # scaled
    assert titles(page, "lab_hist_False")[0] == f"Scores: std {top[0]:.2f}"
    legend = page.locator(".st-key-lab_hist_False .legendtext").all_text_contents()
    assert "theory N(0, 1024), std 32" in legend, legend
    bars = titles(page, "lab_bars_False")[0]
    assert float(bars.rsplit(" ", 1)[1]) > 0.9, bars  # the sampled query's top bar
    shot(page, "scaling_lab")

    step_ms.append(press_and_time(page, "Home"))  # d_k = 1: scaling changes nothing
    assert slider_value(page) == 1
    low = metric_values(page)
    assert low[:4] == low[4:], low
    assert page.locator(EXCEPTION).count() == 0
    assert page.evaluate(STALE_FLIPS, OUTSIDE) == 0
    # control: a full rerun (Streamlit's "r" shortcut) does flip the outside element
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("r")
    page.wait_for_function(f"({STALE_FLIPS})({OUTSIDE!r}) > 0", timeout=10_000)
    wait_idle(page)
    console_errors.assert_clean("the scaling lab")
    print(
        f"\nkey press -> unscaled histogram redrawn (Right, Right, End, Home): "
        f"{[round(m) for m in step_ms]} ms, median {statistics.median(step_ms):.0f} ms"
    )


def test_deep_link_restores_dk_and_seed(page: Page) -> None:
    goto(page, "/scaling-lab?lab_dk=256&lab_seed=7")
    page.wait_for_selector(TITLE.format(key="lab_bars_False"), timeout=20_000)
    assert slider_value(page) == 256
    assert page.locator(".st-key-lab_seed input").first.input_value() == "7"
    assert abs(metric_values(page)[0] - 16) < 0.8  # sqrt(256)
