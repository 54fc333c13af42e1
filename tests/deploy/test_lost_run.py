"""A phone that missed a run still follows the class.

Streamlit can lose a run's messages: when a session's next request arrives just as its
runner has stopped, it starts another runner and ignores the first one's last messages
(bench/RESULTS.md, issue 31). The session then believes the phone shows the room's new
page while the phone still shows the old one, and the next run of the old page (the
watcher's ask, on a page whose watcher is not in a fragment: Exercises) made the student
"explore" (2 phones in 1,540 page follows in the class-of-120 bench). Here a real server and a
phone at Streamlit's protocol (bench.load.live.Phone) that throws away every message of one
run: its next ask finds the session ahead of the phone, the run takes it to the class's page, and it
still follows the teacher afterwards.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from attention_core import default_scenario
from attention_ui.classroom.rooms import Rooms
from attention_ui.storage.store import open_store
from bench.common.browser import start_server
from bench.load.live import ClassStats, Phone

SHOWN_WITHIN_S = 10.0  # a functional bound on a loaded CI machine (a beat is every 5 s)


class LossyPhone(Phone):
    """A phone that never gets the run that draws ``losing`` (a page's title): every message
    until that run's end is thrown away, as Streamlit lost them."""

    losing = ""
    lost = False  # the run drawing ``losing`` has gone by

    def _handle(self, fwd: ForwardMsg, kind: str | None) -> None:
        if self.losing:
            element = fwd.delta.new_element
            if kind == "delta" and element.WhichOneof("type") == "heading":
                self.lost = self.lost or element.heading.body == self.losing
            if kind == "script_finished" and self.lost:
                self.losing = ""
            return
        super()._handle(fwd, kind)


async def _shown(phone: Phone, heading: str, since: float) -> bool:
    deadline = time.monotonic() + SHOWN_WITHIN_S
    while time.monotonic() < deadline:
        if phone.page_lag(heading, since) is not None:
            return True
        await asyncio.sleep(0.1)
    return False


async def _lesson(url: str, store_url: str) -> list[str]:
    rooms = Rooms(open_store(store_url))
    room, secret = rooms.open("exercises", 1, default_scenario().to_url())
    rooms.drive(room.code, secret, join=False)
    stats = ClassStats()
    phone = LossyPhone(0, url, room.code, secret, stats)
    phone.source = "127.0.0.1"

    async def no_timers(stop: asyncio.Event) -> None:  # the test sends the phone's requests
        await stop.wait()

    phone._poll = no_timers  # type: ignore[method-assign]
    phone.step = -1  # Exercises has no slide step: do not wait for one
    stop = asyncio.Event()
    task = asyncio.create_task(phone.run(stop, None))
    try:
        deadline = time.monotonic() + 60
        while not (phone.watcher and phone.beat) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert phone.watcher and phone.beat and not phone.watch_fragment, stats.errors
        problems = []

        # the class goes to Softmax; the phone asks, and that run's messages are lost
        moved = rooms.drive(room.code, secret, page="softmax", params={})
        phone.losing, since = "6. Softmax", time.perf_counter()
        await phone._send(changed=moved.version)
        deadline = time.monotonic() + SHOWN_WITHIN_S
        while phone.losing and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if phone.losing or phone.page_lag("6. Softmax", since) is not None:
            problems.append("the run to lose never came, or was drawn")
        # what the page does next: ask again, saying what it shows
        await phone._send(changed=moved.version)
        if not await _shown(phone, "6. Softmax", since):
            problems.append("the phone that missed a run never reached the class's page")

        # and it still follows: the teacher goes back to Exercises
        back = rooms.drive(room.code, secret, page="exercises", params={})
        since = time.perf_counter()
        await asyncio.sleep(0.5)
        await phone._send(changed=back.version)
        if not await _shown(phone, "Exercises", since):
            problems.append("the phone no longer follows the teacher")
        return problems + stats.errors
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)


def test_a_phone_that_missed_a_page_change_still_reaches_the_class(tmp_path, monkeypatch) -> None:
    store_url = f"sqlite://{tmp_path / 'live.db'}"
    monkeypatch.setenv("LIVE_STORE", store_url)
    try:
        proc, url = start_server("app.py")
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        # in a thread of its own: a worker that ran a browser test first has an event loop
        # running in this one (tests/deploy/off_loop.py)
        with ThreadPoolExecutor(1) as pool:
            assert pool.submit(asyncio.run, _lesson(url, store_url)).result() == []
    finally:
        proc.terminate()
        proc.wait(timeout=10)
