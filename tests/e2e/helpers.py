"""Plain helpers for the browser tests: start a server, wait for Streamlit, screenshot, console.

Import them in any tests/e2e test module with ``from helpers import wait_idle, shot, ...``
(tests/e2e has no ``__init__.py``, so pytest puts this folder on ``sys.path``). The
fixtures in ``conftest.py`` are built from these; see its docstring for the overview.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
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
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.ports import free_port

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
# The sidebar menu is the app's own (attention_ui.frame.menu, one component): page links that
# carry ?s= along, under one header per section.
NAV_LINK = ".st-key-nav a"
NAV_SECTION = ".st-key-nav .al-section"
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
            # the log must outlive this call: it is closed in stop()
            self._log = tempfile.TemporaryFile(prefix="streamlit-e2e-")  # noqa: SIM115
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

    def terminate(self) -> None:
        """Send SIGTERM to our own process without waiting (``stop`` waits)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()

    def stop(self) -> None:
        """SIGTERM our own process, wait for it (kill after 10 s); safe to call twice."""
        self.terminate()
        if self.proc is not None:
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


class ServerReaper:
    """Servers that got SIGTERM and still have to be waited for (``close`` waits).

    A Streamlit server needs ≈0.5 s to exit; waiting for each at the end of the session
    instead of after each test keeps that out of every fresh-server test.
    """

    def __init__(self) -> None:
        self._retired: list[StreamlitServer] = []

    def retire(self, server: StreamlitServer) -> None:
        server.terminate()
        self._retired.append(server)

    def close(self) -> None:
        for server in self._retired:
            server.stop()
        self._retired.clear()


# ---- waiting for Streamlit -----------------------------------------------------------
SKELETON = "[data-testid='stSkeleton']"
PLOTLY = "[data-testid='stPlotlyChart']"

# Why the app is not settled yet, or "" when it is. Besides the run flag: elements whose
# code is still loading show as stSkeleton (the script can be done while most of the
# page is still skeletons), and a Plotly chart is drawn (.main-svg) a moment after it
# arrives.
_BUSY_JS = f"""() => {{
  if (!document.querySelector("{IDLE}")) return "script running or not connected";
  if (document.querySelector("{SPINNER}")) return "a spinner is showing";
  const skeletons = document.querySelectorAll("{SKELETON}").length;
  if (skeletons) return skeletons + " element(s) still loading (stSkeleton)";
  const undrawn = [...document.querySelectorAll("{PLOTLY}")]
    .filter(e => !e.querySelector(".main-svg")).length;
  if (undrawn) return undrawn + " Plotly chart(s) not drawn yet";
  return "";
}}"""
_SETTLED_JS = f"""([settle, key]) => {{
  const seen = window.__e2eIdleSince || (window.__e2eIdleSince = {{}});
  if (({_BUSY_JS})()) {{ delete seen[key]; return false; }}
  if (!(key in seen)) seen[key] = performance.now();
  return performance.now() - seen[key] >= settle;
}}"""
_idle_calls = itertools.count()


def busy_reason(page: Page) -> str:
    """Why ``wait_idle`` would still wait ("" when the app looks settled)."""
    return page.evaluate(_BUSY_JS)


def wait_idle(page: Page, timeout: float = 30_000, settle_ms: int = 250) -> None:
    """Wait until the app has settled, continuously for ``settle_ms`` (checked every 50 ms
    in the page): ``stApp`` says notRunning and CONNECTED, no ``stSpinner``, no
    ``stSkeleton`` (lazily loaded elements), and every Plotly chart drawn.

    The settle time covers the moment after a widget change or a click when a rerun is
    queued but the run flag still reads notRunning.
    """
    try:
        page.wait_for_function(
            _SETTLED_JS, arg=[settle_ms, next(_idle_calls)], timeout=timeout, polling=50
        )
    except PlaywrightTimeoutError:
        raise AssertionError(
            f"the app did not settle within {timeout / 1000:.0f} s: {busy_reason(page)}"
        ) from None


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


def _texts(page: Page, selector: str) -> list[str]:
    # text_content, not inner_text: it also works while the sidebar is hidden by CSS, and
    # reading the markdown container leaves out the material icons' ligature names
    # ("expand_more").
    return [(t or "").strip() for t in page.locator(selector).all_text_contents()]


def sidebar_sections(page: Page) -> list[str]:
    """The sidebar nav's section headers, in order (whether or not the sidebar is shown)."""
    return _texts(page, f"{SIDEBAR} {NAV_SECTION}")


def sidebar_links(page: Page) -> list[str]:
    """The text of every sidebar nav link, in order (whether or not the sidebar is shown)."""
    return _texts(page, f"{SIDEBAR} {NAV_LINK}")


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


def decode_qr(png: Path) -> str:
    """The text of the QR code in a screenshot, read by zbarimg (Debian's zbar-tools)."""
    import pytest

    zbar = shutil.which("zbarimg")
    if zbar is None:
        pytest.fail("no zbarimg: apt-get install -y zbar-tools (.ci/run installs it)")
    out = subprocess.run([zbar, "--quiet", "--raw", str(png)], capture_output=True, text=True,
                         timeout=30)  # fmt: skip
    assert out.returncode == 0, f"no QR code in {png}: {out.stderr}"
    return out.stdout.strip()


# Every text of every chart in the main area, by chart, with its box; then the pairs of one
# chart whose boxes overlap by more than a pixel each way.
CHART_OVERLAPS = """() => {
    const found = [];
    const charts = document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot");
    for (const [c, chart] of [...charts].entries()) {
        const texts = [...chart.querySelectorAll(
            ".heatmap-label, .xtick text, .ytick text, .g-gtitle text, .g-xtitle text, "
            + ".g-ytitle text")]
            .map((t) => [t.textContent, t.getBoundingClientRect()])
            .filter(([s, r]) => s.trim() && r.width > 0 && r.height > 0);
        for (let i = 0; i < texts.length; i++) {
            for (let j = i + 1; j < texts.length; j++) {
                const [a, ra] = texts[i], [b, rb] = texts[j];
                const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
                const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
                if (x > 1 && y > 1) found.push([c, a, b]);
            }
        }
    }
    return {charts: charts.length, found,
            pageWidth: document.querySelector("[data-testid='stMain']").scrollWidth};
}"""


# Every number printed in a chart's cells in the main area smaller than ``px`` (its type's
# size as drawn, the chart's own scaling included): [chart, text, size].
CHART_SMALL_TEXT = """(px) => {
    const found = [];
    const charts = document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot");
    for (const [c, chart] of [...charts].entries()) {
        for (const t of chart.querySelectorAll(".heatmap-label")) {
            const r = t.getBoundingClientRect();
            if (!t.textContent.trim() || r.width === 0) continue;
            const size = parseFloat(getComputedStyle(t).fontSize);
            if (size < px) found.push([c, t.textContent, size]);
        }
    }
    return found;
}"""
