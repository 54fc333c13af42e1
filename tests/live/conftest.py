"""The live class's stores, real ones: a SQLite file, and Debian's redis-server started by the
tests on a free loopback port (stopped by its pid). Without redis-server installed, the
Redis cases are skipped with that message, except under CI (CI=true), where they fail."""

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
