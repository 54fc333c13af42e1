"""A live class when things go wrong: the store stops in mid-class, an app process restarts,
and a flood of wrong codes. Each keeps the page working, says so, and loses nothing."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from attention_ui.live.rooms import JoinLimiter, Rooms
from attention_ui.live.session import FREE_TRIES, MAX_WAIT_S
from attention_ui.live.views import RECONNECTING
from attention_ui.storage.store import RedisStore, SqliteStore
from tests.live.redis_server import REDIS, RedisServer, need_redis

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PRESENT = BY_KEY["present"].path


def app(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return at.run()


def teacher() -> tuple[AppTest, object]:
    at = app()
    at.switch_page(PRESENT).run()
    at.button(key="live_start").click().run()
    return at, at.session_state[keys.LIVE]


def step_text(at: AppTest) -> str:
    return next(p.text for p in at.get("progress"))


def says_reconnecting(at: AppTest) -> bool:
    return any(RECONNECTING in str(w.value) for w in [*at.warning, *at.caption])


@pytest.fixture
def durable_redis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A redis-server that keeps its data across a stop (append-only file), as Debian's does."""
    need_redis()

    class Durable(RedisServer):
        def start(self) -> None:
            import subprocess

            args = [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "yes", "--appendfsync", "always",
                    "--dir", str(self.folder)]  # fmt: skip
            self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)  # fmt: skip
            super()._wait()

    server = Durable(tmp_path)
    server.start()
    monkeypatch.setenv("LIVE_STORE", server.url)
    yield server
    server.stop()


def test_redis_stops_in_mid_class_and_the_room_resumes(durable_redis) -> None:
    t, seat = teacher()
    student = app({"join": seat.code})
    assert "Step 1 of" in step_text(student)
    durable_redis.stop()
    t.button(key="present_next").click().run()  # the teacher goes on while it is down
    assert not t.exception and "Step 2 of" in step_text(t)  # the page works on its own
    student.run()
    assert not student.exception
    assert says_reconnecting(student) and "Step 1 of" in step_text(student)
    durable_redis.start()
    time.sleep(RedisStore.PAUSE_S)  # a failed call makes the next ones fail fast this long
    t.run()  # the teacher's count fragment reruns the page (every 2 s): it publishes
    student.run()  # the student's poll (every 1 s) reruns it: it follows again
    assert not says_reconnecting(student)
    assert "Step 2 of" in step_text(student)


def test_an_unreadable_sqlite_file_and_back(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "live.db"
    monkeypatch.setenv("LIVE_STORE", f"sqlite://{path}")
    t, seat = teacher()
    student = app({"join": seat.code})
    aside = tmp_path / "aside"
    aside.mkdir()
    for f in tmp_path.glob("live.db*"):
        f.rename(aside / f.name)
    path.mkdir()  # a folder where the file was: SQLite cannot open it (root reads any mode)
    student.run()
    assert not student.exception and says_reconnecting(student)
    path.rmdir()
    for f in aside.iterdir():
        f.rename(tmp_path / f.name)
    t.button(key="present_next").click().run()
    student.run()
    assert not says_reconnecting(student) and "Step 2 of" in step_text(student)


def test_after_a_process_restart_the_control_link_resumes_and_students_follow(
    tmp_path: Path, monkeypatch
) -> None:
    """A new AppTest is a new process's session: nothing survives but the store."""
    monkeypatch.setenv("LIVE_STORE", f"sqlite://{tmp_path / 'live.db'}")
    t, seat = teacher()
    for _ in range(2):
        t.button(key="present_next").click().run()
    link = f"{seat.code}.{seat.secret}"
    del t  # the process is gone
    again = app({"teach": link})
    assert again.session_state[keys.LIVE].teaching
    assert "Step 3 of" in step_text(again)  # resumed where the room was
    student = app({"join": seat.code})  # a reconnecting phone: its address still has ?join=
    assert "Step 3 of" in step_text(student)
    again.button(key="present_next").click().run()
    student.run()
    assert "Step 4 of" in step_text(student)


def _tries_let_through(seconds: float) -> int:
    """Wrong codes a session can have checked in ``seconds``: the free tries, then one after
    each wait, the waits doubling from 2 s up to MAX_WAIT_S (the schedule, worked by hand)."""
    through, spent, wait = FREE_TRIES + 1, 0.0, 2.0
    while spent + wait <= seconds:
        through, spent, wait = through + 1, spent + wait, min(2 * wait, MAX_WAIT_S)
    return through


def test_a_flood_of_wrong_codes_is_slowed_and_others_still_join(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LIVE_STORE", f"sqlite://{tmp_path / 'live.db'}")
    _, seat = teacher()
    flood = app()
    t0, refused, tries = time.monotonic(), 0, 300
    for i in range(tries):
        flood.text_input(key="live_code").set_value(f"ZZZ{i % 10}{i % 7}")
        flood.button(key="FormSubmitter:live_join-Join").click().run()
        refused += any("Too many wrong codes" in e.value for e in flood.error)
    # However slow this machine is, only the schedule's tries got through: 6 to 12 of 300.
    assert refused >= tries - _tries_let_through(time.monotonic() - t0)
    assert _tries_let_through(2.0) == 7 and _tries_let_through(62.0) == 11  # 2+4+8+16+32
    student = app({"join": seat.code})
    assert student.session_state[keys.LIVE].code == seat.code  # unaffected


def test_the_per_client_limit_refuses_one_client_only(tmp_path: Path) -> None:
    limiter = JoinLimiter(SqliteStore(tmp_path / "live.db"))
    for _ in range(JoinLimiter.PER_MINUTE):
        limiter.wrong("10.0.0.66")
    assert not limiter.allowed("10.0.0.66")
    assert limiter.allowed("10.0.0.67")


def test_rooms_hold_no_names_and_no_secret(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "live.db")
    room, secret = Rooms(store).open("present", 1, "v1.scenario")
    raw = store.get(f"room:{room.code}")
    assert secret not in raw and "scenario" in raw
    assert set(room.code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
