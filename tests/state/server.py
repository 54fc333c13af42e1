"""A ``streamlit run app.py`` of one checkout, on a free loopback port, over its own SQLite
store (``LIVE_STORE``), stopped by its own process handle; its log is kept for messages."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]


class Server:
    def __init__(self, store: str, root: Path = ROOT) -> None:
        self.store, self.root, self.port = store, root, free_port()
        self.log = tempfile.TemporaryFile(prefix="state-server-")  # noqa: SIM115 (closed in stop)
        env = {**os.environ, "LIVE_STORE": store, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
             "--server.port", str(self.port), "--server.address", "127.0.0.1",
             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
             "--runner.postScriptGC", "false"],
            cwd=root, stdout=self.log, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=1) as r:
                    if r.read().strip() == b"ok":
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"streamlit did not become healthy in 60 s:\n{self.output()}")

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        text = self.log.read().decode(errors="replace")
        self.log.seek(0, os.SEEK_END)
        return text

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
