"""What a lab's pick can cost at best: the floor's toggle in a fragment, with and without a
lab page's worth of elements around it, against the floor itself (same run, one Chromium).

    python -m bench.pages.floor_fragment [--rounds 2] [--steps 6] [--extra 45]

Cases: the floor (bench/floors/floor_app.py: a full rerun of a one-heatmap page); the same toggle
and heatmap in an st.fragment alone; in a fragment beside ``--extra`` static elements; and a
full rerun of the page with those elements (bench/floors/floor_fragment_app.py).
"""

from __future__ import annotations

import argparse
import os
import statistics

from bench.common.browser import CHROMIUM_ARGS, FLOOR_APP, find_chromium, serving
from bench.common.interact import measure

TOGGLE, WATCH = ".st-key-floor_toggle input", ".st-key-floor_heatmap .heatmap-label"


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--steps", type=int, default=6)
    p.add_argument("--extra", type=int, default=45)
    args = p.parse_args(argv)
    cases = {
        "floor: toggle -> 6x6 heatmap (full rerun, nothing else)": (FLOOR_APP, 0, ""),
        "the same in a fragment, alone": ("bench/floors/floor_fragment_app.py", 0, ""),
        f"in a fragment, {args.extra} static elements outside": (
            "bench/floors/floor_fragment_app.py", args.extra, ""),
        f"full rerun, {args.extra} static elements": (
            "bench/floors/floor_fragment_app.py", args.extra, "1"),
    }  # fmt: skip
    samples: dict[str, list[float]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        for r in range(args.rounds):
            order = list(cases.items()) if r % 2 == 0 else list(reversed(cases.items()))
            for name, (script, extra, full) in order:
                os.environ["FLOOR_EXTRA"], os.environ["FLOOR_FULL"] = str(extra), full
                with serving(script) as url:  # its server inherits them
                    page = browser.new_page(viewport={"width": 1400, "height": 1000})
                    samples.setdefault(name, []).extend(
                        measure(page, url + "/", TOGGLE, "Space", WATCH, args.steps)
                    )
                    page.close()
        browser.close()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.rounds} rounds of {args.steps}")
    print(ratio_table(samples))
    return 0


def ratio_table(samples: dict[str, list[float]]) -> str:
    """A Markdown table of each case's median, min and ratio to the first case (the floor)."""
    floor = statistics.median(next(iter(samples.values())))
    lines = ["| case | median ms | min ms | x floor |", "|---|---|---|---|"]
    for name, got in samples.items():
        m = statistics.median(got)
        lines.append(f"| {name} | {m:.0f} | {min(got):.0f} | **{m / floor:.2f}x** (n={len(got)}) |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
