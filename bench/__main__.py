"""Run every benchmark: ``python -m bench`` (``--no-browser`` skips Chromium, ``--no-load``
the short websocket load test)."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import platform
import sys
from datetime import datetime
from pathlib import Path

import numpy as np

from bench import HEADER

ROOT = Path(__file__).resolve().parents[1]
ROOMS = ("compute", "pages", "load")  # the rooms whose ``bench_*`` modules ``python -m bench`` runs


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--no-browser", action="store_true", help="skip browser timings")
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--no-load", action="store_true", help="skip the 20 s load test")
    args = parser.parse_args()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    load = os.getloadavg()
    print(f"# bench run {datetime.now():%Y-%m-%d %H:%M}")
    loads = " / ".join(f"{x:.2f}" for x in load)
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, "
          f"{os.cpu_count()} cores, load average {loads}\n")  # fmt: skip
    print(HEADER)
    for name in modules():
        module = importlib.import_module(name)
        if not hasattr(module, "run"):  # a command of its own (bench_ask: python -m ...)
            continue
        for result in module.run(args):
            print(result.row(), flush=True)
    return 0


def modules() -> list[str]:
    """Every ``bench_*`` module of the rooms (bench/README.md), room by room."""
    found = []
    for room in ROOMS:
        path = [str(ROOT / "bench" / room)]
        found += [f"bench.{room}.{m.name}" for m in pkgutil.iter_modules(path)
                  if m.name.startswith("bench_")]  # fmt: skip
    return found


if __name__ == "__main__":
    raise SystemExit(main())
