"""Every control of the Multi-head lab in Chromium, against the floor, in the same run (issue 21).

    python -m bench.pages.browser_mh [--root ../before] [--root .] [--rounds 2] [--steps 5]

Each interaction is timed two ways, from the click or key press:

- **drawn**: until the watched numbers change (as bench/pages/browser_app.py measures);
- **still**: until the page's last DOM change, once the run is over and nothing has moved
  for QUIET ms (a MutationObserver; what a learner waits for: the page stops changing).

The floor (bench/floors/floor_app.py's toggle) is measured the same two ways. Rounds alternate
floor and each root (servers kept up), so a busy machine slows all of them alike; the
medians and minima are printed per interaction, as a ratio to the floor's.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from attention_core import PRESETS
from bench.common.browser import (
    CHANGED,
    FLOOR_APP,
    IDLE,
    chromium,
    drawn,
    settle,
    stage_control,
    start_server,
)
from bench.common.cpu_profile import grouped
from bench.common.interact import mouse_click
from bench.common.scenarios import scenario_6x4

QUIET = 400  # ms without a DOM change: the page has stopped changing
OBSERVE = """() => {
    window.__last = performance.now();
    if (!window.__observer) {
        window.__observer = new MutationObserver(() => { window.__last = performance.now(); });
        window.__observer.observe(document.body, {subtree: true, childList: true,
                                                  attributes: true, characterData: true});
    }
    return performance.now();
}"""
STILL = f"() => performance.now() - window.__last > {QUIET}"
# Selectors that match the lab before (a chart per head) and after (one figure) issue 21.
HEADS = "[class*='st-key-mh_small'] .heatmap-label"
STAGE = (
    "[data-testid='stTabs'] [data-testid='stPlotlyChart'] .heatmap-label, "
    ".st-key-mh_stage_panel [data-testid='stPlotlyChart'] .heatmap-label"
)  # tabs, or not
FLOOR = ".st-key-floor_heatmap .heatmap-label"
HEADS_FLOOR_APP = "bench/floors/floor_heads_app.py"


@dataclass
class Interaction:
    """Open ``path`` (again before every step when ``reload``); ``arm(page, k)`` readies the
    k-th change untimed and returns it; it is timed until ``watch`` shows other numbers."""

    name: str
    path: str
    arm: Callable
    watch: str
    reload: bool = False
    height: int = 2400  # the small multiples in view: Streamlit draws below the fold late


def _click(selector: str, texts: tuple[str, ...] = ("",)) -> Callable:
    def arm(page, k: int):
        found = page.locator(selector)
        text = texts[k % len(texts)]
        return mouse_click(page, (found.filter(has_text=text) if text else found).first)

    return arm


def _tab(names: tuple[str, str]) -> Callable:
    def arm(page, k: int):
        return mouse_click(page, stage_control(page, "mh", names[k % 2]))

    return arm


def _expander_then(summary: str, button: str) -> Callable:
    def arm(page, k: int):
        page.get_by_text(summary).first.click()
        page.locator(button).first.wait_for(timeout=30_000)
        settle(page)
        return mouse_click(page, page.locator(button).first)

    return arm


def _floor_press(page, k: int):
    page.locator(".st-key-floor_toggle input").first.focus()
    return lambda: page.keyboard.press("Space")


SIX_BY_FOUR = f"/multi-head?s={scenario_6x4().to_url()}"
TWO_HEADS = f"/multi-head?s={PRESETS['two_heads'].build().to_url()}"
FLOOR_TOGGLE = Interaction("floor: toggle -> 6x6 heatmap", "/", _floor_press, FLOOR, height=1000)
# bench/floors/floor_heads_app.py: only the split and every head's weights, 4 <-> 2 heads
HEADS_FLOOR = Interaction(
    "heads floor: toggle -> split + every head's weights", "/", _floor_press, FLOOR, height=2400
)
INTERACTIONS = (
    Interaction("head count 4 <-> 2", SIX_BY_FOUR,
                _click(".st-key-n_heads_choice button", ("2", "4")), HEADS),
    Interaction("head pick 2 <-> 1 (Scores tab)", TWO_HEADS,
                _click(".st-key-head button", ("2", "1")), STAGE),
    Interaction("stage tab Scores <-> Softmax", TWO_HEADS, _tab(("Softmax", "Scores")), STAGE),
    Interaction("'Make it ready for heads' (default scenario)", "/multi-head",
                _click(".st-key-heads_fix button"), HEADS, reload=True),
    Interaction("'Load the example' (default scenario)", "/multi-head",
                _click(".st-key-mh_load_example button"), HEADS, reload=True),
    Interaction("the example's 'Load this example' (4 heads)", SIX_BY_FOUR,
                _expander_then("The example: ", ".st-key-mh_load_example_2 button"), HEADS,
                reload=True),
)  # fmt: skip


@dataclass
class Samples:
    drawn: list[float] = field(default_factory=list)  # ms to the new numbers
    still: list[float] = field(default_factory=list)  # ms to the page's last change
    cpu: list[float] = field(default_factory=list)  # the browser's JS CPU (non-idle), ms
    plotly: list[float] = field(default_factory=list)  # of which in Plotly's chunk, ms
    messages: list[int] = field(default_factory=list)  # websocket messages from the server
    lost: int = 0  # changes that never showed (timed out): left out of the numbers


def measure(browser, url: str, spec: Interaction, steps: int, out: Samples) -> None:
    """``steps`` repetitions of ``spec``, added to ``out``."""
    page = browser.new_page(viewport={"width": 1400, "height": spec.height})
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    frames: list = []
    cdp.on("Network.webSocketFrameReceived", lambda e: frames.append(1))
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for k in range(steps):
        if k == 0 or spec.reload:
            page.goto(url + spec.path)
            page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
            settle(page)
            page.wait_for_timeout(300)
        act = spec.arm(page, k)
        before = drawn(page, spec.watch)
        t_page = page.evaluate(OBSERVE)
        frames.clear()
        cdp.send("Profiler.start")
        t0 = time.perf_counter()
        act()
        try:
            page.wait_for_function(CHANGED, arg=[spec.watch, before], timeout=30_000, polling=10)
        except PlaywrightTimeout:  # a click lost on a busy machine: said, not timed
            cdp.send("Profiler.stop")
            out.lost += 1
            print(f"  lost: {spec.name}, step {k}", flush=True)
            page.goto(url + spec.path)
            settle(page)
            continue
        out.drawn.append((time.perf_counter() - t0) * 1000)
        page.wait_for_selector(IDLE, timeout=60_000)
        page.wait_for_function(STILL, timeout=60_000, polling=50)
        out.still.append(page.evaluate("window.__last") - t_page)
        js = grouped(cdp.send("Profiler.stop")["profile"], 1)
        out.cpu.append(sum(js.values()))
        out.plotly.append(js["Plotly"])
        out.messages.append(len(frames))
        settle(page)
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", action="append", default=None)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--only", default="", help="run interactions whose name contains this")
    parser.add_argument(
        "--heads-floor",
        action="store_true",
        help="also bench/floors/floor_heads_app.py, the head count's fair floor",
    )
    args = parser.parse_args()
    roots = args.root or ["."]

    specs = [s for s in INTERACTIONS if args.only in s.name]
    servers = [start_server(FLOOR_APP)] + [start_server(root=Path(r).resolve()) for r in roots]
    if args.heads_floor:  # measured with the head count, as its fair floor
        roots, servers = [*roots, "heads floor"], [*servers, start_server(HEADS_FLOOR_APP)]
    samples: dict[tuple[str, str], Samples] = {}
    try:
        with chromium() as browser:
            for _ in range(args.rounds):
                for spec in specs:  # the floor before each interaction: alternated
                    for where, (_, url) in zip(["floor", *roots], servers, strict=True):
                        if where == "heads floor" and "head count" not in spec.name:
                            continue
                        one = {"floor": FLOOR_TOGGLE, "heads floor": HEADS_FLOOR}.get(where, spec)
                        got = samples.setdefault((where, one.name), Samples())
                        measure(browser, url, one, args.steps, got)
                        print(
                            f"{where} | {one.name} | drawn {[round(x) for x in got.drawn]}"
                            f" | still {[round(x) for x in got.still]}",
                            flush=True,
                        )
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(timeout=10)
    report(samples, roots, specs)


def report(samples: dict, roots: list[str], specs: list[Interaction]) -> None:
    """One table per root: medians (x the floor's median) and minima."""
    floor = samples[("floor", FLOOR_TOGGLE.name)]
    ref = {k: statistics.median(getattr(floor, k)) for k in ("drawn", "still", "cpu")}
    print(f"floor (n={len(floor.drawn)}): drawn {ref['drawn']:.0f} ms "
          f"(min {min(floor.drawn):.0f}), "
          f"still {ref['still']:.0f} ms (min {min(floor.still):.0f}), browser CPU "
          f"{ref['cpu']:.0f} ms (Plotly {statistics.median(floor.plotly):.0f}), "
          f"{statistics.median(floor.messages):.0f} messages")  # fmt: skip
    for r in roots:
        print(f"\n{r}\n| interaction | drawn ms (x floor) | still ms (x floor) | browser CPU ms "
              "(x floor) | of it Plotly ms | messages |\n|---|---|---|---|---|---|")  # fmt: skip
        for spec in [HEADS_FLOOR] if r == "heads floor" else specs:
            got = samples[(r, spec.name)]
            cells = []
            for k in ("drawn", "still", "cpu"):
                m = statistics.median(getattr(got, k))
                cells.append(f"{m:.0f} ({m / ref[k]:.2f}x), min {min(getattr(got, k)):.0f}")
            cells += [f"{statistics.median(got.plotly):.0f}",
                      f"{statistics.median(got.messages):.0f}"
                      + (f" ({got.lost} lost)" if got.lost else "")]  # fmt: skip
            print(f"| {spec.name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
