"""The Training lab against Streamlit's floor and against its bare twin, in one run (issue 33).

    python -m bench.pages.browser_training [--rounds 2] [--steps 6]
    python -m bench.pages.browser_training --root . --root /work/main   # two checkouts, paired

Each round runs the floor (bench/floors/floor_app.py: a toggle redrawing one 6 x 6 heatmap),
then the app and its twin (``/training`` of bench/twin/app.py: the lab's content in bare
Streamlit), the order flipping every round, in one Chromium at 1400 x 1000. Each change is
timed from the key press until every chart it redraws shows its new drawing
(``browser_rest.time_all``):

- step slider: the step one notch back and forth (200 <-> 196) in the lab's fragment, until
  both runs' weights and the rows' largest weights are redrawn;
- setting change: d_k 256 <-> 512 (both trained once, untimed, before the clock), until
  all seven charts are redrawn.

The ratios are medians against the floor's median of the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bench.common import tables
from bench.common.browser import FLOOR_APP, ROOT, chromium, serving, settle
from bench.common.interact import measure as measure_key
from bench.pages.browser_rest import time_all

STEP_CHARTS = ["tr_weights_False", "tr_weights_True", "tr_saturation"]
ALL_CHARTS = ["tr_loss", "tr_wrong_grad", *STEP_CHARTS, "tr_stuck", "tr_grad"]
TWIN = "bench/twin"


def svg(keys: list[str]) -> list[str]:
    return [f".st-key-{k} .main-svg" for k in keys]


def slider(page, key: str):
    box = f".st-key-{key}"
    return page.locator(f"{box} input[type='range'], {box} [role='slider']").first


def presses(page, key: str, watch: list[str], steps: int, warm: int = 0,
            moves: tuple[str, str] = ("ArrowRight", "ArrowLeft")) -> list[float]:  # fmt: skip
    """``steps`` timed presses of the slider ``key``, ``moves`` in turn (after ``warm``
    untimed ones), each until every chart in ``watch`` is redrawn."""
    slider(page, key).focus()
    for k in range(warm):
        time_all(page, watch, lambda k=k: page.keyboard.press(moves[k % 2]))
    return [time_all(page, watch, lambda k=k: page.keyboard.press(moves[(k + warm) % 2]))
            for k in range(steps)]  # fmt: skip


def measure(browser, url: str, steps: int) -> dict[str, list[float]]:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(url + "/training")
    page.wait_for_selector(svg(["tr_grad"])[0], timeout=120_000)
    settle(page)
    out = {
        "step slider": presses(
            page, "tr_step", svg(STEP_CHARTS), steps, warm=1, moves=("ArrowLeft", "ArrowRight")
        ),  # from the last step
        "setting change (d_k)": presses(page, "tr_dk", svg(ALL_CHARTS), steps, warm=2),
    }
    page.close()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--steps", type=int, default=6)
    p.add_argument("--root", action="append", default=[],
                   help="a checkout to serve the app from (repeat: paired)")  # fmt: skip
    args = p.parse_args(argv)
    servers = [(f"app [{r}]", "app.py", r) for r in (args.root or [str(ROOT)])]
    servers.append(("twin", "app.py", str(ROOT / TWIN)))
    floor: list[float] = []
    samples: dict[tuple[str, str], list[float]] = {}
    load = [os.getloadavg()[0]]
    t0 = time.strftime("%H:%M")
    with chromium() as browser:
        if browser is None:
            print("SKIPPED: no chromium")
            return 0
        for _ in range(args.rounds):
            with serving(FLOOR_APP) as url:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                floor += measure_key(page, url + "/", ".st-key-floor_toggle input", "Space",
                                     ".st-key-floor_heatmap .heatmap-label",
                                     args.steps)  # fmt: skip
                page.close()
            for name, script, root in servers:
                with serving(script, root) as url:
                    for what, got in measure(browser, url, args.steps).items():
                        samples.setdefault((what, name), []).extend(got)
            servers.reverse()  # the order flips every round
            load.append(os.getloadavg()[0])
    ref = statistics.median(floor)
    names = sorted({n for _, n in samples}, key=lambda n: n == "twin")
    print(
        f"{t0}-{time.strftime('%H:%M')}, load average (1 min) {min(load):.1f}-{max(load):.1f}; "
        f"{args.rounds} rounds of {args.steps}; floor {tables.median_min(floor)} ms"
    )
    rows = []
    for what in ("step slider", "setting change (d_k)"):
        cells = [tables.versus(samples[(what, n)], ref) for n in names]
        app = statistics.median(samples[(what, names[0])])
        twin = statistics.median(samples[(what, "twin")])
        rows.append([what, *cells, f"{app / twin:.2f}"])
    print(tables.markdown(["interaction", *(f"{n}: ms (min), x floor" for n in names),
                           "app / twin"], rows))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
