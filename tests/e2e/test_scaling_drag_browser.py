"""Issue 43: the Scaling lab's charts follow the d_k slider while it is dragged, in the browser.

The charts are one Plotly figure with a frame per d_k and Plotly's own slider over them
(scaling_lab.figures.lab_figures). Dragging its thumb across every notch, at desktop and
phone size, in English and in German, redraws the charts at each notch with the core's
numbers for that d_k, while Streamlit's script never runs (its ``data-test-script-state``
stays notRunning and never turns running). The page's own slider (the keyboard's, the
link's) still sets the d_k the chart opens at.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from helpers import wait_idle
from page_objects import PHONE, ScalingLabPage
from playwright.sync_api import Browser

from attention_core.saturation import DK_POWERS, sample_scores
from attention_ui.scaling_lab.lab import N_KEYS, N_SAMPLES

pytestmark = pytest.mark.e2e

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
CASES = {"desktop-en": (DESKTOP, ""), "phone-de": (PHONE, "?lang=de"),
         "desktop-de": (DESKTOP, "?lang=de"), "phone-en": (PHONE, "")}  # fmt: skip
# A panel's title ends in its number in every language ("Scores: std 7.99", "… 7.99")
NUMBER = re.compile(r"(\d+\.\d+)$")


def stds(seed: int = 0) -> dict[int, tuple[str, str]]:
    """The core's spread of the sampled scores at each d_k, unscaled and scaled, as printed."""
    raw = sample_scores(DK_POWERS, N_KEYS, N_SAMPLES, seed)  # (n_d, S, n_keys)
    return {d: (f"{np.std(r):.2f}", f"{np.std(r / np.sqrt(d)):.2f}")
            for d, r in zip(DK_POWERS, raw, strict=True)}  # fmt: skip


def drawn_stds(lab: ScalingLabPage) -> tuple[str, ...]:
    """The two histograms' spreads as their titles print them (drawn as text points, in
    order: the histograms' titles are the first texts with a colon)."""
    texts = lab.page.locator(f".st-key-{lab.CHART} .textpoint").all_text_contents()
    titles = [t.strip() for t in texts if ":" in t]
    return tuple(NUMBER.search(t).group(1) for t in titles[:2] if NUMBER.search(t))  # type: ignore[union-attr]


def titles_drawn(lab: ScalingLabPage) -> int:
    """How many panel titles (texts with a colon) are drawn with a box: all four histograms'
    and bar charts' (three were in the page's text but drawn nowhere, off their trace's
    panel)."""
    return lab.page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].filter(t => t.textContent.includes(':')"
        " && t.getBoundingClientRect().width > 0).length",
        f".st-key-{lab.CHART} .textpoint",
    )


@pytest.mark.parametrize("case", list(CASES))
def test_dragging_the_charts_slider_redraws_them_with_no_rerun(
    browser: Browser, app_server: str, case: str
) -> None:
    options, params = CASES[case]
    context = browser.new_context(**options)
    page = context.new_page()
    try:
        lab = ScalingLabPage(page, app_server).open(params)
        lab.wait_for_chart(lab.CHART)
        wait_idle(page)
        want = stds()
        assert lab.chart_d_k() == 64 and drawn_stds(lab) == want[64]
        assert titles_drawn(lab) == 4
        lab.watch_runs()
        lab.grab_chart_slider()
        # down to d_k = 1 and up to 1024, one notch at a time, the mouse held down
        path = [*range(DK_POWERS.index(64) - 1, -1, -1), *range(1, len(DK_POWERS))]
        for index in path:
            d_k = DK_POWERS[index]
            page.mouse.move(*lab.notch(index, len(DK_POWERS)), steps=2)
            page.wait_for_function(
                "([sel, want]) => document.querySelector(sel)?.textContent.endsWith(' ' + want)",
                arg=[lab.CURRENT, str(d_k)],
                timeout=5_000,
            )
            assert drawn_stds(lab) == want[d_k], (case, d_k)
            assert lab.script_state() == "notRunning"
        page.mouse.up()
        page.wait_for_timeout(300)
        assert lab.runs() == 0, "a drag of the chart's slider ran the script"
        assert lab.chart_d_k() == 1024 and drawn_stds(lab) == want[1024]
        assert titles_drawn(lab) == 4
        assert lab.d_k() == 64  # the page's slider (and the link) keep their d_k
        # the page's slider, by keyboard: a rerun that opens the chart at its d_k
        lab.focus_slider()
        page.keyboard.press("Home")
        page.wait_for_url(re.compile(r"[?&]lab_dk=1(&|$)"), timeout=10_000)
        page.wait_for_function(
            "([sel]) => document.querySelector(sel)?.textContent.endsWith(' 1')",
            arg=[lab.CURRENT],
            timeout=10_000,
        )
        wait_idle(page)
        assert lab.runs() >= 1 and drawn_stds(lab) == want[1]
        assert lab.exceptions().count() == 0
    finally:
        context.close()
