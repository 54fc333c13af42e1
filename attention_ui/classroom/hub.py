"""One per process: what its followers watch, read from the store a few times a second.

A follower's phone must learn within 2 s that the teacher moved on, and 120 phones must
not cost the server a core while nothing happens. So the phone does not ask the server's
Python each time. The hub mirrors, every ``FRESH_S``, the version of each room that
this process has followers for into a tiny static file, ``static/live/CODE`` (Streamlit's
static serving: a plain HTTP GET, no script run); the phone's page fetches it every
``WATCH_S`` and reruns only when the number changed (``live.views``). A slow heartbeat
(``HEARTBEAT_S``, a Streamlit fragment run) counts the followers and is the fallback when
the file cannot be fetched. The hub reports its process's count of followers to the store
every ``REPORT_S``: one write per room per process, not one per student.
A version file that cannot be written (a read-only ``static/``) is logged once and kept as
``watch_file_error()`` for the teacher's console: its phones then follow at the heartbeat.
No Streamlit here: ``live.session`` keeps one hub per process (st.cache_resource).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import uuid
from pathlib import Path

from attention_ui.classroom.rooms import PRESENT_FOR, Rooms
from attention_ui.storage.store import StoreDownError

# Together the two set how late a phone learns of a change: at most FRESH_S + WATCH_S
# (0.7 s) before its rerun starts. At 1.0 and 0.5 s one phone alone already lagged up to
# 1.4 s, most of the 2 s a class has (bench/RESULTS.md, "A live class"). A fetch is a static
# GET that nginx answers under make classroom: 120 phones at 2 a second cost it little.
WATCH_S = 0.5  # a phone fetches its room's version file this often (static, no script run)
ASK_AGAIN_S = 3.0  # a change asked for and not drawn, with no run since, is asked again
# A change asked for, not drawn, and the page idle again this long after the ask: the ask's
# run was lost (Streamlit drops the output of a fragment run that ends just as another
# request for the same session arrives, such as the heartbeat's timer: bench/RESULTS.md,
# issue 31), so it is asked again at once, not after ASK_AGAIN_S.
IDLE_AGAIN_S = 0.4
QUIET_MS = 300  # a phone's two timers never send within this of each other (live.views)
HEARTBEAT_S = 5.0  # a phone's fragment runs this often: the count, and the fallback poll
FRESH_S = 0.2  # the hub mirrors each watched room's version this often (one store read)
REPORT_S = 2.0  # how often a process writes its count of followers
# A teacher's session that keeps a change through an outage says so again at each try (every
# live.views.RETRY_S); one silent this long (its tab closed) no longer counts.
KEEPING_FOR = 5.0
log = logging.getLogger(__name__)
STATIC_DIR = Path(__file__).resolve().parents[2] / "static" / "live"  # served at app/static/live


class Hub:
    def __init__(self, rooms: Rooms, static_dir: Path = STATIC_DIR) -> None:
        self.rooms = rooms
        self.static_dir = static_dir
        self.process = uuid.uuid4().hex[:12]  # anonymous: which process reported a count
        self._lock = threading.Lock()
        # code -> session id -> (last heartbeat, a student's?): teachers' devices are watched
        # for too (a remote drives the projector), but only students are counted
        self._seen: dict[str, dict[str, tuple[float, bool]]] = {}
        self._written: dict[str, int] = {}  # code -> version in its file
        self._reported = 0.0
        self._thread: threading.Thread | None = None
        self._watch_error: str | None = None  # the last failed write, until one succeeds
        self._keeping: dict[str, dict[str, float]] = {}  # code -> session id -> last try

    # ---- what sessions tell the hub ------------------------------------------------------
    def seen(self, session: str, code: str, student: bool = True) -> None:
        """A follower is here (a heartbeat or a page run); its room is mirrored from now on."""
        with self._lock:
            self._seen.setdefault(code, {})[session] = (time.monotonic(), student)
            if self._thread is None:
                self._thread = threading.Thread(target=self._mirror_forever, daemon=True,
                                                name="live-hub")  # fmt: skip
                self._thread.start()

    def left(self, session: str, code: str) -> None:
        with self._lock:
            self._seen.get(code, {}).pop(session, None)

    def keeping(self, session: str, code: str, kept: bool) -> None:
        """A teacher's session keeps a change the store did not take (or no longer does):
        the room's other screens in this process (the console beside the projector) say
        that the class has not got it yet. Nothing here is stored: the store is down."""
        with self._lock:
            if kept:
                self._keeping.setdefault(code, {})[session] = time.monotonic()
            else:
                self._keeping.get(code, {}).pop(session, None)

    def behind(self, code: str) -> bool:
        """Whether a teacher's session of this room, in this process, keeps a change now."""
        now = time.monotonic()
        with self._lock:
            return any(now - t <= KEEPING_FOR for t in self._keeping.get(code, {}).values())

    def version(self, code: str) -> int | None:
        """The room's version from the store (the heartbeat's check); may raise StoreDownError."""
        return self.rooms.version(code)

    def watch_path(self, code: str) -> str:
        """The version file's address, relative to the app's pages."""
        return f"app/static/live/{code}"

    def watch_file_error(self) -> str | None:
        """Why this process cannot write its version files (then its phones follow only at
        the heartbeat), or None while they are written."""
        return self._watch_error

    # ---- the mirror --------------------------------------------------------------------------
    def _mirror_forever(self) -> None:
        while True:
            time.sleep(FRESH_S)
            with contextlib.suppress(Exception):  # a thread that dies would stop every phone
                self.mirror_once()

    def mirror_once(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            for here in self._seen.values():
                for sid in [s for s, (t, _) in here.items() if now - t > PRESENT_FOR]:
                    del here[sid]  # no heartbeat lately: left, slept or explores
            watched = {code: len(here) for code, here in self._seen.items()}
            counts = {code: sum(st for _, st in here.values()) for code, here in self._seen.items()}
        for code, n in watched.items():
            try:
                version = self.rooms.version(code) if n else None
            except StoreDownError:
                continue  # keep the last file: phones stay on what they show
            self._write(code, version)
        if now - self._reported >= REPORT_S:
            self._reported = now
            for code, n in counts.items():
                with contextlib.suppress(StoreDownError):
                    self.rooms.report_followers(code, self.process, n)
            with self._lock:
                for code in [c for c, n in watched.items() if n == 0]:
                    self._seen.pop(code, None)

    def _write(self, code: str, version: int | None) -> None:
        try:
            self._write_file(code, version)
        except OSError as exc:
            error = f"cannot write {exc.filename or self.static_dir}: {exc.strerror or exc}"
            if error != self._watch_error:  # once, not every FRESH_S
                log.error("live class: %s; phones follow at the %.0f-second heartbeat",
                          error, HEARTBEAT_S)  # fmt: skip
            self._watch_error = error
        else:
            self._watch_error = None

    def _write_file(self, code: str, version: int | None) -> None:
        path = self.static_dir / code
        if version is None:
            path.unlink(missing_ok=True)
            self._written.pop(code, None)
            return
        if self._written.get(code) == version and path.exists():
            return
        self.static_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.static_dir / f".{code}.{self.process}"
        tmp.write_text(str(version))
        os.replace(tmp, path)  # atomic: a phone never reads half a number
        self._written[code] = version
