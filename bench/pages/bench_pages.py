"""The app against Streamlit's own floor (bench/floors/floor_app.py), in the same run.

1. AppTest: CPU time of one rerun of the floor app and of every page, at the default
   scenario and at 64 tokens (issue 11: at most 30 ms and 120 ms). CPU time, because the
   machine is shared: wall time would count other processes' turns.
2. Chromium: the floor (a toggle redrawing one 6 x 6 heatmap with its numbers) and a
   text-only floor, then every interaction of bench/pages/browser_app.py on the app, each as a
   ratio to the floor (issue 11: within 1.5x) and to the Scaling toggle (issues 9, 10).
"""

from __future__ import annotations

import argparse

from bench import Result, cpu_timed
from bench.common.browser import (
    FLOOR_APP,
    ROOT,
    chromium,
    serving,
    skipped,
)
from bench.common.interact import measure
from bench.profile.page_cpu import BIG_TOKENS, page_samples


def run(args: argparse.Namespace) -> list[Result]:
    repeats = 5 if getattr(args, "quick", False) else 20
    results = bench_apptest(repeats)
    if not getattr(args, "no_browser", False):
        results.extend(bench_browser(repeats))
    return results


def bench_apptest(repeats: int) -> list[Result]:
    from streamlit.testing.v1 import AppTest

    floor = AppTest.from_file(str(ROOT / FLOOR_APP)).run()
    out = [Result("AppTest rerun CPU: floor app (toggle + 6x6 heatmap)",
                  cpu_timed(floor.run, repeats), "Streamlit's own cost")]  # fmt: skip
    for label, title, samples in page_samples(ROOT, repeats):
        budget = 30 if label == "default" else 120
        suffix = "" if label == "default" else f", {BIG_TOKENS} tokens"
        over = "" if Result("", samples).median <= budget else ": OVER"
        out.append(Result(f"AppTest rerun CPU: {title}{suffix}", samples,
                          f"budget {budget} ms{over}"))  # fmt: skip
    return out


def bench_browser(steps: int) -> list[Result]:
    """Every interaction against the floor (a 6 x 6 heatmap toggle) in the same run."""
    from bench.pages import browser_app

    with chromium() as browser:
        if browser is None:
            return skipped()
        with serving(FLOOR_APP) as url:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            floor = measure(page, url + "/", ".st-key-floor_toggle input", "Space",
                             ".st-key-floor_heatmap .heatmap-label", steps)  # fmt: skip
            page.close()
        with serving("bench/floors/floor_text_app.py") as url:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            text = measure(page, url + "/", ".st-key-floor_slider input[type='range']",
                            "ArrowRight", ".st-key-floor_out p", steps)  # fmt: skip
            page.close()
        with serving("app.py") as url:
            app = browser_app.measure_all(browser, url, steps)
    ref, text_ref = Result("", floor).median, Result("", text).median
    toggle = Result("", app[browser_app.TOGGLE]).median

    def versus(samples: list[float]) -> str:
        m = Result("", samples).median
        verdict = "within" if m <= 1.5 * ref else "OVER"
        return (f"{m / ref:.2f}x floor ({verdict} 1.5x); {m / text_ref:.2f}x text floor; "
                f"{m / toggle:.2f}x the Scaling toggle")  # fmt: skip

    out = [
        Result("browser: FLOOR toggle -> 6x6 heatmap redrawn", floor, "the reference (1.0x)"),
        Result("browser: text floor slider -> text updated", text, f"{text_ref / ref:.2f}x floor"),
    ]
    for name, samples in app.items():
        out.append(Result(f"browser: {name}", samples, versus(samples)))
    return out
