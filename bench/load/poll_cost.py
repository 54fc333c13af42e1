"""What a following phone's poll costs the Streamlit process (issue 45, item 8): the room's
version as a watch file through Streamlit's static serving (what a container behind nginx
serves today: /app/static/live/CODE), against the same number from memory through a route
of st.App (Streamlit 1.67's public `st.App(script, routes=...)`), which would drop the
watch files and the writable static/live they need. Under `make classroom` nginx reads the
watch files itself: those polls cost the Streamlit processes nothing at all.

    .venv/bin/python -m bench.load.poll_cost [--requests 3000] [--rounds 3]

One st.App process serves both, on a free loopback port, with a one-line script; the
client polls from 40 connections at once, each kept alive (as a phone's is), and the
server's CPU time is read from /proc before and after each batch. Prints CPU ms per poll,
each way, per round.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.common.browser import free_port
from bench.load.seats import cpu_seconds

PHONES = 40  # connections polling at once, each kept alive (a phone's)
LAUNCHER = """
import sys
import streamlit as st
from starlette.responses import PlainTextResponse
from starlette.routing import Route

VERSIONS = {"ROOM1": 41}  # what the hub keeps in memory for the rooms it watches

async def version(request):
    return PlainTextResponse(str(VERSIONS.get(request.path_params["code"], "")),
                             headers={"Cache-Control": "no-store"})

app = st.App("script.py", routes=[Route("/live/{code}", version)])
if __name__ == "__main__":
    sys.argv = sys.argv[:1]
    app.run(config={"server.port": PORT, "server.address": "127.0.0.1",
                    "server.headless": True, "server.enableStaticServing": True,
                    "browser.gatherUsageStats": False})
"""


def batch(port: int, path: str, n: int, phones: int = 1) -> None:
    """``n`` polls of ``path`` from ``phones`` kept-alive connections at once."""
    if phones > 1:
        with ThreadPoolExecutor(phones) as pool:
            list(pool.map(lambda _: batch(port, path, n // phones), range(phones)))
        return
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.connect()
    # no Nagle: a request in two writes otherwise waits for a delayed ACK (40 ms a poll)
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for _ in range(n):
        conn.request("GET", path)
        body = conn.getresponse().read()
        assert body == b"41", (path, body)
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "script.py").write_text("import streamlit as st\nst.write('floor')\n")
        (root / "static" / "live").mkdir(parents=True)
        (root / "static" / "live" / "ROOM1").write_text("41")
        (root / "serve.py").write_text(LAUNCHER.replace("PORT", str(port)))
        proc = subprocess.Popen([sys.executable, "serve.py"], cwd=root,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    batch(port, "/live/ROOM1", 1)
                    break
                except (OSError, AssertionError):
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            ways = {"watch file, Streamlit's static serving": "/app/static/live/ROOM1",
                    "memory, an st.App route": "/live/ROOM1"}  # fmt: skip
            for path in ways.values():
                batch(port, path, 200)  # warm
            got: dict[str, list[float]] = {name: [] for name in ways}
            for _ in range(args.rounds):
                for name, path in ways.items():  # interleaved: fair to both
                    cpu0, t0 = cpu_seconds([proc.pid]), time.perf_counter()
                    batch(port, path, args.requests, PHONES)
                    wall = time.perf_counter() - t0
                    cpu = cpu_seconds([proc.pid]) - cpu0
                    got[name].append(cpu * 1000 / args.requests)
                    print(f"{name}: {cpu * 1000 / args.requests:.3f} ms CPU per poll "
                          f"({wall * 1000 / args.requests:.3f} ms wall)")  # fmt: skip
            print(f"\nload average {os.getloadavg()[0]:.1f}; medians of {args.rounds} rounds "
                  f"of {args.requests} polls:")  # fmt: skip
            for name, values in got.items():
                print(f"| {name} | {statistics.median(values):.3f} ms |")
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
