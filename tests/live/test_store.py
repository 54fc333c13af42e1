"""One store test suite, run against both real backends: a SQLite file and a redis-server."""

from __future__ import annotations

import multiprocessing
import shutil
import threading
import time
from pathlib import Path

import pytest

from attention_ui.storage.store import StoreDownError, open_store


def test_values_expire_and_are_replaced(backend) -> None:
    _, store, _ = backend
    assert store.get("a") is None
    store.set("a", "1", ttl=60)
    store.set("a", "2", ttl=60)
    assert store.get("a") == "2"
    store.set("short", "x", ttl=0.3)
    assert store.get("short") == "x"
    time.sleep(0.45)
    assert store.get("short") is None
    store.delete("a")
    assert store.get("a") is None


def test_many_keys_are_read_at_once_in_the_order_asked(backend) -> None:
    _, store, _ = backend
    store.set("room:A", "record", ttl=60)
    store.incr("room:A:v", ttl=60)
    store.set("gone", "x", ttl=0.3)
    time.sleep(0.45)
    assert store.get_many(["room:A:v", "missing", "room:A", "gone"]) == ["1", None, "record", None]


def test_add_is_first_writer_wins_until_it_expires(backend) -> None:
    _, store, _ = backend
    assert store.add("room:X", "first", ttl=0.3) is True
    assert store.add("room:X", "second", ttl=60) is False
    assert store.get("room:X") == "first"
    time.sleep(0.45)
    assert store.add("room:X", "third", ttl=60) is True  # the old one expired
    assert store.get("room:X") == "third"


def test_counters_count_and_restart_after_expiry(backend) -> None:
    _, store, _ = backend
    assert [store.incr("v", ttl=60) for _ in range(3)] == [1, 2, 3]
    store.incr("w", ttl=0.3)
    time.sleep(0.45)
    assert store.incr("w", ttl=60) == 1


def test_hashes_keep_fields_and_first_writer_fields(backend) -> None:
    _, store, _ = backend
    store.hset("h", "p1", "3 100.0", ttl=60)
    store.hset("h", "p2", "4 100.0", ttl=60)
    store.hset("h", "p1", "5 101.0", ttl=60)
    assert store.hgetall("h") == {"p1": "5 101.0", "p2": "4 100.0"}
    assert store.hadd("answers", "student-a", "0.5", ttl=60) is True
    assert store.hadd("answers", "student-a", "0.9", ttl=60) is False  # counted once
    assert store.hgetall("answers") == {"student-a": "0.5"}
    assert store.hgetall("nothing") == {}
    store.delete("h")
    assert store.hgetall("h") == {}


def _bump(url: str, n: int, out) -> None:
    store = open_store(url)
    out.put([store.incr("shared", ttl=60) for _ in range(n)])


def test_processes_share_one_counter_exactly(backend) -> None:
    """Two processes (make classroom's two app processes) bump one counter 200 times each:
    every value 1..400 is handed out exactly once."""
    name, _, handle = backend
    url = f"sqlite://{handle}" if name == "sqlite" else handle.url
    out = multiprocessing.get_context("spawn").Queue()
    procs = [multiprocessing.get_context("spawn").Process(target=_bump, args=(url, 200, out))
             for _ in range(2)]  # fmt: skip
    for p in procs:
        p.start()
    values = out.get(timeout=60) + out.get(timeout=60)
    for p in procs:
        p.join(timeout=30)
    assert sorted(values) == list(range(1, 401))


def test_threads_share_one_store_exactly(backend) -> None:
    """Streamlit runs each script run in a thread of its own, all on one store object: 8
    threads at once bump one counter 100 times each and read back what they wrote, with
    every value 1..800 handed out exactly once (a connection used by two threads at a time
    would fail or mix up results)."""
    name, _, handle = backend
    store = open_store(f"sqlite://{handle}" if name == "sqlite" else handle.url)
    values: list[int] = []
    mixed: list[str] = []

    def bump(n: int) -> None:
        for i in range(100):
            values.append(store.incr("shared", ttl=60))
            store.set(f"own{n}", str(i), ttl=60)
            if store.get(f"own{n}") != str(i):
                mixed.append(f"thread {n}, write {i}")

    threads = [threading.Thread(target=bump, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert mixed == []
    assert sorted(values) == list(range(1, 801))


def test_a_stopped_redis_raises_store_down_and_comes_back(redis_server) -> None:
    store = open_store(redis_server.url)
    store.set("k", "v", ttl=60)
    redis_server.stop()
    t0 = time.monotonic()
    with pytest.raises(StoreDownError):
        store.get("k")
    assert time.monotonic() - t0 < 3  # a page says "reconnecting" quickly, it does not hang
    with pytest.raises(StoreDownError):  # for a moment the next calls fail at once
        store.get("k")
    redis_server.start()  # a fresh server: the data is gone, the client reconnects
    time.sleep(store.PAUSE_S)
    assert store.get("k") is None
    store.set("k", "again", ttl=60)
    assert store.get("k") == "again"


def test_an_unreadable_sqlite_file_raises_store_down_and_comes_back(tmp_path: Path) -> None:
    """The tests run as root, for whom file modes do not bar reading: the file is moved away
    and a folder takes its place, which SQLite cannot open."""
    path = tmp_path / "live.db"
    store = open_store(f"sqlite://{path}")
    store.set("k", "v", ttl=60)
    aside = tmp_path / "aside"
    aside.mkdir()
    for f in tmp_path.glob("live.db*"):
        shutil.move(f, aside / f.name)
    path.mkdir()
    with pytest.raises(StoreDownError):
        store.get("k")
    with pytest.raises(StoreDownError):
        open_store(f"sqlite://{path}").set("k", "w", ttl=60)
    path.rmdir()
    for f in aside.iterdir():
        shutil.move(f, tmp_path / f.name)
    assert store.get("k") == "v"


def test_the_setting_picks_the_backend(tmp_path: Path) -> None:
    assert type(open_store(f"sqlite://{tmp_path / 'a.db'}")).__name__ == "SqliteStore"
    assert type(open_store("redis://127.0.0.1:1/0")).__name__ == "RedisStore"
    with pytest.raises(ValueError, match="LIVE_STORE"):
        open_store("postgres://x")
