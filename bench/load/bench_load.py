"""A short class at the websocket protocol (bench/load/) against `make run`'s command.

10 students arriving within 5 s, clicking every 1-3 s for 20 s, on a fresh server that
reads .streamlit/config.toml like `make run` does. The full classes (40 and 120) and the
soak are run by hand; see bench/RESULTS.md.
"""

from __future__ import annotations

import argparse

from bench import Result, load
from bench.common.browser import start_server

SESSIONS = 10
DURATION = 20.0


def run(args: argparse.Namespace) -> list[Result]:
    if getattr(args, "no_load", False):
        return []
    proc, url = start_server("app.py")  # the settings of .streamlit/config.toml, as make run
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
