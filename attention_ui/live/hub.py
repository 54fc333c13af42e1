"""One per process: what its followers poll, read from the store at most twice a second.

A follower's page asks "has the room changed?" every ``POLL_S`` seconds. Asking the store
each time would cost a read per student per poll; the hub answers every session of the
process from one read per room per ``FRESH_S``, and reports the process's count of
followers to the store every ``REPORT_S`` (one write per room, not one per student).
No Streamlit here: ``live.session`` keeps one hub per process (st.cache_resource).
"""

from __future__ import annotations

import threading
import time
import uuid

from attention_ui.live.rooms import PRESENT_FOR, Rooms

POLL_S = 1.0  # a follower's fragment reruns this often (it reads the hub, not the store)
FRESH_S = 0.5  # a room's version read from the store is reused this long
REPORT_S = 2.0  # how often a process writes its count of followers


class Hub:
    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.process = uuid.uuid4().hex[:12]  # anonymous: which process reported a count
        self._lock = threading.Lock()
        self._versions: dict[str, tuple[float, int | None]] = {}  # code -> (read at, version)
        self._seen: dict[str, dict[str, float]] = {}  # code -> session id -> last poll
        self._reported: dict[str, float] = {}  # code -> when this process last reported

    def version(self, code: str, now: float | None = None) -> int | None:
        """The room's version, at most FRESH_S old; raises StoreDownError when it cannot be read."""
        now = time.monotonic() if now is None else now
        with self._lock:
            cached = self._versions.get(code)
            if cached is not None and now - cached[0] < FRESH_S:
                return cached[1]
        version = self.rooms.version(code)  # outside the lock: the store may be slow
        with self._lock:
            self._versions[code] = (now, version)
        return version

    def forget(self, code: str) -> None:
        """The room changed here (the teacher's own process): read it afresh next time."""
        with self._lock:
            self._versions.pop(code, None)

    def seen(self, session: str, code: str, now: float | None = None) -> None:
        """A follower polled; now and then report how many this process has."""
        now = time.monotonic() if now is None else now
        with self._lock:
            here = self._seen.setdefault(code, {})
            here[session] = now
            due = now - self._reported.get(code, -REPORT_S) >= REPORT_S
            if due:
                self._reported[code] = now
                for sid in [s for s, t in here.items() if now - t > PRESENT_FOR]:
                    del here[sid]  # stopped polling: left, slept or explores
                count = len(here)
        if due:
            self.rooms.report_followers(code, self.process, count)

    def left(self, session: str, code: str) -> None:
        with self._lock:
            self._seen.get(code, {}).pop(session, None)
