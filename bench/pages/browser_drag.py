"""The Scaling lab's d_k in the browser (issue 43): a step of the chart's own slider against
Streamlit's floor, and how many redraws a second a drag gets at 4x CPU slowdown.

    python -m bench.pages.browser_drag [--rounds 2] [--steps 10] [--seconds 4]

Each round, at a desktop (1280 x 800) and a phone (390 x 844, a phone's user agent)
viewport: the floor (bench/floors/floor_app.py: a toggle redrawing one 6 x 6 heatmap,
Space on it); then the lab:

- chart slider step: the mouse held on the thumb of the slider in the lab's chart moves one
  notch (d_k 64 <-> 128 and on), timed from the mouse event until the chart's panel titles
  show the new d_k's numbers (no server: plotly.js draws the frame it holds);
- page slider step: the same d_k by the page's own slider (ArrowRight/ArrowLeft, a rerun
  of the lab's fragment), until the chart's panel titles change, for comparison;
- drag at 4x slowdown (CDP Emulation.setCPUThrottlingRate 4): the thumb dragged to and fro
  over every notch for ``--seconds``, a mouse event a notch; a requestAnimationFrame loop in
  the page notes every frame that shows a new drawing of the chart, with the thumb's d_k
  and the unscaled histogram's printed spread. Redraws a second = new drawings / seconds;
  "thumb = drawn" counts the drawings whose spread is the core's for the thumb's d_k.

The ratios are medians against the floor's median of the same run, at the same viewport.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from bench.common import tables
from bench.common.browser import CHANGED, FLOOR_APP, ROOT, chromium, drawn, serving, settle
from bench.common.interact import measure as measure_key

CHART = ".st-key-lab_charts"
TITLES = f"{CHART} .textpoint"  # the panels' titles and notes that a d_k changes
RAIL, GRIP = f"{CHART} .slider-rail-rect", f"{CHART} .slider-grip-rect"
THUMB = f"{CHART} .slider-group > text.slider-label"  # "d_k = 64"
PAGE_SLIDER = ".st-key-lab_dk [data-testid='stSlider'] input[type='range']"
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/156.0 Mobile Safari/537.36")  # fmt: skip
VIEWPORTS = {
    "desktop 1280x800": {"viewport": {"width": 1280, "height": 800}},
    "phone 390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                      "has_touch": True, "user_agent": PHONE_UA},
}  # fmt: skip
# Every animation frame: when the chart's first panel title (the unscaled spread) differs
# from the last frame's, note the time, the thumb's d_k and that title.
RECORD = """([titles, thumb]) => {
    window.__drawn = [];
    let last = null;
    const tick = () => {
        const t = [...document.querySelectorAll(titles)].find(e => e.textContent.includes('std'));
        const now = t ? t.textContent : null;
        if (now !== last) {
            const at = document.querySelector(thumb).textContent;
            window.__drawn.push([performance.now(), at, now]);
            last = now;
        }
        if (!window.__stop) requestAnimationFrame(tick);
    };
    window.__stop = false;
    requestAnimationFrame(tick);
}"""
N_NOTCHES = 11  # d_k = 1, 2, 4, ..., 1024


def open_lab(context, url: str):
    page = context.new_page()
    page.goto(url + "/scaling-lab")
    page.wait_for_selector(f"{CHART} .main-svg", timeout=120_000)
    settle(page)
    page.locator(RAIL).scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    return page


def notch(page, index: int) -> tuple[float, float]:
    """Where notch ``index`` is on the chart's slider (page px; Plotly insets them 8 px)."""
    rail, grip = page.locator(RAIL).bounding_box(), page.locator(GRIP).bounding_box()
    x = rail["x"] + 8 + (rail["width"] - 16) * index / (N_NOTCHES - 1)
    return x, grip["y"] + grip["height"] / 2


def grab(page, at: tuple[float, float] | None = None) -> None:
    """Press the mouse on the thumb (at ``at``, or where the thumb is drawn now)."""
    if at is None:
        grip = page.locator(GRIP).bounding_box()
        at = (grip["x"] + grip["width"] / 2, grip["y"] + grip["height"] / 2)
    page.mouse.move(*at)
    page.mouse.down()


def bounce(start: int) -> list[int]:
    """Notches from ``start`` up to the last, down to the first and up again (a drag)."""
    up = list(range(start + 1, N_NOTCHES))
    return up + list(range(N_NOTCHES - 2, -1, -1)) + list(range(1, N_NOTCHES))


def chart_steps(page, steps: int) -> list[float]:
    """``steps`` one-notch moves of the held thumb, each until the titles change (ms)."""
    grab(page)
    path = (bounce(6) * (steps // 20 + 1))[:steps]
    samples = []
    for index in path:
        x, y = notch(page, index)
        before = drawn(page, TITLES)
        t0 = time.perf_counter()
        page.mouse.move(x, y)
        page.wait_for_function(CHANGED, arg=[TITLES, before], timeout=15_000, polling=10)
        samples.append((time.perf_counter() - t0) * 1000)
        page.wait_for_timeout(100)
    page.mouse.up()
    return samples


def drag_rate(context, page, seconds: float) -> tuple[float, float, int, int]:
    """(redraws a second, mouse events a second, drawings, drawings whose spread is the
    thumb's d_k's) over a drag of ``seconds`` at 4x CPU slowdown."""
    from attention_core.saturation import DK_POWERS, sample_scores
    from attention_ui.scaling_lab.lab import N_KEYS, N_SAMPLES

    spread = {f"{np.std(r):.2f}": d
              for d, r in zip(DK_POWERS, sample_scores(DK_POWERS, N_KEYS, N_SAMPLES, 0),
                              strict=True)}  # fmt: skip
    start = notch(page, 6)  # d_k = 64, where the chart opens
    places = [notch(page, k) for k in bounce(6)]  # found before the drag: no page work
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    try:
        grab(page, start)
        page.evaluate(RECORD, [TITLES, THUMB])
        moves = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            page.mouse.move(*places[moves % len(places)])
            moves += 1
        elapsed = time.perf_counter() - t0
        page.mouse.up()
        page.wait_for_timeout(500)
        page.evaluate("() => { window.__stop = true; }")
        frames = page.evaluate("() => window.__drawn")[1:]  # the first is the opening one
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    same = sum(spread.get(title.rsplit(" ", 1)[-1]) == int(thumb.rsplit(" ", 1)[-1])
               for _, thumb, title in frames)  # fmt: skip
    span = (frames[-1][0] - frames[0][0]) / 1000 if len(frames) > 1 else elapsed
    return len(frames) / max(span, 1e-9), moves / elapsed, len(frames), same


def measure(browser, url: str, options: dict, steps: int, seconds: float) -> dict[str, list]:
    context = browser.new_context(**options)
    try:
        page = open_lab(context, url)
        out: dict[str, list] = {"chart slider step": chart_steps(page, steps)}
        out["drag at 4x slowdown"] = [drag_rate(context, page, seconds)]
        page.close()
        keys = page_steps(context, url, steps)
        out["page slider step (rerun)"] = keys
    finally:
        context.close()
    return out


def page_steps(context, url: str, steps: int) -> list[float]:
    """The page's own slider, a key press a step, until the chart's titles change: from
    d_k = 64 up to 1024 at most (four steps), then from 64 down."""
    page = context.new_page()
    n = min(4, steps // 2)
    got = measure_key(page, url + "/scaling-lab", PAGE_SLIDER, "ArrowRight", TITLES, n)
    got += measure_key(page, url + "/scaling-lab", PAGE_SLIDER, "ArrowLeft", TITLES, n)
    page.close()
    return got


def floor_at(browser, url: str, options: dict, steps: int) -> list[float]:
    context = browser.new_context(**options)
    try:
        page = context.new_page()
        return measure_key(page, url + "/", ".st-key-floor_toggle input", "Space",
                           ".st-key-floor_heatmap .heatmap-label", steps)  # fmt: skip
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--seconds", type=float, default=4.0)
    args = p.parse_args(argv)
    floor: dict[str, list[float]] = {}
    got: dict[tuple[str, str], list] = {}
    load = [os.getloadavg()[0]]
    t0 = time.strftime("%H:%M")
    with chromium() as browser:
        if browser is None:
            print("SKIPPED: no chromium")
            return 0
        for _ in range(args.rounds):
            with serving(FLOOR_APP) as url:
                for name, options in VIEWPORTS.items():
                    floor.setdefault(name, []).extend(floor_at(browser, url, options, args.steps))
            with serving("app.py", str(ROOT)) as url:
                for name, options in VIEWPORTS.items():
                    for what, samples in measure(browser, url, options, args.steps,
                                                 args.seconds).items():  # fmt: skip
                        got.setdefault((what, name), []).extend(samples)
            load.append(os.getloadavg()[0])
    print(f"{t0}-{time.strftime('%H:%M')}, load average (1 min) {min(load):.1f}-{max(load):.1f}; "
          f"{args.rounds} rounds of {args.steps} steps, drags of {args.seconds:g} s")  # fmt: skip
    rows = []
    for name in VIEWPORTS:
        ref = statistics.median(floor[name])
        rows.append([name, "floor: toggle -> 6x6 heatmap", f"{tables.median_min(floor[name])}"])
        for what in ("chart slider step", "page slider step (rerun)"):
            rows.append([name, what, tables.versus(got[(what, name)], ref)])
        drags = got[("drag at 4x slowdown", name)]
        rates = [f"{r:.0f}" for r, *_ in drags]
        inputs = [f"{m:.0f}" for _, m, *_ in drags]
        same = sum(s for *_, s in drags)
        total = sum(n for *_, n, _ in drags)
        rows.append([name, "drag at 4x slowdown: redraws/s (mouse events/s)",
                     f"**{', '.join(rates)}** ({', '.join(inputs)}); thumb = drawn in "
                     f"{same} of {total} drawings"])  # fmt: skip
    print(tables.markdown(["viewport", "interaction", "ms median (min), x floor"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
