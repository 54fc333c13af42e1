"""The scaling lab: the sweep, and what happens between moving the d_k slider and the redraw.

Measured layers, fastest first:

1. ``saturation_sweep`` over d_k = 1..1024 at the defaults (the issue's budget: < 50 ms),
   against drawing every component of every vector (the O(samples x keys x d_k) way).
2. The fragment's Python work for one step of the page's slider: the parts at the new
   d_k (for the text alternative) and the one chart of every d_k (built once a seed and
   cached by the page: here too), serialised as st.plotly_chart does (``plotly.io.to_json``).
   The chart's own slider (issue 43) costs the server nothing: bench/pages/browser_drag.py.
3. A full AppTest rerun of the page after ``set_value`` (no browser; an upper bound on the
   server side, since the browser reruns only the fragment).
4. In Chromium: a key press on the slider until the unscaled histogram shows the new d_k.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bench import Result, timed
from bench.common.browser import CHANGED, CHROMIUM_ARGS, IDLE, find_chromium, start_server

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
SLIDER = ".st-key-lab_dk [data-testid='stSlider'] input[type='range']"
# The lab's one chart (issue 43): its panels' titles (text points since the chart's own
# slider moves them) and its curves' marker labels; both change on a d_k step.
HIST_TITLE = ".st-key-lab_charts .textpoint"
LAST_LABELS = ".st-key-lab_charts .textpoint"


def run(args: argparse.Namespace) -> list[Result]:
    quick = getattr(args, "quick", False)
    results = [*bench_sweep(20 if quick else 100), bench_fragment_python(10 if quick else 40)]
    results.append(bench_apptest(5 if quick else 20))
    if not getattr(args, "no_browser", False):
        results.extend(bench_browser(6 if quick else 20))
    return results


# ---- 1. the sweep --------------------------------------------------------------------
def bench_sweep(repeats: int) -> list[Result]:
    from attention_core import saturation_sweep
    from attention_core.saturation import DK_POWERS, brute_force_scores, softmax_stats

    fast = timed(lambda: saturation_sweep(DK_POWERS), repeats)

    def brute() -> None:
        for d_k in DK_POWERS:
            s = brute_force_scores(d_k, 8, 2000)
            softmax_stats(s)
            softmax_stats(s / np.sqrt(d_k))

    slow = timed(brute, 3)
    return [
        Result("saturation_sweep, d_k = 1..1024, 2000 x 8 (exact draw: norm times normals)", fast,
               "budget 50 ms"),
        Result("same sweep drawing every component (brute force)", slow,
               f"{np.median(slow) / np.median(fast):.0f}x slower"),
    ]  # fmt: skip


# ---- 2. the fragment's Python work ------------------------------------------------------
def bench_fragment_python(repeats: int) -> Result:
    import plotly.io

    from attention_core import saturation_sweep
    from attention_core.saturation import DK_POWERS, sample_scores
    from attention_ui.scaling_lab import figures as sf

    sweep = saturation_sweep(DK_POWERS)
    scores = sample_scores(DK_POWERS)
    charts = sf.lab_figures(DK_POWERS, scores, sweep)  # once a seed, cached by the page
    steps = iter(np.tile(DK_POWERS, repeats + 2))

    def step() -> None:
        d_k = int(next(steps))
        figs = [*sf.lab_parts(DK_POWERS, scores, sweep, d_k).values(), charts[str(d_k)]]
        for f in figs:
            plotly.io.to_json(f, validate=False)

    return Result("slider step, Python side: 7 parts + the chart + to_json", timed(step, repeats))


# ---- 3. AppTest --------------------------------------------------------------------------
def bench_apptest(repeats: int) -> Result:
    from streamlit.testing.v1 import AppTest

    from attention_core.saturation import DK_POWERS

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page("app_pages/labs/scaling_lab.py").run()
    steps = iter(np.tile(DK_POWERS, repeats + 2))

    def step() -> None:
        at.select_slider(key="lab_dk").set_value(int(next(steps))).run()

    samples = timed(step, repeats)
    assert not at.exception, [e.value for e in at.exception]
    return Result("AppTest full rerun of the page after set_value", samples,
                  "the browser reruns only the fragment")  # fmt: skip


# ---- 4. the browser ----------------------------------------------------------------------
def bench_browser(steps: int) -> list[Result]:
    chromium = find_chromium()
    if chromium is None:
        return [Result("browser: skipped (no chromium)", [0.0])]
    from playwright.sync_api import sync_playwright

    proc, url = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            t0 = time.perf_counter()
            page.goto(f"{url}/scaling-lab")
            page.wait_for_selector(".st-key-lab_charts .main-svg", timeout=60_000)
            load_ms = (time.perf_counter() - t0) * 1000
            page.wait_for_selector(IDLE)
            page.wait_for_timeout(300)
            page.locator(SLIDER).focus()
            first, last = [], []
            for i in range(steps):
                key = "ArrowRight" if (i // 4) % 2 == 0 else "ArrowLeft"  # 64 -> 1024 and back
                a, b = _press(page, key)
                first.append(a)
                last.append(b)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return [
        Result("browser: page load -> last lab chart drawn (cold context)", [load_ms]),
        Result("browser: slider key press -> first lab chart redrawn", first,
               "unscaled histogram"),
        Result("browser: slider key press -> last lab chart redrawn", last,
               "fragment rerun + all 7 Plotly redraws"),
    ]  # fmt: skip


def _texts(page: Page, sel: str) -> str:
    return "|".join(t.strip() for t in page.locator(sel).all_text_contents())


def _press(page: Page, key: str) -> tuple[float, float]:
    """Press ``key``; ms until the first lab chart and until the last one show the new d_k."""
    before = [_texts(page, HIST_TITLE), _texts(page, LAST_LABELS)]
    t0 = time.perf_counter()
    page.keyboard.press(key)
    out = []
    for sel, old in zip((HIST_TITLE, LAST_LABELS), before, strict=True):
        page.wait_for_function(CHANGED, arg=[sel, old], timeout=15_000, polling=10)
        out.append((time.perf_counter() - t0) * 1000)
    page.wait_for_selector(IDLE)
    page.wait_for_timeout(150)
    return out[0], out[1]
