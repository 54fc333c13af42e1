"""What the browser benchmarks share: finding Chromium and starting a real server."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLOOR_APP = "bench/floors/floor_app.py"  # Streamlit's floor for a Plotly page: every ratio's base
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]  # fmt: skip
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# What is drawn under the elements matching ``sel``: their text (printed numbers, titles,
# tick labels) and a cheap hash of each heatmap's picture, whose numbers may show on hover
# only (a grid over MAX_PRINTED). Plotly draws both in the same synchronous pass. Without a
# picture it is the text alone: "|".join(locator.all_text_contents()).
SIGNATURE = """(sel) => [...document.querySelectorAll(sel)].map(e => {
    const pictures = [...e.querySelectorAll('image')].map(i => {
        const h = i.getAttribute('href') || '';
        let s = h.length;
        for (let k = 0; k < h.length; k += 61) s = (s * 31 + h.charCodeAt(k)) | 0;
        return s;
    });
    return pictures.length ? e.textContent + '#' + pictures.join(',') : e.textContent;
}).join('|')"""
# True once what is drawn under ``sel`` differs from ``before`` (and is not empty): the
# moment a change is drawn.
CHANGED = f"""([sel, before]) => {{
    const now = ({SIGNATURE})(sel);
    return now.length > 0 && now !== before;
}}"""


def first_drawn(watch: str) -> str:
    """What to wait for before timing a change of ``watch``: its printed numbers, or, for a
    chart (whose numbers may be on hover only), its heatmap layer."""
    return watch if watch.endswith((".heatmap-label", ".main-svg")) else f"{watch} .heatmaplayer"


def stage_control(page, prefix: str, name: str):
    """A lab's stage ``name`` ("Scores", ...) in its stage control keyed ``<prefix>_stage``:
    a segmented control's option (a radio), or (an older checkout, paired) a tab."""
    box = page.locator(f".st-key-{prefix}_stage")
    return box.get_by_role("radio", name=name, exact=True).or_(
        box.get_by_role("tab", name=name, exact=True)
    )


def drawn(page, sel: str) -> str:
    """The SIGNATURE of ``sel`` now: the ``before`` that CHANGED compares with."""
    return page.evaluate(SIGNATURE, sel)


def find_chromium() -> str | None:
    env = os.environ.get("CHROMIUM_PATH")
    if env:
        return env
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else shutil.which("chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(script: str = "app.py", root: str | Path = ROOT) -> tuple[subprocess.Popen, str]:
    """``streamlit run script`` in ``root`` on a free loopback port; returns the process and
    its URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                if r.read().strip() == b"ok":
                    return proc, url
        except OSError:
            time.sleep(0.05)
    proc.terminate()
    proc.wait(timeout=10)
    raise RuntimeError("streamlit did not become healthy in 30 s")


@contextlib.contextmanager
def serving(script: str, root: str | Path = ROOT):
    """The URL of ``streamlit run script`` in ``root``, stopped after."""
    proc, url = start_server(script, root)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def skipped() -> list:
    """What a bench reports when there is no Chromium."""
    from bench import Result

    return [Result("browser: skipped (no chromium)", [0.0])]


@contextlib.contextmanager
def served_chromium(script: str = "app.py"):
    """(url, browser): a real ``streamlit run`` and Debian's Chromium, both stopped after."""
    from playwright.sync_api import sync_playwright  # only the browser scripts need it

    proc, url = start_server(script)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            yield url, browser
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def settle(page) -> None:
    """The run is over and every element has arrived (no skeletons left)."""
    page.wait_for_selector(IDLE, timeout=120_000)
    page.wait_for_function("!document.querySelector(\"[data-testid='stSkeleton']\")",
                           timeout=120_000)  # fmt: skip
    page.wait_for_timeout(200)


def time_change(page, watch: str, act, signature: str = SIGNATURE) -> float:
    """Milliseconds from ``act()`` until what is drawn under ``watch`` changes (its
    ``signature``: SIGNATURE, or a script of the same form); then settle."""
    return time_changes(page, [watch], act, signature)


def time_changes(page, watch: list[str], act, signature: str = SIGNATURE) -> float:
    """Milliseconds from ``act()`` until what is drawn under every selector in ``watch``
    has changed (the last of the charts an action redraws); then settle."""
    before = [page.evaluate(signature, sel) for sel in watch]
    every = f"""([sels, before]) => sels.every((sel, i) => {{
        const now = ({signature})(sel);
        return now.length > 0 && now !== before[i];
    }})"""
    t0 = time.perf_counter()
    act()
    page.wait_for_function(every, arg=[watch, before], timeout=30_000, polling=10)
    elapsed = (time.perf_counter() - t0) * 1000
    settle(page)
    return elapsed


def switch_times(page, steps: int, click_to, shows: dict[str, str]) -> list[float]:
    """Milliseconds of ``steps`` page switches between the two pages of ``shows`` (page name:
    the selector its content shows), from ``click_to(name)`` (found before the clock: it
    returns the click) until the page's selector is there; the first page is open."""
    first, second = shows
    samples = []
    for k in range(steps):
        name = second if k % 2 == 0 else first
        click = click_to(name)
        t0 = time.perf_counter()
        click()
        page.wait_for_selector(shows[name], timeout=30_000)
        samples.append((time.perf_counter() - t0) * 1000)
        settle(page)
    return samples


@contextlib.contextmanager
def chromium():
    """Debian's Chromium through Playwright (launched with CHROMIUM_ARGS, closed after), or
    None where there is none: a bench then reports ``SKIPPED``."""
    path = find_chromium()
    if path is None:
        yield None
        return
    from playwright.sync_api import sync_playwright  # only the browser benches need it

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
