"""The Real model and Decoder labs against Streamlit's floor, in one run (issues 21 and 23).

    python -m bench.pages.bench_labs [--steps 6] [--rounds 2]
    python -m bench.pages.bench_labs --root /work/main --root .      # before and after, same run

For each interaction, every round runs the floor (bench/floors/floor_app.py: a toggle redrawing
one 6 x 6 heatmap) and then each checkout in ``--root`` (the order flips every round), on
servers started once, in one Chromium at 1400 x 1000. Each interaction is timed from the
action until the watched element shows other text (``browser.time_change``):

- head pick, Scores tab: the next or previous head, until the score grid's numbers change;
- token pick: the next or previous token, until the token section's grid changes;
- tab change Scores <-> Softmax: one mouse event on the tab, until the tab's grid is drawn;
- sentence change: two sentences in turn (their runs cached after the first round), until
  the open Scores tab's grid shows the new tokens' numbers;
- opening the page: a warm browser page goes to the lab until its gallery and the first
  stage tab are drawn and the run is over; the floor's opening is the floor page's.

The ratios are medians against the floor's median of the same interaction kind (a toggle
for the clicks, the floor page's opening for the openings), all in the same run.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from bench.common import browser as web
from bench.common import tables
from bench.common.interact import pick

FLOOR_CELLS = ".st-key-floor_heatmap .heatmap-label"


@dataclass(frozen=True)
class Lab:
    """What differs between the two labs: the path, the keys and the two texts."""

    name: str
    path: str
    prefix: str  # rm or dec: the stage views' key prefix
    gallery: str  # an element drawn on every full run
    token_watch: str
    texts: tuple[str, str]

    def cells(self, stage: str) -> str:
        """A stage's chart: a real head's grid prints its numbers on hover only."""
        return f".st-key-{self.prefix}_{stage}_chart"


LABS = (
    Lab("Real model", "/real-model", "rm", ".st-key-rm_gallery .heatmaplayer",
        ".st-key-rm_on_target .heatmap-label",
        ("The animal didn't cross the street because it was too tired",
         "The trophy didn't fit in the suitcase because it was too big")),
    Lab("Decoder", "/decoder", "dec", ".st-key-dec_patterns .heatmaplayer",
        ".st-key-dec_on_target .gtitle",
        ("The trophy did not fit in the suitcase because it was too",
         "The animal did not cross the street because it was too")),
)  # fmt: skip


@dataclass(frozen=True)
class Interaction:
    """``arm(page, k)`` gets change k ready (untimed) and returns it; ``watch(k)`` is what
    must show other text once it is drawn. ``tab``: the stage tab opened first."""

    name: str
    lab: Lab | None
    arm: Callable
    watch: Callable[[int], str]
    tab: str = "Scores"
    kind: str = "click"  # click or open: which floor it is set against


def _mouse_on(page, locator) -> Callable[[], None]:
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return lambda: page.mouse.click(x, y)


def _tab(lab: Lab) -> Callable:
    return lambda page, k: _mouse_on(
        page, web.stage_control(page, lab.prefix, "Softmax" if k % 2 == 0 else "Scores")
    )


def _type(lab: Lab) -> Callable:
    def arm(page, k: int) -> Callable[[], None]:
        box = page.locator(f".st-key-{lab.prefix}_text input")
        box.fill(lab.texts[(k + 1) % 2])  # the page opens on texts[0]
        return lambda: box.press("Enter")

    return arm


def interactions(labs: tuple[Lab, ...] = LABS) -> list[Interaction]:
    out = []
    for lab in labs:
        scores = lab.cells("scores")
        both = f"{scores}, {lab.cells('softmax')}"
        out += [
            Interaction(f"{lab.name}: head pick, Scores tab", lab,
                        lambda page, k, w=f"{lab.prefix}_head": pick(page, w, k % 2 == 0),
                        lambda k, c=scores: c),
            Interaction(f"{lab.name}: token pick", lab,
                        lambda page, k, w=f"{lab.prefix}_token": pick(page, w, k % 2 == 1),
                        lambda k, c=lab.token_watch: c),
            Interaction(f"{lab.name}: tab change Scores <-> Softmax", lab,
                        _tab(lab), lambda k, c=both: c),
            Interaction(f"{lab.name}: sentence change", lab, _type(lab),
                        lambda k, c=scores: c),
            Interaction(f"{lab.name}: opening the page", lab, None, lambda k: "", kind="open"),
        ]  # fmt: skip
    return out


def _open(page, url: str, lab: Lab | None) -> None:
    page.goto(url + (lab.path if lab else "/"), wait_until="commit")
    if lab is None:
        page.wait_for_selector(FLOOR_CELLS, timeout=60_000)
        return
    page.wait_for_selector(lab.gallery, timeout=120_000)
    page.wait_for_selector(f".st-key-{lab.prefix}_proj_Q .heatmaplayer", timeout=120_000)
    page.wait_for_selector(web.IDLE, timeout=120_000)


def openings(page, url: str, lab: Lab | None, steps: int) -> list[float]:
    _open(page, url, lab)  # the first opening of a page fills the caches: untimed
    web.settle(page)
    samples = []
    for _ in range(steps):
        t0 = time.perf_counter()
        _open(page, url, lab)
        samples.append((time.perf_counter() - t0) * 1000)
        web.settle(page)
    return samples


def clicks(page, url: str, spec: Interaction, steps: int) -> list[float]:
    if spec.lab is None:  # the floor's toggle
        page.goto(url + "/")
        page.wait_for_selector(FLOOR_CELLS, timeout=60_000)
        web.settle(page)
        arm = lambda page, k: focus_press(page, ".st-key-floor_toggle input", "Space")  # noqa: E731
        watch = lambda k: FLOOR_CELLS  # noqa: E731
    else:
        page.goto(url + spec.lab.path)
        page.wait_for_selector(spec.lab.gallery, timeout=120_000)
        web.settle(page)
        web.stage_control(page, spec.lab.prefix, spec.tab).click()
        page.wait_for_selector(f"{spec.lab.cells(spec.tab.lower())} .heatmaplayer", timeout=60_000)
        web.settle(page)
        arm, watch = spec.arm, spec.watch
    samples = []
    for k in range(steps):
        change = arm(page, k)
        before = web.drawn(page, watch(k))
        t0 = time.perf_counter()
        change()
        page.wait_for_function(web.CHANGED, arg=[watch(k), before], timeout=30_000, polling=10)
        samples.append((time.perf_counter() - t0) * 1000)
        web.settle(page)
    return samples


def focus_press(page, selector: str, key: str) -> Callable[[], None]:
    page.locator(selector).first.focus()
    return lambda: page.keyboard.press(key)


def measure(browser, roots: list[str], rounds: int, steps: int, labs: tuple[Lab, ...] = LABS,
            only: str = "") -> dict[tuple[str, int], list[float]]:  # fmt: skip
    """Samples per (interaction, server): server 0 is the floor, 1.. the roots."""
    servers = [web.start_server(web.FLOOR_APP)] + [web.start_server("app.py", r) for r in roots]
    out: dict = collections.defaultdict(list)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        for r in range(rounds):
            for spec in [s for s in interactions(labs) if only in s.name]:
                order = list(range(1, len(servers)))
                for i in [0, *(order if r % 2 == 0 else order[::-1])]:
                    url = servers[i][1]
                    lab = None if i == 0 else spec.lab
                    if spec.kind == "open":
                        samples = openings(page, url, lab, steps)
                    else:
                        floor = Interaction("floor", None, None, lambda k: FLOOR_CELLS)
                        samples = clicks(page, url, floor if i == 0 else spec, steps)
                    key = ("floor " + spec.kind, 0) if i == 0 else (spec.name, i)
                    out[key] += samples
                    print(f"  round {r + 1} {spec.name} server {i}: "
                          f"{statistics.median(samples):.0f} ms", flush=True)  # fmt: skip
    finally:
        page.close()
        for proc, _ in servers:
            proc.terminate()
            proc.wait(timeout=10)
    return out


def report(samples: dict, roots: list[str], labs: tuple[Lab, ...] = LABS, only: str = "") -> str:
    floors = {kind: samples[f"floor {kind}", 0] for kind in ("click", "open")
              if (f"floor {kind}", 0) in samples}  # fmt: skip
    header = ["interaction", *(f"{r}: median ms (min), x floor" for r in roots)]
    rows = []
    for kind, s in floors.items():
        label = "floor: toggle -> 6x6 heatmap" if kind == "click" else "floor: opening its page"
        rows.append([label, *[f"{tables.median_min(s)}, 1.00x (n={len(s)})"] * len(roots)])
    for spec in [s for s in interactions(labs) if only in s.name]:
        ref = statistics.median(floors[spec.kind])
        cells = (tables.versus(samples[spec.name, i], ref) for i in range(1, len(roots) + 1))
        rows.append([spec.name, *cells])
    return tables.markdown(header, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--root", action="append", default=[], help="a checkout (repeat)")
    parser.add_argument("--lab", choices=[lab.prefix for lab in LABS], action="append")
    parser.add_argument("--only", default="", help="only the interactions whose name has this")
    args = parser.parse_args()
    roots = args.root or ["."]
    labs = tuple(lab for lab in LABS if not args.lab or lab.prefix in args.lab)
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"# bench_labs {time.strftime('%Y-%m-%d %H:%M')}, load average {load}", flush=True)
    with web.chromium() as browser:
        samples = measure(browser, roots, args.rounds, args.steps, labs, args.only)
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"# done {time.strftime('%H:%M')}, load average {load}")
    print(report(samples, roots, labs, args.only))


if __name__ == "__main__":
    main()
