"""`make classroom`: two Streamlit processes behind nginx, a websocket class through it, Ctrl-C.

Marked e2e (real servers, about 20 s); skipped with the install command when nginx is
missing. Uses free ports, and two processes whatever the core count, so it runs the same
on any machine. One classroom for the module: the headers test reads it, the class test
then stops it with Ctrl-C (so it runs last).
"""

from __future__ import annotations

import gzip
import os
import secrets
import signal
import time
import urllib.request
from collections.abc import Iterator

import pytest
from classroom_server import ROOT, Classroom, free, group_alive, healthy, start_classroom
from off_loop import run_load

from bench import load
from deploy.precompress import frontend_dir

pytestmark = [pytest.mark.e2e, pytest.mark.serial]  # serial: a load test, run alone


@pytest.fixture(scope="module")
def classroom() -> Iterator[Classroom]:
    with start_classroom() as room:
        yield room


def _get(url: str, gzip_ok: bool = True) -> tuple[dict[str, str], bytes]:
    headers = {"Accept-Encoding": "gzip"} if gzip_ok else {}  # urllib never decompresses
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
        return {k.lower(): v for k, v in r.headers.items()}, r.read()


def test_frontend_files_are_gzipped_and_cached_but_live_rooms_are_not(
    classroom: Classroom,
) -> None:
    # the biggest file of a first load: Plotly's chunk, 4.7 MB (bench/RESULTS.md)
    plotly = max(frontend_dir().glob("js/PlotlyChart.*.js"), key=lambda p: p.stat().st_size)
    url = f"{classroom.url}/static/js/{plotly.name}"
    headers, body = _get(url)
    assert headers.get("content-encoding") == "gzip", headers
    assert gzip.decompress(body) == plotly.read_bytes()
    assert len(body) < plotly.stat().st_size // 2
    cache = headers.get("cache-control", "")
    assert "immutable" in cache and "max-age=31536000" in cache, cache
    assert "accept-encoding" in headers.get("vary", "").lower()
    # a client that does not take gzip gets the file itself
    headers, body = _get(url, gzip_ok=False)
    assert "content-encoding" not in headers and body == plotly.read_bytes()

    # the page names the current hashes: never kept
    headers, _ = _get(f"{classroom.url}/scores")
    assert "immutable" not in headers.get("cache-control", ""), headers
    assert headers.get("content-encoding") == "gzip", headers

    # a live room's version file, fetched by every follower each second: never cached
    live = ROOT / "static" / "live"
    live.mkdir(parents=True, exist_ok=True)
    room = live / f"T{secrets.token_hex(4).upper()}"
    room.write_text("41")
    try:
        headers, body = _get(f"{classroom.url}/app/static/live/{room.name}")
    finally:
        room.unlink()
    assert body == b"41"
    assert headers.get("cache-control") == "no-store", headers


def test_classroom_serves_websocket_sessions_and_stops_on_ctrl_c(classroom: Classroom) -> None:
    # the backends answer only on loopback, the proxy on its own port
    assert all(healthy(f"http://127.0.0.1:{p}") for p in classroom.backend_ports)

    opts = load.Options(
        url=classroom.url,
        sessions=6,
        arrival=1.0,
        think=(0.3, 0.6),
        duration=4.0,
        server_ports=classroom.backend_ports,
        warmup=False,
    )
    summary, stats = run_load(opts)
    assert summary["errors"] == 0, stats.errors
    assert summary["leaks"] == 0, stats.leaks
    assert summary["first_page_s"]["n"] == 6
    assert summary["page_switches_s"]["n"] + summary["reruns_s"]["n"] > 0
    assert summary["server_rss_mb"]["peak"] > 50  # found both Streamlit processes' memory

    os.killpg(classroom.proc.pid, signal.SIGINT)  # Ctrl-C
    out, _ = classroom.proc.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while group_alive(classroom.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not group_alive(classroom.proc.pid), f"processes left behind:\n{out}"
    assert "stopped" in out, out
    for port in (int(classroom.url.rsplit(":", 1)[1]), *classroom.backend_ports):
        assert free(port), f"port {port} still in use"
