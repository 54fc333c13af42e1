"""A live class's room: its code, the teacher's secret, what it shows, and who follows it.

No Streamlit here: a room is records in the store (``storage.store``), so that any process on
any machine serves its students. What a room holds, and nothing more:

- ``room:CODE``: the page, the presentation step, the scenario (as its ``?s=`` text: the
  teacher's numbers or an example), whether the class is paused, and a SHA-256 of the
  teacher's secret (the store never holds the secret itself, like reveal.js multiplex);
- ``room:CODE:v``: its version, bumped on every change (what followers poll);
- ``room:CODE:here``: how many students each process has following, with the time.

No names and nothing a student typed. Every record expires ``ROOM_TTL`` after the
teacher's last change.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import dataclass

from attention_ui.storage.store import READABLE, Store

ALPHABET = READABLE  # a join code: easy to read aloud and to type on a phone
CODE_LEN = 5  # 31^5 = 28.6 million codes; wrong guesses are slowed down (JoinLimiter)
ROOM_TTL = 12 * 3600.0  # seconds after the teacher's last change
PRESENT_FOR = 8.0  # a process's count of followers is current for this long
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LEN}}}")


class NotTeacherError(Exception):
    """A change asked without the room's secret (a student's address, a forged link)."""


class NoRoomError(Exception):
    """No such room: never opened, ended, or expired."""


@dataclass(frozen=True)
class Room:
    code: str
    page: str  # the page key the class is on ("present", "softmax", ...)
    step: int  # presentation mode's step, 1-based
    scenario: str  # Scenario.to_url() of what the room shows
    paused: bool = False
    version: int = 0
    question: dict | None = None  # the question the class is asked (live.questions), if any


def normalise_code(text: str) -> str | None:
    """A typed code as the store keeps it ("k7m q4" -> "K7MQ4"), or None if it is not one."""
    code = re.sub(r"[\s\-_.]", "", text or "").upper()
    return code if _CODE.fullmatch(code) else None


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Rooms:
    """Open, read, drive and count rooms in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def open(self, page: str, step: int, scenario: str) -> tuple[Room, str]:
        """A new room and its teacher's secret (shown once, kept only in the session)."""
        secret = secrets.token_urlsafe(18)
        for _ in range(20):  # a taken code is drawn again
            code = new_code()
            record = {"page": page, "step": step, "scenario": scenario, "paused": False,
                      "secret": _digest(secret), "opened": time.time()}  # fmt: skip
            if self.store.add(f"room:{code}", json.dumps(record), ROOM_TTL):
                version = self.store.incr(f"room:{code}:v", ROOM_TTL)
                return Room(code, page, step, scenario, False, version), secret
        raise RuntimeError("no free room code after 20 draws")

    def get(self, code: str) -> Room:
        raw, version = self.store.get_many([f"room:{code}", f"room:{code}:v"])
        if raw is None or version is None:
            raise NoRoomError(code)
        r = json.loads(raw)
        return Room(code, r["page"], int(r["step"]), r["scenario"], bool(r["paused"]),
                    int(version), r.get("question"))  # fmt: skip

    def version(self, code: str) -> int | None:
        """The room's version (one read: what every follower polls), None if it is gone."""
        v = self.store.get(f"room:{code}:v")
        return None if v is None else int(v)

    def is_teacher(self, code: str, secret: str) -> bool:
        raw = self.store.get(f"room:{code}")
        if raw is None:
            raise NoRoomError(code)
        return hmac.compare_digest(json.loads(raw)["secret"], _digest(secret))

    def drive(self, code: str, secret: str, **changes: object) -> Room:
        """Change what the room shows (page, step, scenario, paused); only with its secret."""
        raw = self.store.get(f"room:{code}")
        if raw is None:
            raise NoRoomError(code)
        record = json.loads(raw)
        if not hmac.compare_digest(record["secret"], _digest(secret)):
            raise NotTeacherError(code)
        unknown = set(changes) - {"page", "step", "scenario", "paused", "question"}
        if unknown:
            raise ValueError(f"a room has no {sorted(unknown)}")
        record.update(changes)
        self.store.set(f"room:{code}", json.dumps(record), ROOM_TTL)
        version = self.store.incr(f"room:{code}:v", ROOM_TTL)
        room = self.get(code)
        return dataclasses.replace(room, version=max(room.version, version))

    def end(self, code: str, secret: str) -> None:
        if not self.is_teacher(code, secret):
            raise NotTeacherError(code)
        for key in (f"room:{code}", f"room:{code}:v", f"room:{code}:here"):  # answers expire
            self.store.delete(key)

    # ---- who follows: one count per process, never a name ---------------------------------
    def report_followers(self, code: str, process: str, count: int) -> None:
        self.store.hset(f"room:{code}:here", process, f"{count} {time.time():.3f}", ROOM_TTL)

    def followers(self, code: str) -> int:
        """Students following now, summed over the processes that reported lately."""
        now, total = time.time(), 0
        for value in self.store.hgetall(f"room:{code}:here").values():
            count, at = value.split()
            if now - float(at) <= PRESENT_FOR:
                total += int(count)
        return total


class JoinLimiter:
    """Wrong codes from one client: past ``PER_MINUTE`` in a minute, its attempts are refused
    until the minute is over (each session is also slowed down on its own: live.session).

    ``client`` is the address the proxy saw (X-Forwarded-For), else the socket's: a flood
    is refused for that client only, and on a school's network every phone has its own.
    """

    PER_MINUTE = 120

    def __init__(self, store: Store) -> None:
        self.store = store

    def allowed(self, client: str) -> bool:
        used = self.store.get(f"tries:{client}:{int(time.time() // 60)}")
        return used is None or int(used) < self.PER_MINUTE

    def wrong(self, client: str) -> int:
        return self.store.incr(f"tries:{client}:{int(time.time() // 60)}", 120.0)
