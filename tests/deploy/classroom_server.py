"""`make classroom` for the deploy tests: two Streamlit processes behind nginx on free ports.

``start_classroom(host, env)`` starts one (a context manager: it is SIGKILLed at the end
unless the test stopped it with Ctrl-C itself).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from netns import Netns

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 2
START_TIMEOUT = 180.0  # two processes and their warm-up on a loaded 2-core machine


def nginx() -> str | None:
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")


def free(port: int) -> bool:
    """Nothing listens on ``port`` (closed connections in TIME_WAIT do not count: the
    servers, like this check, bind with SO_REUSEADDR)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            first = s.getsockname()[1]
        if first + count < 65_000 and all(free(first + i) for i in range(count)):
            return first
    raise RuntimeError("no run of free ports")


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
            return r.read().strip() == b"ok"
    except OSError:
        return False


@dataclass
class Classroom:
    proc: subprocess.Popen
    url: str
    backend_ports: list[int]

    def output(self) -> str:
        return self.proc.stdout.read() if self.proc.stdout and self.proc.poll() is not None else ""


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@contextlib.contextmanager
def start_classroom(host: str = "127.0.0.1", extra: dict[str, str] | None = None,
                    netns: Netns | None = None) -> Iterator[Classroom]:  # fmt: skip
    """``make classroom`` listening on ``host``; its ``url`` is on loopback, or, run inside
    ``netns`` (tests/deploy/netns.py), on the namespace's address."""
    if nginx() is None:
        pytest.skip("no nginx: apt-get install -y nginx")
    port = free_ports(WORKERS + 1)
    env = {
        **os.environ,
        "WORKERS": str(WORKERS),
        "HOST": host,
        "BACKEND_PORT": str(port + 1),
        "FRONTEND_ZOPFLI": "0",  # its 35 s of CPU would only slow the rest of CI
        **(extra or {}),
    }
    command = ["make", "classroom", f"PORT={port}"]
    proc = subprocess.Popen(
        netns.run(command) if netns else command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, like a terminal's foreground job
        # A terminal delivers Ctrl-C to a shell that has SIGINT at its default; a runner
        # that started pytest in the background may have it ignored, and bash cannot trap
        # a signal ignored on entry.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    reach = netns.address if netns else "127.0.0.1"
    room = Classroom(proc, f"http://{reach}:{port}", [port + 1 + i for i in range(WORKERS)])
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not healthy(room.url):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"make classroom did not serve {room.url}:\n{room.output()}")
            time.sleep(0.3)
        yield room
    finally:
        if group_alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)  # only if the test failed before Ctrl-C
        proc.wait(timeout=30)
