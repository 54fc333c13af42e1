"""The scaling lab in a real browser: move the d_k slider with the keyboard, watch it saturate.

Uses the shared server and page fixtures of tests/e2e/conftest.py. Prints the measured
slider-to-redraw times (run with ``-s`` to see them; bench/RESULTS.md records them).
"""

from __future__ import annotations

import re
import statistics
import time

import pytest
from helpers import shot, wait_idle
from page_objects import ScalingLabPage
from playwright.sync_api import Page

pytestmark = pytest.mark.e2e

COLUMN = ScalingLabPage.CHART  # one chart: the unscaled histogram and bars come first
HIST, BARS = "Scores: std", "One query: max weight"  # their panels' titles


def press_and_time(lab: ScalingLabPage, key: str) -> float:
    """Press ``key`` on the focused d_k slider; ms until the unscaled histogram is redrawn."""
    before = lab.panel_title(COLUMN, HIST)
    t0 = time.perf_counter()
    lab.page.keyboard.press(key)
    lab.wait_for_panel_change(COLUMN, HIST, before)
    elapsed = (time.perf_counter() - t0) * 1000
    wait_idle(lab.page, settle_ms=100)
    return elapsed


def test_slider_saturates_unscaled_softmax_only(page: Page, console_errors) -> None:
    lab = ScalingLabPage(page).open()
    lab.wait_for_chart(COLUMN)
    assert lab.exceptions().count() == 0
    assert lab.heading().inner_text().strip() == "Scaling lab"
    assert lab.d_k() == 64
    start = lab.metrics()
    # unscaled std ~ 8 at d_k = 64, scaled ~ 1; the unscaled softmax is already sharper
    assert abs(start[0] - 8) < 0.4 and abs(start[4] - 1) < 0.05, start
    assert start[1] > start[5]

    lab.watch_outside_fragment()
    lab.focus_slider()
    step_ms, seen = [], [start]
    for expected in (128, 256):
        step_ms.append(press_and_time(lab, "ArrowRight"))
        assert lab.d_k() == expected
        seen.append(lab.metrics())
    step_ms.append(press_and_time(lab, "End"))
    assert lab.d_k() == 1024
    assert lab.outside_stale_flips() == 0  # only the fragment reran
    page.wait_for_url(re.compile(r"[?&]lab_dk=1024"), timeout=5_000)
    top = lab.metrics()
    seen.append(top)
    unscaled_max = [m[1] for m in seen]
    assert unscaled_max == sorted(unscaled_max) and top[1] > 0.95  # one key takes all
    assert top[0] > 30  # sqrt(1024) = 32
    assert top[3] < start[3] / 2  # the gradient fades
    assert all(abs(m[4] - 1) < 0.05 and abs(m[5] - start[5]) < 0.02 for m in seen)  # scaled
    assert lab.panel_title(COLUMN, HIST) == f"Scores: std {top[0]:.2f}"
    legend = lab.legend(COLUMN)
    assert "theory N(0, d_k), std √d_k" in legend, legend  # its formula: no number to lag
    bars = lab.panel_title(COLUMN, BARS)
    assert float(bars.rsplit(" ", 1)[1]) > 0.9, bars  # the sampled query's top bar
    shot(page, "scaling_lab")

    step_ms.append(press_and_time(lab, "Home"))  # d_k = 1: scaling changes nothing
    assert lab.d_k() == 1
    low = lab.metrics()
    assert low[:4] == low[4:], low
    assert lab.exceptions().count() == 0
    assert lab.outside_stale_flips() == 0
    # control: a full rerun (Streamlit's "r" shortcut) does flip the outside element
    lab.rerun()
    lab.wait_for_outside_flip()
    lab.wait_idle()
    console_errors.assert_clean("the scaling lab")
    print(
        f"\nkey press -> unscaled histogram redrawn (Right, Right, End, Home): "
        f"{[round(m) for m in step_ms]} ms, median {statistics.median(step_ms):.0f} ms"
    )


def test_deep_link_restores_dk_and_seed(page: Page) -> None:
    lab = ScalingLabPage(page).open("?lab_dk=256&lab_seed=7")
    lab.wait_for_chart(COLUMN)
    assert lab.d_k() == 256
    assert lab.seed() == "7"
    assert abs(lab.metrics()[0] - 16) < 0.8  # sqrt(256)
