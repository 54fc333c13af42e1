"""Plain helpers for the browser tests: start a server, wait for Streamlit, screenshot, console.

Import them in any tests/e2e test module with ``from helpers import wait_idle, shot, ...``
(tests/e2e has no ``__init__.py``, so pytest puts this folder on ``sys.path``). The
fixtures in ``conftest.py`` are built from these; see its docstring for the overview.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from playwright.sync_api import ConsoleMessage, Error, Locator, Page

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS_DIR = REPO_ROOT / "test-artifacts"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
VIEWPORT = {"width": 1400, "height": 1000}
NO_CHROMIUM = "no chromium: apt-get install -y chromium"

# Streamlit 1.67 DOM (see /work/shared/notes/streamlit-on-this-machine.md, section 4)
APP = "[data-testid='stApp']"
IDLE = (
    "[data-testid='stApp'][data-test-script-state='notRunning']"
    "[data-test-connection-state='CONNECTED']"
)
SPINNER = "[data-testid='stSpinner']"
EXCEPTION = "[data-testid='stException']"
ALERT = "[data-testid='stAlert']"
SIDEBAR = "[data-testid='stSidebar']"
NAV_LINK = "[data-testid='stSidebarNavLink']"
NAV_SECTION = "[data-testid='stNavSectionHeader']"
MAIN = "[data-testid='stMain']"

SERVER_START_TIMEOUT = 30.0


# ---- finding a browser -------------------------------------------------------------
def find_chromium() -> str | None:
    """$CHROMIUM_PATH, else /usr/bin/chromium, else ``chromium`` on PATH; None if none exists."""
    env = os.environ.get("CHROMIUM_PATH")
    if env:
        return env if Path(env).is_file() else None
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    return shutil.which("chromium")


# ---- the Streamlit server ----------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerStartError(RuntimeError):
    """The server did not answer /_stcore/health in time; the message holds its output."""


@dataclass
class StreamlitServer:
    """One ``streamlit run app.py`` process on a free port, owned through its Popen handle.

    ``url`` is the base URL without a trailing slash (``http://127.0.0.1:PORT``);
    ``startup_seconds`` is how long it took to answer ``/_stcore/health``.
    """

    app: str = "app.py"
    cwd: Path = REPO_ROOT
    extra_args: tuple[str, ...] = ()
    port: int = 0
    proc: subprocess.Popen | None = None
    startup_seconds: float = 0.0
    _log: IO[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "streamlit", "run", self.app,
            "--server.headless", "true",
            "--server.port", str(self.port),
            "--server.address", "127.0.0.1",
            "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none",
            *self.extra_args,
        ]  # fmt: skip

    def start(self, timeout: float = SERVER_START_TIMEOUT) -> StreamlitServer:
        """Start and wait until healthy; retry once on a port clash; raise ServerStartError."""
        for attempt in range(3):
            self.port = free_port()
            self._log = tempfile.TemporaryFile(prefix="streamlit-e2e-")
            t0 = time.perf_counter()
            self.proc = subprocess.Popen(
                self.command(),
                cwd=self.cwd,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
            try:
                self._wait_healthy(timeout)
            except ServerStartError:
                output = self.output()
                self.stop()
                if "already in use" in output and attempt < 2:
                    continue
                raise
            self.startup_seconds = time.perf_counter() - t0
            return self
        raise AssertionError("unreachable")

    def _wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        last_error = ""
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise ServerStartError(
                    f"streamlit exited with code {self.proc.returncode} before it was healthy.\n"
                    f"--- server output ---\n{self.output()}"
                )
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=1) as r:
                    if r.status == 200 and r.read().strip() == b"ok":
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
                last_error = str(exc)
            time.sleep(0.05)
        raise ServerStartError(
            f"streamlit did not answer {self.url}/_stcore/health within {timeout:.0f} s "
            f"(last error: {last_error}).\n--- server output ---\n{self.output()}"
        )

    def output(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        if self._log is None or self._log.closed:
            return ""
        self._log.flush()
        self._log.seek(0)
        text = self._log.read().decode(errors="replace")
        self._log.seek(0, os.SEEK_END)
        return text

    def stop(self) -> None:
        """SIGTERM our own process, wait for it (kill after 10 s); safe to call twice."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self._log is not None:
            self._log.close()

    def __enter__(self) -> StreamlitServer:
        return self.start() if self.proc is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# ---- waiting for Streamlit -----------------------------------------------------------
def wait_idle(page: Page, timeout: float = 20_000, settle_ms: int = 200) -> None:
    """Wait until the script is not running, the socket is connected and no spinner shows.

    A short ``settle_ms`` pause then lets queued reruns start (after a widget change the
    run flag can still read notRunning for a moment), and the check runs again.
    """
    for _ in range(2):
        page.wait_for_selector(IDLE, timeout=timeout)
        page.wait_for_function(f'!document.querySelector("{SPINNER}")', timeout=timeout, polling=50)
        page.wait_for_timeout(settle_ms)
    page.wait_for_selector(IDLE, timeout=timeout)


def goto(page: Page, url: str, timeout: float = 30_000) -> None:
    """Open ``url`` (absolute, or relative to the context's base_url) and wait for the page.

    Waits for idle *and* for an h1 or an exception in the main area, so the first script
    run has really rendered something (the run flag reads notRunning before the first run).
    """
    page.goto(url, timeout=timeout)
    page.wait_for_selector(
        f"{MAIN} h1, {EXCEPTION}, {MAIN} :text('Page not found')", timeout=timeout
    )
    wait_idle(page, timeout=timeout)


def h1_text(page: Page) -> str:
    return page.locator(f"{MAIN} h1").first.inner_text().strip()


def sidebar_sections(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(f"{SIDEBAR} {NAV_SECTION}").all_inner_texts()]


def sidebar_links(page: Page) -> list[str]:
    """The visible text of every sidebar nav link, in order."""
    return [t.strip() for t in page.locator(f"{SIDEBAR} {NAV_LINK}").all_inner_texts()]


def nav_link(page: Page, title: str) -> Locator:
    """The sidebar link whose text is exactly ``title``."""
    return page.locator(f"{SIDEBAR} {NAV_LINK}").filter(
        has_text=re.compile(rf"^\s*{re.escape(title)}\s*$")
    )


# ---- screenshots ---------------------------------------------------------------------
def shot(page: Page, name: str, full: bool = True) -> Path:
    """Save a screenshot to ``<repo>/test-artifacts/<name>.png`` and return its path.

    Streamlit scrolls inside its main area, so Playwright's ``full_page`` alone shows only
    the viewport. With ``full=True`` the viewport is stretched to the content's height
    for the shot (capped at 8000 px) and restored afterwards.
    """
    ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS_DIR / f"{name}.png"
    size = page.viewport_size
    height = 0
    if full and size:
        height = page.evaluate(
            """(sel) => Math.max(...[...document.querySelectorAll(sel)]
                   .map(e => e.scrollHeight), document.documentElement.scrollHeight)""",
            f"{MAIN}, [data-testid='stAppViewContainer'], {SIDEBAR} > div",
        )
    if size and height > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": min(int(height) + 40, 8000)})
        page.wait_for_timeout(300)
        try:
            page.screenshot(path=str(path), full_page=True)
        finally:
            page.set_viewport_size(size)
    else:
        page.screenshot(path=str(path), full_page=True)
    return path


# ---- console errors --------------------------------------------------------------------
# Benign: a deep link like /softmax makes the frontend probe /softmax/_stcore/health and
# /softmax/_stcore/host-config to find the base path; both answer 404.
BENIGN_CONSOLE = [
    re.compile(r"/[^/?#]+/_stcore/(health|host-config)(\?.*)?$"),
]


@dataclass
class ConsoleEntry:
    kind: str  # "console" or "pageerror"
    text: str
    url: str = ""

    def __str__(self) -> str:
        return f"[{self.kind}] {self.text}" + (f" @ {self.url}" if self.url else "")


def is_benign(entry: ConsoleEntry) -> bool:
    """True for the known harmless 404s (their "Failed to load resource" line names the URL
    only in the message location, so both the text and the URL are checked)."""
    if entry.kind != "console":
        return False
    return any(p.search(entry.url) or p.search(entry.text) for p in BENIGN_CONSOLE)


@dataclass
class ConsoleLog:
    """Console errors and uncaught page errors of one or more pages (see ``watch``)."""

    entries: list[ConsoleEntry] = field(default_factory=list)

    def watch(self, page: Page) -> Page:
        """Collect ``console`` messages of type error and ``pageerror`` events from ``page``."""
        page.on("console", self._on_console)
        page.on("pageerror", self._on_pageerror)
        return page

    def _on_console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            url = (msg.location or {}).get("url", "")
            self.entries.append(ConsoleEntry("console", msg.text, url))

    def _on_pageerror(self, exc: Error) -> None:
        self.entries.append(ConsoleEntry("pageerror", f"{exc.name}: {exc.message}"))

    @property
    def errors(self) -> list[ConsoleEntry]:
        """Entries that are not whitelisted."""
        return [e for e in self.entries if not is_benign(e)]

    @property
    def benign(self) -> list[ConsoleEntry]:
        return [e for e in self.entries if is_benign(e)]

    def clear(self) -> None:
        self.entries.clear()

    def assert_clean(self, where: str = "") -> None:
        bad = self.errors
        assert not bad, f"console errors{' on ' + where if where else ''}:\n" + "\n".join(
            map(str, bad)
        )
