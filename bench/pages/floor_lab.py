"""A lab's head pick, bare, against the floor and the Real model lab (issues 21 and 23).

    python -m bench.pages.floor_lab [--rounds 3] [--steps 8] [--no-app]

One Chromium at 1400 x 1000 and servers started once: the floor (bench/floors/floor_app.py, its
toggle redrawing one 6 x 6 heatmap), bench/floors/floor_lab_app.py at each ``$FLOOR_LAB`` level
(``grid``, ``figure``, ``page``: how much of a head pick's content is drawn, with none of the
app's code around it), and the Real model lab itself (app.py). Every round times each
server's interaction in turn (the order flips every round): the floor's toggle, and the next
or previous head for the others, from the key press until the score grid's picture changes
(``browser.CHANGED``). Ratios are medians against the floor's median of the same run.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import time

from bench.common import browser as web
from bench.common.interact import pick
from bench.pages.bench_labs import FLOOR_CELLS, LABS, clicks, focus_press, interactions
from bench.pages.floor_fragment import ratio_table

LAB_APP = "bench/floors/floor_lab_app.py"  # the pick in bare Streamlit

LEVELS = {  # the grid is 15 x 15 for --lab rm, 13 x 13 for --lab dec
    "grid": "bare: Head select box, a go.Heatmap of the lab's size",
    "figure": "bare: Head select box, the app's score chart",
    "page": "bare: every element of the lab's head pick, the app's chart",
}
CHART = ".st-key-floor_lab_chart"


def _times(page, url: str, arm, watch: str, steps: int) -> list[float]:
    page.goto(url + "/")
    page.wait_for_selector(web.first_drawn(watch), timeout=60_000)
    web.settle(page)
    samples = []
    for k in range(steps):
        change = arm(page, k)
        before = web.drawn(page, watch)
        t0 = time.perf_counter()
        change()
        page.wait_for_function(web.CHANGED, arg=[watch, before], timeout=30_000, polling=10)
        samples.append((time.perf_counter() - t0) * 1000)
        web.settle(page)
    return samples


def main(argv: list[str] | None = None) -> int:

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--no-app", action="store_true", help="leave out the lab itself")
    p.add_argument(
        "--lab",
        choices=[lab.prefix for lab in LABS],
        default="rm",
        help="the lab to set beside the bare page: rm (15 x 15) or dec (13 x 13)",
    )
    p.add_argument("--drop", action="append", default=[],
                   help="also time 'page' without these parts (comma list of tabs, pickers, "
                   "breakdown, tools, open; +frame adds the frame); repeat for more")  # fmt: skip
    args = p.parse_args(argv)
    which = next(lab for lab in LABS if lab.prefix == args.lab)
    os.environ["FLOOR_LAB_N"] = "15" if which.prefix == "rm" else "13"  # the labs' sentences
    servers = {"floor: toggle -> 6x6 heatmap": web.start_server(web.FLOOR_APP)}
    for level, name in LEVELS.items():
        os.environ["FLOOR_LAB"] = level  # the server inherits it
        servers[name] = web.start_server(LAB_APP)
    for drop in args.drop:
        os.environ["FLOOR_LAB"], os.environ["FLOOR_LAB_DROP"] = "page", drop
        how = "with" if drop.startswith("+") else "without"
        servers[f"{LEVELS['page']}, {how} {drop}"] = web.start_server(LAB_APP)
    os.environ.pop("FLOOR_LAB_DROP", None)
    lab = next(s for s in interactions((which,)) if "head pick" in s.name)
    if not args.no_app:
        servers[lab.name] = web.start_server("app.py")
    floor_arm = lambda page, k: focus_press(page, ".st-key-floor_toggle input", "Space")  # noqa: E731
    head_arm = lambda page, k: pick(page, "floor_lab_head", k % 2 == 0)  # noqa: E731
    samples: dict[str, list[float]] = collections.defaultdict(list)
    print(f"# floor_lab {time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.2f}")
    with web.chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            for r in range(args.rounds):
                names = list(servers)
                for name in names if r % 2 == 0 else names[::-1]:
                    url = servers[name][1]
                    if name == lab.name:
                        got = clicks(page, url, lab, args.steps)
                    elif name.startswith("floor"):
                        got = _times(page, url, floor_arm, FLOOR_CELLS, args.steps)
                    else:
                        got = _times(page, url, head_arm, CHART, args.steps)
                    samples[name] += got
                    print(f"  round {r + 1} {name}: {statistics.median(got):.0f} ms", flush=True)
        finally:
            page.close()
            for proc, _ in servers.values():
                proc.terminate()
                proc.wait(timeout=10)
    print(f"# done {time.strftime('%H:%M')}, load {os.getloadavg()[0]:.2f}")
    print(ratio_table(samples))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
