"""The live class's stores, real ones: a SQLite file, and Debian's redis-server started by the
tests on a free loopback port (stopped by its pid). Without redis-server installed, the
Redis cases are skipped with that message, except under CI (CI=true), where they fail.

``store`` and ``public_url`` are the app's environment for the AppTest files (their
sessions share the store); ``tests/live/apps.py`` opens the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from attention_ui.storage.store import RedisStore, SqliteStore, Store
from tests.live.redis_server import RedisServer, need_redis


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    need_redis()
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Store, object]]:
    """(name, store, handle): the handle is the SQLite path or the RedisServer."""
    if request.param == "sqlite":
        path = tmp_path / "live.db"
        yield "sqlite", SqliteStore(path), path
        return
    need_redis()
    server = RedisServer(tmp_path)
    server.start()
    yield "redis", RedisStore(server.url), server
    server.stop()


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """LIVE_STORE: a SQLite file of the test's own, shared by every session of the app."""
    url = f"sqlite://{tmp_path / 'live.db'}"
    monkeypatch.setenv("LIVE_STORE", url)
    return url


@pytest.fixture
def public_url(monkeypatch: pytest.MonkeyPatch) -> str:
    """The address the phones are sent to: a private network's, never this machine's."""
    url = "http://10.1.2.3:8501"
    monkeypatch.setenv("ATTENTION_LAB_PUBLIC_URL", url)
    return url
