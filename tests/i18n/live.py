"""What the live class's language tests share: a room in a real SQLite store, and the app
opened at an address (a join or a control link, a language)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.i18n.pages import APP


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The module's rooms in a SQLite file of the test's own; links name a network address."""
    monkeypatch.setenv("LIVE_STORE", f"sqlite://{tmp_path / 'live.db'}")
    monkeypatch.setenv("ATTENTION_LAB_PUBLIC_URL", "http://10.1.2.3:8501")


def open_app(query: dict[str, str]) -> AppTest:
    """The app's first run with ``query`` in its address."""
    at = AppTest.from_file(APP, default_timeout=30)
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()
