"""Browser tests: a real ``streamlit run app.py`` driven by Playwright and Debian's Chromium.

Every test collected under tests/e2e is marked ``e2e`` (``pytest -m "not e2e"`` skips
them). When no Chromium is found ($CHROMIUM_PATH, else /usr/bin/chromium, else
``chromium`` on PATH) they are skipped with "no chromium: apt-get install -y chromium".

Fixtures (use them from any tests/e2e/test_*.py module)
--------------------------------------------------------
``app_server`` (session)
    Base URL (``http://127.0.0.1:PORT``, no trailing slash) of ONE server shared by the
    whole session. pytest-playwright's ``base_url`` points at it, so ``page.goto("/softmax")``
    just works. ``streamlit_server`` gives the underlying ``helpers.StreamlitServer``
    (``.output()`` returns the server log, handy in assertion messages).
``fresh_server`` (function)
    Factory: ``srv = fresh_server()`` starts a NEW server (≈0.4–1.2 s) and returns a
    started ``StreamlitServer``; use ``srv.url`` with absolute URLs, e.g.
    ``page.goto(srv.url + "/softmax")`` (the context's base_url stays the shared server).
    ``fresh_server(extra_args=("--server.baseUrlPath", "lab"))`` passes more CLI options.
    Every server it started is stopped (SIGTERM + wait, by Popen handle) after the test.
``page`` / ``context`` / ``new_context`` (from pytest-playwright)
    Contexts get a 1400x1000 viewport and the shared server as base_url. ``new_context()``
    makes a second, independent browser (no shared session or cookies).
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
``goto(page, url)``: navigate, then wait for an h1 (or an exception) and for idle.
``wait_idle(page)``: ``stApp`` says notRunning + CONNECTED, no ``stSpinner``, short settle.
``shot(page, name)``: full screenshot to ``test-artifacts/<name>.png`` (stretches the
viewport to the content height, since Streamlit scrolls inside its main area).
``h1_text``, ``sidebar_sections``, ``sidebar_links``, ``nav_link(page, title)``; selector
constants ``MAIN``, ``SIDEBAR``, ``NAV_LINK``, ``EXCEPTION``, ``ALERT``, ``SPINNER``.

When a test that used ``page`` fails, a screenshot is saved as
``test-artifacts/FAILED-<test name>.png``.
"""

from __future__ import annotations

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
    ServerStartError,
    StreamlitServer,
    find_chromium,
    shot,
)
from playwright.sync_api import Page

E2E_DIR = Path(__file__).resolve().parent
if str(REPO_ROOT) not in sys.path:  # tests import attention_core / attention_ui
    sys.path.insert(0, str(REPO_ROOT))
CHROMIUM = find_chromium()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason=NO_CHROMIUM)
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
            try:
                shot(page, f"FAILED-{name}", full=False)
            except Exception:  # a screenshot must never hide the real failure
                pass
    return report


# ---- browser (pytest-playwright overrides) ------------------------------------------
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
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


@pytest.fixture
def fresh_server() -> Iterator[Callable[..., StreamlitServer]]:
    started: list[StreamlitServer] = []

    def start(**kwargs: Any) -> StreamlitServer:
        server = _start(**kwargs)
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop()


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
