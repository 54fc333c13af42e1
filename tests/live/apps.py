"""The app under AppTest, for the live class's tests: one home for opening it."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def app(query: dict[str, str] | None = None) -> AppTest:
    """A new session of the app (a browser's tab), run once with ``query`` in its address."""
    at = AppTest.from_file(APP, default_timeout=30)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return at.run()
