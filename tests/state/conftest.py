"""One ``streamlit run`` per test module over its own SQLite store (``served``); the app of
``STATE_APP_ROOT`` when set (main's checkout: to see a test fail on the code before)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.state.machine import ClassMachine, Outage
from tests.state.server import ROOT, Server


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Outage]]:
    outage = Outage(tmp_path_factory.mktemp("state"))
    server = Server(outage.url, Path(os.environ.get("STATE_APP_ROOT", ROOT)))
    yield server, outage
    server.stop()


@pytest.fixture
def machine(served) -> Iterator[ClassMachine]:
    """A class gone live over ``served``: its console, projector and two phones."""
    server, outage = served
    ClassMachine.url, ClassMachine.outage = server.url, outage
    m = ClassMachine()
    yield m
    m.teardown()
