"""The Real model page: picking a head or a token against a walkthrough toggle; memory.

1. AppTest: a full rerun of the page (the browser reruns only a fragment on a pick).
2. In Chromium, on one server: the Scaling page's toggle (a walkthrough page's full rerun,
   the reference), then on the Real model page the head picker (Scores tab open: its grid
   redrawn) and the token picker ("weight on animal" grid redrawn). Each pick moves one
   option down with the keyboard, as a learner would.
3. The server's peak memory (VmHWM) after the model is loaded and several sentences ran,
   one of them cut at 128 tokens.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench import Result, timed
from bench.common.browser import (
    CHROMIUM_ARGS,
    ROOT,
    find_chromium,
    settle,
    stage_control,
    start_server,
    time_change,
)
from bench.common.interact import STAGE_CELLS, pick

TOKEN_CELLS = ".st-key-rm_on_target .heatmap-label"
SENTENCES = (
    "The trophy didn't fit in the suitcase because it was too big",
    "Attention lets every token gather information from the others " * 12,  # > 128 tokens
    "The animal didn't cross the street because it was too wide",
)


def run(args: argparse.Namespace) -> list[Result]:
    repeats = 5 if getattr(args, "quick", False) else 20
    results = [bench_apptest(repeats)]
    if not getattr(args, "no_browser", False):
        results.extend(bench_browser(repeats))
    return results


def bench_apptest(repeats: int) -> Result:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("app_pages/labs/real_model.py").run()
    return Result("AppTest full rerun: Real model page", timed(at.run, repeats),
                  "gallery + every section; a pick in the browser reruns one fragment")  # fmt: skip


def bench_browser(steps: int) -> list[Result]:
    chromium = find_chromium()
    if chromium is None:
        return [Result("browser: skipped (no chromium)", [0.0])]
    from playwright.sync_api import sync_playwright

    proc, url = start_server("app.py")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            toggle = _toggle_times(page, url, steps)
            picks = pick_times(page, url, steps)
            peak = _memory_after_sentences(page, url, proc.pid)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    ref = sorted(toggle)[len(toggle) // 2]
    ratio = lambda s: f"{sorted(s)[len(s) // 2] / ref:.2f}x the toggle; budget 1.5x"  # noqa: E731
    return [
        Result("browser: Scaling toggle -> scaled heatmap redrawn", toggle, "the reference"),
        *[
            Result(
                f"browser: Real model head pick, {stage} tab -> its grid redrawn",
                picks[stage],
                ratio(picks[stage]),
            )
            for stage in STAGE_CELLS
        ],
        Result(
            "browser: Real model token pick -> target grid redrawn",
            picks["token"],
            ratio(picks["token"]),
        ),
        Result("server peak memory (VmHWM, MB), model + 4 sentences", [peak], "budget 500 MB"),
    ]


def _toggle_times(page, url: str, steps: int) -> list[float]:
    page.goto(url + "/scaling")
    watch = ".st-key-scaling_scaled .heatmap-label"
    page.wait_for_selector(watch, timeout=60_000)
    settle(page)
    page.locator(".st-key-scaled_toggle input").first.focus()
    return [time_change(page, watch, lambda: page.keyboard.press("Space")) for _ in range(steps)]


def pick_times(page, url: str, steps: int) -> dict[str, list[float]]:
    page.goto(url + "/real-model")
    page.wait_for_selector(".st-key-rm_gallery .heatmaplayer", timeout=120_000)
    settle(page)
    out = {}
    for stage, cells in STAGE_CELLS.items():  # head 3, 2, 3, 2, ... with that tab open
        stage_control(page, "rm", stage).click()
        page.wait_for_selector(f"{cells} .heatmaplayer", timeout=60_000)
        settle(page)
        out[stage] = [time_change(page, cells, pick(page, "rm_head", k % 2 == 0))
                      for k in range(steps)]  # fmt: skip
    out["token"] = [time_change(page, TOKEN_CELLS, pick(page, "rm_token", k % 2 == 0))
                    for k in range(steps)]  # fmt: skip  # "was", "it", "was", ...
    return out


def _memory_after_sentences(page, url: str, pid: int) -> float:
    for text in SENTENCES:
        box = page.locator(".st-key-rm_text input")
        box.fill(text)
        box.press("Enter")
        page.wait_for_timeout(300)
        settle(page)
    status = Path(f"/proc/{pid}/status").read_text()
    kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM"))
    return kb / 1024
