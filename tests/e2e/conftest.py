"""Browser tests: a real ``streamlit run app.py`` driven by Playwright and Debian's Chromium.

Every test collected under tests/e2e is marked ``e2e`` (``pytest -m "not e2e"`` skips
them). When no Chromium is found ($CHROMIUM_PATH, else /usr/bin/chromium, else
``chromium`` on PATH) they are skipped with "no chromium: apt-get install -y chromium"
(a $CHROMIUM_PATH that does not exist also skips, naming it).

Fixtures (use them from any tests/e2e/test_*.py module)
--------------------------------------------------------
``app_server`` (session)
    Base URL (``http://127.0.0.1:PORT``, no trailing slash) of ONE server shared by the
    whole session. pytest-playwright's ``base_url`` points at it, so ``page.goto("/softmax")``
    just works. ``streamlit_server`` gives the underlying ``helpers.StreamlitServer``
    (``.output()`` returns the server log, handy in assertion messages).
``fresh_server`` (function)
    Factory: ``srv = fresh_server()`` starts a NEW server (≈0.4–1.2 s) and returns the
    started ``StreamlitServer``; use absolute URLs with it, e.g.
    ``page.goto(srv.url + "/softmax")`` (the context's base_url stays the shared server).
    ``fresh_server(extra_args=("--server.baseUrlPath", "lab"))`` passes more CLI options.
    After the test its servers get SIGTERM; the session waits for every one of them
    (by Popen handle) at its end, so the ≈0.5 s exit is not paid per test.
``live_server`` (function)
    A fresh server for a live class: its store (``LIVE_STORE``) a SQLite file of the test's
    own, and ``ATTENTION_LAB_PUBLIC_URL`` the value of the ``live_public_url`` fixture (None,
    unset, unless a module overrides that fixture).
``page`` / ``context`` / ``new_context`` (from pytest-playwright)
    Contexts get a 1400x1000 viewport and the shared server as base_url. ``new_context()``
    makes a second, independent browser (no shared session or cookies).
``shared_context`` (module)
    One browser context kept for a whole test module: later page loads reuse its HTTP
    cache (≈1.5 s instead of 2.5–5 s for a cold context). Each ``shared_context.new_page()``
    is still a new Streamlit session; close the pages you open.
``console_errors`` (function)
    A ``helpers.ConsoleLog`` already watching ``page``: console messages of type error and
    uncaught page errors. ``.errors`` is what is left after the whitelist (the benign 404s
    a deep link causes on ``/<page>/_stcore/health`` and ``/<page>/_stcore/host-config``),
    ``.entries`` is everything, ``.assert_clean("where")`` fails listing the bad ones.
    Watch more pages with ``console_errors.watch(other_page)``.
``artifacts_dir`` (session)
    ``<repo>/test-artifacts`` (created). Screenshots go there.

Helpers (``from helpers import ...``)
-------------------------------------
``goto(page, url)``: navigate, then wait for an h1 (or an exception) and ``wait_idle``.
``wait_idle(page, settle_ms=250)``: ``stApp`` says notRunning + CONNECTED, no ``stSpinner``,
no ``stSkeleton`` (lazily loaded elements: a finished script run can still show mostly
skeletons) and every Plotly chart drawn, all continuously for ``settle_ms``. On timeout
it fails saying which of these is still pending (``busy_reason(page)``).
``shot(page, name)``: full screenshot to ``test-artifacts/<name>.png`` (stretches the
viewport to the content height, since Streamlit scrolls inside its main area).
``h1_text``, ``sidebar_sections``, ``sidebar_links`` (also while the sidebar is hidden),
``nav_link(page, title)``; ``ConsoleLog`` / ``is_benign`` / ``BENIGN_CONSOLE`` (append a
compiled regex there to whitelist more); selector constants ``MAIN``, ``SIDEBAR``,
``NAV_LINK``, ``NAV_SECTION``, ``EXCEPTION``, ``ALERT``, ``SPINNER``, ``PLOTLY``, ``IDLE``.

When a test that used ``page`` fails, a screenshot is saved as
``test-artifacts/FAILED-<test name>.png``.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    ARTIFACTS_DIR,
    CHROMIUM_ARGS,
    NO_CHROMIUM,
    REPO_ROOT,
    VIEWPORT,
    ConsoleLog,
    ServerReaper,
    ServerStartError,
    StreamlitServer,
    find_chromium,
    shot,
)
from playwright.sync_api import Browser, BrowserContext, Page

E2E_DIR = Path(__file__).resolve().parent
if str(REPO_ROOT) not in sys.path:  # tests import attention_core / attention_ui
    sys.path.insert(0, str(REPO_ROOT))
CHROMIUM = find_chromium()


def _no_chromium_reason() -> str:
    env = os.environ.get("CHROMIUM_PATH")
    return f"{NO_CHROMIUM} (CHROMIUM_PATH={env} does not exist)" if env else NO_CHROMIUM


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason=_no_chromium_reason())
    for item in items:
        if E2E_DIR not in Path(str(item.path)).resolve().parents:
            continue
        item.add_marker(pytest.mark.e2e)
        if CHROMIUM is None:
            item.add_marker(skip)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    report = yield
    if report.when == "call" and report.failed and E2E_DIR in Path(str(item.path)).parents:
        page = getattr(item, "funcargs", {}).get("page")
        if isinstance(page, Page) and not page.is_closed():
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", item.name)
            with contextlib.suppress(Exception):  # never hide the real failure
                shot(page, f"FAILED-{name}", full=False)
    return report


# ---- browser (pytest-playwright overrides) ------------------------------------------
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    if CHROMIUM is None:
        pytest.skip(_no_chromium_reason())
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def base_url(app_server: str) -> str:
    return app_server


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "viewport": VIEWPORT}


# ---- servers -------------------------------------------------------------------------
def _start(**kwargs: Any) -> StreamlitServer:
    try:
        return StreamlitServer(**kwargs).start()
    except ServerStartError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def streamlit_server() -> Iterator[StreamlitServer]:
    server = _start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def app_server(streamlit_server: StreamlitServer) -> str:
    return streamlit_server.url


@pytest.fixture(scope="session")
def _server_reaper() -> Iterator[ServerReaper]:
    reaper = ServerReaper()
    try:
        yield reaper
    finally:
        reaper.close()


@pytest.fixture
def fresh_server(_server_reaper: ServerReaper) -> Iterator[Callable[..., StreamlitServer]]:
    started: list[StreamlitServer] = []

    def start(**kwargs: Any) -> StreamlitServer:
        server = _start(**kwargs)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            _server_reaper.retire(server)  # SIGTERM now; waited for at the end of the session


@pytest.fixture
def live_public_url() -> str | None:
    """The address phones are sent to (ATTENTION_LAB_PUBLIC_URL); None: the server finds it."""
    return None


@pytest.fixture
def live_server(
    fresh_server: Callable[..., StreamlitServer],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    live_public_url: str | None,
) -> StreamlitServer:
    """A fresh server whose live class lives in a SQLite file of the test's own."""
    monkeypatch.setenv("LIVE_STORE", f"sqlite://{tmp_path / 'live.db'}")
    if live_public_url is None:
        monkeypatch.delenv("ATTENTION_LAB_PUBLIC_URL", raising=False)
    else:
        monkeypatch.setenv("ATTENTION_LAB_PUBLIC_URL", live_public_url)
    return fresh_server()


@pytest.fixture(scope="module")
def shared_context(browser: Browser, browser_context_args: dict) -> Iterator[BrowserContext]:
    context = browser.new_context(**browser_context_args)
    try:
        yield context
    finally:
        context.close()


# ---- console and artifacts -------------------------------------------------------------
@pytest.fixture
def console_errors(page: Page) -> ConsoleLog:
    log = ConsoleLog()
    log.watch(page)
    return log


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS_DIR
