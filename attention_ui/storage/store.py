"""Where a live class lives: one small key-value interface, two real backends (no Streamlit).

A room outlives the process that served the teacher: ``make classroom`` runs a process per
core and a school may run several machines, so every process reads and writes the same
store. ``open_store(url)`` picks the backend from one setting (``LIVE_STORE``):

- ``sqlite:///path/live.db`` (the default, in the runtime folder): an embedded file in WAL
  mode, shared by the processes of one machine;
- ``redis://host:6379/0``: a Redis server, shared by machines.

The interface is what rooms and answers need and no more: values and hashes of text with a
time to live, an atomic counter and a first-writer-wins set. Every value expires (a store
holds no room forever). A backend that cannot be reached raises ``StoreDownError``: the page
then goes on without the live class and says "reconnecting" (``live.seats``).
"""

from __future__ import annotations

import os
import queue
import sqlite3
import stat
import time
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

# The runtime folder (git-ignored): the embedded store's file lives here.
RUNTIME_DIR = Path(os.environ.get("ATTENTION_LAB_RUNTIME") or Path(__file__).resolve().parents[2]
                   / ".runtime")  # fmt: skip
DEFAULT_URL = f"sqlite:///{RUNTIME_DIR / 'live.db'}"
STORE_ENV = "LIVE_STORE"
# Codes people read aloud and type on a phone (a room's, a short link's): no 0/O, no 1/I/L.
READABLE = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


class StoreDownError(Exception):
    """The store cannot be reached or read just now (a retry may work)."""


class Store(Protocol):
    def get(self, key: str) -> str | None: ...
    def get_many(self, keys: list[str]) -> list[str | None]:
        """Several keys in one round trip (a page run reads a room's record and version)."""
        ...

    def set(self, key: str, value: str, ttl: float) -> None: ...
    def add(self, key: str, value: str, ttl: float) -> bool:
        """Set only if absent (first writer wins); True if this call set it."""
        ...

    def incr(self, key: str, ttl: float) -> int: ...
    def hset(self, key: str, field: str, value: str, ttl: float) -> None: ...
    def hadd(self, key: str, field: str, value: str, ttl: float) -> bool:
        """Set one field only if absent; True if this call set it."""
        ...

    def hgetall(self, key: str) -> dict[str, str]: ...
    def delete(self, key: str) -> None: ...


def open_store(url: str | None = None) -> Store:
    """The store named by ``url``, else $LIVE_STORE, else the SQLite file in RUNTIME_DIR."""
    url = url or os.environ.get(STORE_ENV) or DEFAULT_URL
    scheme = urlsplit(url).scheme
    if scheme == "sqlite":
        return SqliteStore(Path(url.removeprefix("sqlite://")))
    if scheme in ("redis", "rediss", "unix"):
        return RedisStore(url)
    raise ValueError(f"LIVE_STORE must be sqlite:///path or redis://host:port/db, not {url!r}")


# ---- SQLite ------------------------------------------------------------------------------
SCHEMA = """
CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS hash (key TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL,
                                 expires REAL NOT NULL, PRIMARY KEY (key, field));
"""


class SqliteStore:
    """A file in WAL mode: readers never wait for the writer, and every process of the
    machine sees each commit. A busy file is waited for, up to 2 s.

    Connections are pooled per store, not per thread: Streamlit runs every script run in a
    new thread, and a connection per thread opened the file, set WAL and ran the schema on
    each of a class's page runs (a tenth of a following class's server time, profiled
    with py-spy). A connection is used by one call at a time (``check_same_thread`` off)."""

    MAX_IDLE = 16  # connections kept open between calls (each holds three file handles)

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._idle: queue.SimpleQueue[tuple[sqlite3.Connection, tuple[int, int] | None]] = (
            queue.SimpleQueue()
        )
        self._last_purge = 0.0

    def _take(self) -> tuple[sqlite3.Connection, tuple[int, int] | None]:
        """An idle connection to the file the path names now, or a new one."""
        now = self._file_id()
        while True:
            try:
                db, file = self._idle.get_nowait()
            except queue.Empty:
                return self._open(), self._file_id()
            if file == now and now is not None:
                return db, file
            db.close()  # the file was moved, replaced or removed: reopen

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=2.0, isolation_level=None,
                                 check_same_thread=False)  # fmt: skip
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints
            db.executescript(SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            message = f"the live-class file {self.path} cannot be opened: {exc}"
            raise StoreDownError(message) from exc
        return db

    def _file_id(self) -> tuple[int, int] | None:
        """The file's (device, inode): an open connection keeps working on a file that was
        moved or replaced, so each call checks the path still names the same file."""
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None

    def _run(self, sql: str, args: tuple = ()) -> list[tuple]:
        db, file = self._take()
        try:
            rows = db.execute(sql, args).fetchall()
        except (sqlite3.Error, OSError) as exc:
            db.close()  # the file may be back at the next call, through a new connection
            raise StoreDownError(f"the live-class file {self.path} cannot be used: {exc}") from exc
        if self._idle.qsize() < self.MAX_IDLE:
            self._idle.put((db, file))
        else:  # a burst of runs at once is over: keep the file handles few
            db.close()
        return rows

    def _purge(self, now: float) -> None:
        """Drop expired rows now and then (reads ignore them anyway)."""
        if now - self._last_purge > 60:
            self._last_purge = now
            self._run("DELETE FROM kv WHERE expires < ?", (now,))
            self._run("DELETE FROM hash WHERE expires < ?", (now,))

    def get(self, key: str) -> str | None:
        rows = self._run("SELECT value FROM kv WHERE key = ? AND expires >= ?", (key, time.time()))
        return rows[0][0] if rows else None

    def get_many(self, keys: list[str]) -> list[str | None]:
        marks = ", ".join("?" * len(keys))
        rows = self._run(f"SELECT key, value FROM kv WHERE key IN ({marks}) AND expires >= ?",
                         (*keys, time.time()))  # fmt: skip
        found = dict(rows)
        return [found.get(k) for k in keys]

    def set(self, key: str, value: str, ttl: float) -> None:
        now = time.time()
        self._run("INSERT INTO kv VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
                  "value = excluded.value, expires = excluded.expires",
                  (key, value, now + ttl))  # fmt: skip
        self._purge(now)

    def add(self, key: str, value: str, ttl: float) -> bool:
        now = time.time()
        rows = self._run(
            "INSERT INTO kv VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
            "value = excluded.value, expires = excluded.expires WHERE kv.expires < ? "
            "RETURNING key", (key, value, now + ttl, now),
        )  # fmt: skip
        return bool(rows)

    def incr(self, key: str, ttl: float) -> int:
        now = time.time()
        rows = self._run(
            "INSERT INTO kv VALUES (?, '1', ?) ON CONFLICT (key) DO UPDATE SET "
            "value = CASE WHEN kv.expires < ? THEN '1' ELSE CAST(kv.value AS INTEGER) + 1 END, "
            "expires = excluded.expires RETURNING value", (key, now + ttl, now),
        )  # fmt: skip
        return int(rows[0][0])

    def hset(self, key: str, field: str, value: str, ttl: float) -> None:
        now = time.time()
        self._run("INSERT INTO hash VALUES (?, ?, ?, ?) ON CONFLICT (key, field) DO UPDATE SET "
                  "value = excluded.value, expires = excluded.expires",
                  (key, field, value, now + ttl))  # fmt: skip
        self._run("UPDATE hash SET expires = ? WHERE key = ?", (now + ttl, key))

    def hadd(self, key: str, field: str, value: str, ttl: float) -> bool:
        now = time.time()
        rows = self._run(
            "INSERT INTO hash VALUES (?, ?, ?, ?) ON CONFLICT (key, field) DO UPDATE SET "
            "value = excluded.value, expires = excluded.expires WHERE hash.expires < ? "
            "RETURNING key", (key, field, value, now + ttl, now),
        )  # fmt: skip
        self._run("UPDATE hash SET expires = ? WHERE key = ?", (now + ttl, key))
        return bool(rows)

    def hgetall(self, key: str) -> dict[str, str]:
        rows = self._run("SELECT field, value FROM hash WHERE key = ? AND expires >= ?",
                         (key, time.time()))  # fmt: skip
        return dict(rows)

    def delete(self, key: str) -> None:
        self._run("DELETE FROM kv WHERE key = ?", (key,))
        self._run("DELETE FROM hash WHERE key = ?", (key,))


# ---- Redis -------------------------------------------------------------------------------
class RedisStore:
    """Debian's redis-server through the ``redis`` client: one pool per process, short
    timeouts so that a stopped server makes a page say "reconnecting" in about a second."""

    PAUSE_S = 1.0  # after a failure, calls fail at once for this long (no pile of timeouts)

    def __init__(self, url: str) -> None:
        import redis  # only a Redis deployment needs the client
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self._errors = (redis.RedisError, OSError)
        # No retries inside a call: the page's next poll is the retry, and a page run must
        # not wait out a series of back-offs while the server is down.
        self._r = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0,
                                       retry=Retry(NoBackoff(), 0),
                                       decode_responses=True)  # fmt: skip
        self.url = url
        self._down_until = 0.0

    def _call(self, fn, *args):
        if time.monotonic() < self._down_until:
            raise StoreDownError(f"the live-class server {self.url} was not reachable just now")
        try:
            return fn(*args)
        except self._errors as exc:
            self._down_until = time.monotonic() + self.PAUSE_S
            message = f"the live-class server {self.url} cannot be reached: {exc}"
            raise StoreDownError(message) from exc

    def get(self, key: str) -> str | None:
        return self._call(self._r.get, key)

    def get_many(self, keys: list[str]) -> list[str | None]:
        # One round trip: a page run's thread that waits on the socket gives up the GIL,
        # and under a class's 55 reruns at once it waits that long again to get it back.
        return self._call(self._r.mget, keys)

    def set(self, key: str, value: str, ttl: float) -> None:
        self._call(lambda: self._r.set(key, value, px=int(ttl * 1000)))

    def add(self, key: str, value: str, ttl: float) -> bool:
        return bool(self._call(lambda: self._r.set(key, value, px=int(ttl * 1000), nx=True)))

    def incr(self, key: str, ttl: float) -> int:
        def run() -> int:
            pipe = self._r.pipeline()  # MULTI/EXEC: the count and its expiry together
            pipe.incr(key)
            pipe.pexpire(key, int(ttl * 1000))
            return int(pipe.execute()[0])

        return self._call(run)

    def hset(self, key: str, field: str, value: str, ttl: float) -> None:
        def run() -> None:
            pipe = self._r.pipeline()
            pipe.hset(key, field, value)
            pipe.pexpire(key, int(ttl * 1000))
            pipe.execute()

        self._call(run)

    def hadd(self, key: str, field: str, value: str, ttl: float) -> bool:
        def run() -> bool:
            pipe = self._r.pipeline()
            pipe.hsetnx(key, field, value)
            pipe.pexpire(key, int(ttl * 1000))
            return bool(pipe.execute()[0])

        return self._call(run)

    def hgetall(self, key: str) -> dict[str, str]:
        return self._call(self._r.hgetall, key)

    def delete(self, key: str) -> None:
        self._call(self._r.delete, key)
