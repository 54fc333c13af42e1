"""Debian's redis-server for the tests: started on a free loopback port, stopped by its pid."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.ports import free_port

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


class RedisServer:
    """``redis-server`` on 127.0.0.1:port; stop() and start() again. ``durable``: it keeps its
    data across a stop (an append-only file, as Debian's does), for a store's outage;
    otherwise no persistence."""

    def __init__(self, folder: Path, durable: bool = False) -> None:
        self.port = free_port()
        self.folder = folder
        self.durable = durable
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        keep = ["--appendonly", "yes", "--appendfsync", "always"] if self.durable else [
            "--appendonly", "no"]  # fmt: skip
        args = [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", *keep,
                "--dir", str(self.folder)]  # fmt: skip
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait()

    def _wait(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not answer PING in 10 s")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None


def need_redis() -> None:
    if not Path(REDIS).is_file():
        if os.environ.get("CI"):
            pytest.fail("CI must run the Redis tests: .ci/run installs redis-server")
        pytest.skip("no redis-server: apt-get install -y redis-server")
