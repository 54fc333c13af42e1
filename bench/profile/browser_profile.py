"""Where an interaction's time goes in Chromium, against the floor (issue 11's profile).

    python -m bench.profile.browser_profile [--steps 8]
    python -m bench.profile.browser_profile --root ../before --root . [--rounds 2]   # paired

For the floor's toggle and each of the app's interactions, over ``steps`` repetitions, it
records through Playwright's CDP session:

- the wall time until the new numbers are drawn (as bench_pages measures it);
- the websocket messages the server sent for it, and their bytes;
- the server's CPU for it (from /proc: the script and the event loop, every thread);
- the browser's JavaScript CPU profile (CDP ``Profiler``), self time grouped by where it
  runs: Plotly's chunk, React, Streamlit's own frontend code, the garbage collector, and
  ``(program)``: the engine's own work outside JavaScript (style, layout, paint).

Everything is per interaction (the median for the wall time, the mean for the profile).
Run it on a quiet machine: under load every column grows, the ratios less.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.common import tables
from bench.common.browser import (
    CHANGED,
    FLOOR_APP,
    chromium,
    drawn,
    first_drawn,
    settle,
    stage_control,
    start_server,
)
from bench.common.cpu_profile import NATIVE, grouped
from bench.common.interact import STAGE_CELLS, mouse_click, pick
from bench.common.scenarios import scenario_6x4


@dataclass
class Interaction:
    """Open ``path``; then for k = 0, 1, ...: ``arm(page, k)`` gets the change ready (untimed)
    and returns it; the change is timed until ``watch(k)`` shows other numbers."""

    name: str
    path: str
    arm: Callable[..., Callable[[], None]]
    watch: Callable[[int], str]
    viewport: tuple[int, int] = (1400, 1000)
    tab: str = ""  # a tab to open first


@dataclass
class Profile:
    wall: list[float] = field(default_factory=list)
    messages: int = 0
    kbytes: float = 0.0
    server_cpu: float = 0.0
    js: collections.Counter = field(default_factory=collections.Counter)


def _press(selector: str, key: str) -> Callable:
    def arm(page, k: int) -> Callable[[], None]:
        page.locator(selector).first.focus()
        return lambda: page.keyboard.press(key)

    return arm


def _click_text(selector: str, texts: tuple[str, str]) -> Callable:
    """One mouse event (Playwright's click() would add its own checks to the time)."""

    def arm(page, k: int) -> Callable[[], None]:
        return mouse_click(page, page.locator(selector, has_text=texts[k % 2]).first)

    return arm


def _choose(widget: str) -> Callable:
    """The next or the previous option of a select box: the list is opened untimed."""

    def arm(page, k: int) -> Callable[[], None]:
        return pick(page, widget, k % 2 == 0)

    return arm


def _keys(selector: str, keys: tuple[str, str]) -> Callable:
    """Focus ``selector`` (untimed), then press keys[0] and keys[1] in turn."""

    def arm(page, k: int) -> Callable[[], None]:
        page.locator(selector).first.focus()
        return lambda: page.keyboard.press(keys[k % 2])

    return arm


def _stage(prefix: str) -> Callable:
    """Softmax and Scores in turn, in a lab's stage control (one mouse event)."""

    def arm(page, k: int) -> Callable[[], None]:
        option = stage_control(page, prefix, "Softmax" if k % 2 == 0 else "Scores")
        return mouse_click(page, option)

    return arm


SCALED = ".st-key-scaling_scaled .heatmap-label"
LAB_COLUMN = ".st-key-lab_column_True .main-svg, .st-key-lab_charts .main-svg"  # issue 43: one
PREVIEW = ".st-key-inputs_preview .heatmap-label"
SLIDER = ".st-key-lab_dk [data-testid='stSlider'] input[type='range']"
SCORES = ".st-key-scores_chart .heatmap-label"
TR_SLIDER = ".st-key-{0} input[type='range'], .st-key-{0} [role='slider']"
INTERACTIONS = (
    Interaction("floor: toggle -> 6x6 heatmap", "/", _press(".st-key-floor_toggle input", "Space"),
                lambda k: ".st-key-floor_heatmap .heatmap-label"),
    Interaction("Scaling toggle", "/scaling", _press(".st-key-scaled_toggle input", "Space"),
                lambda k: SCALED),
    Interaction("sidebar page switch (Scores <-> Scaling)", "/scores",
                _click_text(".st-key-nav a", ("4. Scaling", "3. Scores")),
                lambda k: SCALED if k % 2 == 0 else SCORES),
    Interaction("Multi-head head count 4 <-> 2", f"/multi-head?s={scenario_6x4().to_url()}",
                _click_text(".st-key-n_heads_choice button", ("2", "4")),
                lambda k: ".st-key-mh_small .heatmap-label", (1400, 2400)),
    Interaction("Real model head pick, Scores tab", "/real-model", _choose("rm_head"),
                lambda k: STAGE_CELLS["Scores"], tab="Scores"),
    Interaction("Real model head pick, Softmax tab", "/real-model", _choose("rm_head"),
                lambda k: STAGE_CELLS["Softmax"], tab="Softmax"),
    Interaction("Scaling lab d_k slider 64 <-> 128", "/scaling-lab",
                _keys(SLIDER, ("ArrowRight", "ArrowLeft")), lambda k: LAB_COLUMN),
    Interaction("Inputs: Random <-> Zeros fill of X", "/inputs",
                _click_text(".st-key-fill_X_random button, .st-key-fill_X_zeros button",
                            ("Random", "Zeros")),
                lambda k: PREVIEW),
    Interaction("Real model token pick", "/real-model", _choose("rm_token"),
                lambda k: ".st-key-rm_on_target .heatmap-label", tab="Scores"),
    Interaction("Real model stage change Scores <-> Softmax", "/real-model", _stage("rm"),
                lambda k: STAGE_CELLS["Softmax" if k % 2 == 0 else "Scores"], tab="Scores"),
    # issue 33; the d_k change's first move to 256 trains it (0.3 s of server CPU, once)
    Interaction("Training step slider 200 <-> 196", "/training",
                _keys(TR_SLIDER.format("tr_step"), ("ArrowLeft", "ArrowRight")),
                lambda k: ".st-key-tr_weights_False .main-svg"),
    Interaction("Training d_k 512 <-> 256", "/training?tr_dk=512",
                _keys(TR_SLIDER.format("tr_dk"), ("ArrowLeft", "ArrowRight")),
                lambda k: ".st-key-tr_weights_False .main-svg"),
)  # fmt: skip


def _server_cpu_ms(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def profile(browser, url: str, pid: int, spec: Interaction, steps: int) -> Profile:
    page = browser.new_page(viewport={"width": spec.viewport[0], "height": spec.viewport[1]})
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    out, frames = Profile(), []
    cdp.on("Network.webSocketFrameReceived", lambda e: frames.append(e["response"]))
    page.goto(url + spec.path)
    if spec.tab:
        page.wait_for_selector(".st-key-rm_gallery .heatmaplayer", timeout=120_000)
        settle(page)
        stage_control(page, "rm", spec.tab).click()
    page.wait_for_selector(first_drawn(spec.watch(1)), timeout=60_000)
    settle(page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    cdp.send("Profiler.start")
    frames.clear()
    cpu0 = _server_cpu_ms(pid)
    for k in range(steps):
        change = spec.arm(page, k)
        before = drawn(page, spec.watch(k))
        t0 = time.perf_counter()
        change()
        page.wait_for_function(CHANGED, arg=[spec.watch(k), before], timeout=30_000, polling=10)
        out.wall.append((time.perf_counter() - t0) * 1000)
        settle(page)
    out.server_cpu = (_server_cpu_ms(pid) - cpu0) / steps
    out.messages = len(frames) // steps
    out.kbytes = sum(len(f["payloadData"]) for f in frames) * 0.75 / 1024 / steps  # base64
    out.js = grouped(cdp.send("Profiler.stop")["profile"], steps)
    page.close()
    return out


def report(results: dict[str, Profile]) -> str:
    floor = statistics.median(results[INTERACTIONS[0].name].wall)
    groups = ["Plotly", "React", "Streamlit frontend", "DOM and other", "GC", *NATIVE.values()]
    groups = list(dict.fromkeys(groups))
    head = ["interaction", "wall ms", "x floor", "messages", "kB", "server CPU ms",
            *[f"JS: {g} ms" for g in groups]]  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, p in results.items():
        wall = statistics.median(p.wall)
        cells = [name, f"{wall:.0f}", f"{wall / floor:.2f}", str(p.messages), f"{p.kbytes:.1f}",
                 f"{p.server_cpu:.0f}", *[f"{p.js[g]:.1f}" for g in groups]]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def paired(browser, roots: list[str], rounds: int, steps: int) -> str:
    """Each interaction on every checkout in ``roots`` (before/after), alternating order for
    ``rounds`` rounds, against the floor: wall time and the browser's JS CPU, same run."""
    servers = [start_server(FLOOR_APP)] + [start_server("app.py", r) for r in roots]
    wall: dict = collections.defaultdict(list)
    cpu: dict = collections.defaultdict(list)
    try:
        for r in range(rounds):
            for spec in INTERACTIONS:
                order = [0] if spec.name.startswith("floor") else list(range(1, len(servers)))
                for i in order if r % 2 == 0 else order[::-1]:
                    proc, url = servers[i]
                    prof = profile(browser, url, proc.pid, spec, steps)
                    wall[spec.name, i] += prof.wall
                    cpu[spec.name, i].append(sum(prof.js.values()))
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(timeout=10)
    floor = INTERACTIONS[0].name
    f_wall, f_cpu = statistics.median(wall[floor, 0]), statistics.mean(cpu[floor, 0])
    header = ["interaction", *(f"{r}: wall ms (x floor), browser CPU ms (x floor)" for r in roots)]

    def cell(name: str, i: int) -> str:
        w, c = statistics.median(wall[name, i]), statistics.mean(cpu[name, i])
        return f"{w:.0f} ({w / f_wall:.2f}x), {c:.0f} ({c / f_cpu:.2f}x)"

    rows = [[s.name, *(cell(s.name, i) for i in range(1, len(servers)))] for s in INTERACTIONS[1:]]
    return (f"floor: {f_wall:.0f} ms wall, {f_cpu:.0f} ms browser CPU\n"
            + tables.markdown(header, rows))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument(
        "--root",
        action="append",
        default=[],
        help="a checkout to compare (repeat: before and after, same run)",
    )
    parser.add_argument("--rounds", type=int, default=2, help="with --root: alternating rounds")
    parser.add_argument("--only", default="", help="only the interactions naming this")
    args = parser.parse_args()
    global INTERACTIONS
    INTERACTIONS = tuple(
        s for s in INTERACTIONS if s.name.startswith("floor") or args.only in s.name
    )
    with chromium() as browser:
        if args.root:
            print(paired(browser, args.root, args.rounds, args.steps))
        else:
            print(report(single(browser, args.steps)))


def single(browser, steps: int) -> dict[str, Profile]:
    results = {}
    for spec in INTERACTIONS:
        script = FLOOR_APP if spec.name.startswith("floor") else "app.py"
        proc, url = start_server(script)
        try:
            results[spec.name] = profile(browser, url, proc.pid, spec, steps)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return results


if __name__ == "__main__":
    main()
