"""The walkthrough against Streamlit's own floor (bench/floor_app.py).

1. AppTest rerun of the floor app and of every page (server-side Python work per rerun).
2. In Chromium: a widget change until the page shows the new numbers, for the floor
   (slider -> text) and for the Scaling page (toggle -> both heatmaps redrawn, a full rerun).
"""

from __future__ import annotations

import argparse
import time

from bench import Result, timed
from bench.browser import CHROMIUM_ARGS, IDLE, ROOT, find_chromium, start_server

CHANGED = """([sel, before]) => {
    const now = [...document.querySelectorAll(sel)].map(e => e.textContent).join('|');
    return now.length > 0 && now !== before;
}"""


def run(args: argparse.Namespace) -> list[Result]:
    repeats = 5 if getattr(args, "quick", False) else 20
    results = bench_apptest(repeats)
    if not getattr(args, "no_browser", False):
        results.extend(bench_browser(repeats))
    return results


def bench_apptest(repeats: int) -> list[Result]:
    from streamlit.testing.v1 import AppTest

    from attention_ui.pages import ALL_PAGES

    floor = AppTest.from_file(str(ROOT / "bench" / "floor_app.py")).run()
    out = [Result("AppTest rerun: floor app (slider + text)", timed(floor.run, repeats),
                  "Streamlit's own cost")]  # fmt: skip
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    for spec in ALL_PAGES:
        at.switch_page(spec.path).run()
        samples = timed(at.run, repeats)
        assert not at.exception, (spec.key, [e.value for e in at.exception])
        out.append(Result(f"AppTest rerun: {spec.title}", samples))
    return out


def bench_browser(steps: int) -> list[Result]:
    chromium = find_chromium()
    if chromium is None:
        return [Result("browser: skipped (no chromium)", [0.0])]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        slider = ".st-key-floor_slider input[type='range']"
        text = ".st-key-floor_out p"
        floor = _measure(browser, "bench/floor_app.py", "/", slider, "ArrowRight", text, steps)
        app = _measure(browser, "app.py", "/scaling", ".st-key-scaled_toggle input", "Space",
                       ".st-key-scaling_scaled .heatmap-label", steps)  # fmt: skip
        browser.close()
    return [
        Result("browser: floor slider -> text updated", floor, "Streamlit's round trip"),
        Result("browser: Scaling toggle -> scaled heatmap redrawn", app,
               "full rerun of a walkthrough page"),
    ]  # fmt: skip


def _measure(browser, script: str, path: str, control: str, key: str, watch: str, steps: int):
    proc, url = start_server(script)
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(url + path)
        page.wait_for_selector(watch, timeout=60_000)
        page.wait_for_selector(IDLE)
        page.wait_for_timeout(300)
        page.locator(control).first.focus()
        samples = []
        for _ in range(steps):
            before = "|".join(page.locator(watch).all_text_contents())
            t0 = time.perf_counter()
            page.keyboard.press(key)
            page.wait_for_function(CHANGED, arg=[watch, before], timeout=15_000, polling=10)
            samples.append((time.perf_counter() - t0) * 1000)
            page.wait_for_selector(IDLE)
            page.wait_for_timeout(150)
        page.close()
        return samples
    finally:
        proc.terminate()
        proc.wait(timeout=10)
