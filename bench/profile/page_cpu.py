"""CPU time of one AppTest rerun of every page, at the default scenario and at 64 tokens.

``python -m bench.profile.page_cpu [--root DIR ...]`` measures each checkout in its own process,
one after the other, so a before/after pair shares the machine's load. CPU time
(``time.process_time``) rather than wall time: the machine is shared, and a rerun is pure
Python in this process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from bench import cpu_timed

ROOT = Path(__file__).resolve().parents[2]
BIG_TOKENS = 64


def big_scenario_url() -> str:
    """A random scenario with BIG_TOKENS tokens and d_model = d_k = d_v = 8, as ``?s=``."""
    from attention_core.presets import random_scenario

    return random_scenario(seed=7, n_tokens=BIG_TOKENS, d_model=8, d_k=8, d_v=8).to_url()


def page_samples(root: Path, repeats: int) -> Iterator[tuple[str, str, list[float]]]:
    """(scenario label, page title, CPU ms per rerun) for every page of the app in ``root``.

    Scenario labels: "default" and str(BIG_TOKENS) (a random scenario of that many tokens).
    """
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from streamlit.testing.v1 import AppTest

    from attention_ui.frame.pages import ALL_PAGES

    for label, query in (("default", {}), (str(BIG_TOKENS), {"s": big_scenario_url()})):
        at = AppTest.from_file(str(root / "app.py"), default_timeout=120)
        for k, v in query.items():
            at.query_params[k] = v
        at.run()
        for spec in ALL_PAGES:
            at.switch_page(spec.path).run()
            samples = cpu_timed(at.run, repeats)
            assert not at.exception, (spec.key, [e.value for e in at.exception])
            yield label, spec.title, samples


def measure(root: Path, repeats: int) -> dict[str, dict[str, float]]:
    """{page title: {"default": median ms, "64": median ms}} for the app in ``root``."""
    out: dict[str, dict[str, float]] = {}
    for label, title, samples in page_samples(root, repeats):
        out.setdefault(title, {})[label] = statistics.median(samples)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", action="append", type=Path, help="checkouts to compare")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    roots = args.root or [ROOT]
    if args.child:
        print(json.dumps(measure(roots[0], args.repeats)))
        return 0
    results = []
    for root in roots:
        cmd = [sys.executable, "-m", "bench.profile.page_cpu", "--child", "--root", str(root),
               "--repeats", str(args.repeats)]  # fmt: skip
        done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    names = [r.name for r in roots]
    print("| page | " + " | ".join(f"{n} default | {n} {BIG_TOKENS} tokens" for n in names) + " |")
    print("|---" * (1 + 2 * len(roots)) + "|")
    for title in results[0]:
        cells = [f"{r[title]['default']:.1f} | {r[title][str(BIG_TOKENS)]:.1f}" for r in results]
        print(f"| {title} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
