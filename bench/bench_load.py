"""A short class at the websocket protocol (bench/load.py) against `make run`'s command.

10 students arriving within 5 s, clicking every 1-3 s for 20 s, on a fresh server that
reads .streamlit/config.toml like `make run` does. The full classes (40 and 120) and the
soak are run by hand; see bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import urllib.request

from bench import Result, load
from bench.browser import ROOT, _free_port

SESSIONS = 10
DURATION = 20.0


def run(args: argparse.Namespace) -> list[Result]:
    if getattr(args, "no_load", False):
        return []
    proc, url = _start()
    try:
        opts = load.Options(url=url, sessions=SESSIONS, arrival=5.0, think=(1.0, 3.0),
                            duration=DURATION, pids=[proc.pid])  # fmt: skip
        summary, stats = load.run(opts)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    first = [1000 * x for x in stats.first_page] or [float("nan")]
    clicks = [1000 * x for x in stats.clicks] or [float("nan")]
    rss = summary["server_rss_mb"]
    cpu = summary["server_cpu_ms_per_run"]
    return [
        Result(f"load: first page, {SESSIONS} students", first,
               f"p95 {_p95(first):.0f} ms; errors {summary['errors']}, leaks {summary['leaks']}"),
        Result(f"load: clicks, {SESSIONS} students", clicks,
               f"p95 {_p95(clicks):.0f} ms; server {cpu:.0f} ms CPU/run, RSS {rss['end']:.0f} MB"),
    ]  # fmt: skip


def _p95(samples: list[float]) -> float:
    return load.percentile(samples, 95)


def _start() -> tuple[subprocess.Popen, str]:
    """`make run`'s command on a free loopback port (settings from .streamlit/config.toml)."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                if r.read().strip() == b"ok":
                    return proc, url
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    proc.wait(timeout=10)
    raise RuntimeError("streamlit did not become healthy in 60 s")
