"""A class arriving at a server that has just started (issue 21): first pages on a cold process.

    python -m bench.load.cold_start --runs 3                      # this checkout
    python -m bench.load.cold_start --root ../before --root . --runs 3   # alternated, paired

Each run starts ``make run``'s command (``python serve.py``: ``streamlit run app.py``
warmed up; or ``streamlit run app.py`` in a checkout without it; MALLOC_ARENA_MAX=2) on a
free loopback port, waits for ``/_stcore/health`` to answer, and at that moment lets a
class of ``--sessions`` students arrive within ``--arrival`` seconds, driven by
bench/load/ at Streamlit's protocol, with no warm-up by the driver: the first students
pay whatever the server has not done yet. Reported per run: the time to health, the
first pages (p50, p95, max, and the worst of the first five to finish), the clicks' p95
and the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench import load
from bench.common.browser import ROOT, free_port
from bench.load.seats import Options


def start(root: Path) -> tuple[subprocess.Popen, str, float]:
    """make run's command in ``root``; returns the process, its URL and seconds to health."""
    port = free_port()
    t0 = time.monotonic()
    # make run's command: serve.py where the checkout has it (the warm-up), else as before
    entry = ["serve.py"] if (root / "serve.py").is_file() else ["-m", "streamlit", "run", "app.py"]
    proc = subprocess.Popen(
        [sys.executable, *entry, "--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=root, env={**os.environ, "MALLOC_ARENA_MAX": "2"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    while time.monotonic() - t0 < 120:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                if r.read().strip() == b"ok":
                    return proc, url, time.monotonic() - t0
        except OSError:
            time.sleep(0.02)
    proc.kill()
    raise RuntimeError(f"no health from {root} in 120 s")


def one_run(root: Path, sessions: int, arrival: float, duration: float, seed: int) -> dict:
    proc, url, to_health = start(root)
    try:
        opts = Options(url=url, sessions=sessions, arrival=arrival, think=(2.0, 8.0),
                       duration=duration, warmup=False, seed=seed)  # fmt: skip
        before = os.getloadavg()
        stats = asyncio.run(load.run_class(opts))
        s = load.summary(stats, opts, before)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    first = s["first_page_s"]
    return {
        "root": str(root),
        "to_health_s": round(to_health, 2),
        "errors": s["errors"],
        "leaks": s["leaks"],
        "first_n": first["n"],
        "first_p50": round(first["p50"], 3),
        "first_p95": round(first["p95"], 3),
        "first_max": round(first["max"], 3),
        "first_five_done_max": round(max(stats.first_page[:5]), 3),
        "clicks_p95": round(s["clicks_s"]["p95"], 3),
        "loadavg_before": [round(x, 2) for x in before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.load.cold_start", description=__doc__)
    ap.add_argument("--root", action="append", type=Path, help="a checkout (repeat to pair)")
    ap.add_argument("--runs", type=int, default=3, help="runs per root, alternated")
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--arrival", type=float, default=10.0)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--json", dest="json_out")
    a = ap.parse_args(argv)
    roots = [r.resolve() for r in a.root] if a.root else [ROOT]
    out = []
    for i in range(a.runs):
        for root in roots:
            r = one_run(root, a.sessions, a.arrival, a.duration, seed=i)
            print(json.dumps(r), flush=True)
            out.append(r)
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
