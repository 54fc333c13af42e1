"""A live class's room: its code, the teacher's secret, what it shows, and who follows it.

No Streamlit here: a room is records in the store (``storage.store``), so that any process on
any machine serves its students. What a room holds, and nothing more:

- ``room:CODE``: the page, the presentation step, the scenario (as its ``?s=`` text: the
  teacher's numbers or an example), the page's own picks that its link carries (a lab's
  d_k, layer, head, token: ``keys.PAGE_PARAMS``), whether the class is paused, whether the
  projector shows the join screen, when each of these was last changed (``at``: a change
  kept through an outage is written late, and the latest wins), and a SHA-256 of the
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
import ipaddress
import json
import os
import re
import secrets
import time
from dataclasses import dataclass

from attention_ui.storage.store import READABLE, Store

ALPHABET = READABLE  # a join code: easy to read aloud and to type on a phone
CODE_LEN = 5  # 31^5 = 28.6 million codes; wrong guesses are slowed down (JoinLimiter)
ROOM_TTL = 12 * 3600.0  # seconds after the teacher's last change
# An ended room stays a tombstone this long, its version bumped: every follower's watch sees
# the change within a second and learns that the class ended (not after a 5 s heartbeat).
ENDED_TTL = 600.0
DRIVEN = frozenset({"page", "step", "scenario", "params", "paused", "question", "join",
                    "practice"})  # fmt: skip
PRESENT_FOR = 8.0  # a process's count of followers is current for this long
# What a class at its own pace keeps per room (live.pace): deleted when the class ends.
FORGOTTEN = ("seats", "seatno", "nicks", "work")
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
    params: dict | None = None  # the page's own picks in its link: {"lab_dk": 256, ...}
    join: bool = False  # the projector shows the join screen (code and QR code, large)
    practice: dict | None = None  # a class at its own pace (live.pace.Practice), if any


def normalise_code(text: str) -> str | None:
    """A typed code as the store keeps it ("k7m q4" -> "K7MQ4"), or None if it is not one."""
    code = re.sub(r"[\s\-_.]", "", text or "").upper()
    return code if _CODE.fullmatch(code) else None


def never_used(text: str) -> str:
    """The letters and digits of a typed code that no code has ("6RUEO" -> "O"), in order.

    The alphabet leaves out what is read for another character (O and 0, I, L and 1), so
    such a character is a misreading: the message names it rather than the code's length.
    """
    seen = dict.fromkeys(c for c in (text or "").upper() if c.isalnum() and c not in ALPHABET)
    return "".join(seen)


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
        if r.get("ended"):
            raise NoRoomError(code)
        return Room(code, r["page"], int(r["step"]), r["scenario"], bool(r["paused"]),
                    int(version), r.get("question"), r.get("params") or {},
                    bool(r.get("join")), r.get("practice"))  # fmt: skip

    def version(self, code: str) -> int | None:
        """The room's version (one read: what every follower polls), None if it is gone."""
        v = self.store.get(f"room:{code}:v")
        return None if v is None else int(v)

    def is_teacher(self, code: str, secret: str) -> bool:
        return hmac.compare_digest(self._record(code)["secret"], _digest(secret))

    def _record(self, code: str) -> dict:
        """The room's record; NoRoomError when it never was, expired or ended."""
        raw = self.store.get(f"room:{code}")
        record = json.loads(raw) if raw is not None else {}
        if not record or record.get("ended"):
            raise NoRoomError(code)
        return record

    def _teachers_record(self, code: str, secret: str) -> dict:
        """The record, only for the holder of the room's secret (NotTeacherError otherwise)."""
        record = self._record(code)
        if not hmac.compare_digest(record["secret"], _digest(secret)):
            raise NotTeacherError(code)
        return record

    def drive(self, code: str, secret: str, at: float | None = None, **changes: object) -> Room:
        """Change what the room shows (keys of ``DRIVEN``); only with its secret.

        ``at``: when the teacher made the change (default now). A change kept through an
        outage and written late (``teaching``) leaves alone each field that a later change
        (another of the teacher's devices) has set since: the latest wins, field by field.
        """
        record = self._teachers_record(code, secret)
        unknown = set(changes) - DRIVEN
        if unknown:
            raise ValueError(f"a room has no {sorted(unknown)}")
        at = time.time() if at is None else at
        times = record.setdefault("at", {})  # field -> when it was last changed
        changes = {k: v for k, v in changes.items() if times.get(k, 0.0) <= at}
        if not changes:
            return self.get(code)  # every field changed later: nothing to write
        record.update(changes)
        times.update(dict.fromkeys(changes, at))
        self.store.set(f"room:{code}", json.dumps(record), ROOM_TTL)
        version = self.store.incr(f"room:{code}:v", ROOM_TTL)
        room = self.get(code)
        return dataclasses.replace(room, version=max(room.version, version))

    def end(self, code: str, secret: str) -> None:
        """End the class: a tombstone whose new version every follower's watch sees at once
        (they then find no room, and say the class ended); it and the version expire."""
        self._teachers_record(code, secret)
        self.store.set(f"room:{code}", json.dumps({"ended": True}), ENDED_TTL)
        self.store.incr(f"room:{code}:v", ENDED_TTL)
        self.store.delete(f"room:{code}:here")  # answers expire with their TTL
        for part in FORGOTTEN:  # a practice's seats, nicknames and checks: deleted now
            self.store.delete(f"room:{code}:{part}")

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


TRUSTED_PROXIES_ENV = "ATTENTION_LAB_TRUSTED_PROXIES"  # networks of proxies, by commas


def client_address(forwarded: str | None, peer: str | None,
                   environ: dict[str, str] | None = None) -> str:  # fmt: skip
    """The address a device connected from, as far as it can be trusted.

    ``peer`` is the socket's address. When it is a proxy we trust (this machine's own, as
    ``make classroom``'s nginx, or a network named in ATTENTION_LAB_TRUSTED_PROXIES), the
    device is the *last* entry of X-Forwarded-For: the one that proxy appended itself.
    Earlier entries are whatever the device wrote, so keying on the first one let a device
    dodge the join limiter with a made-up header. Otherwise the socket's address, whatever
    header came with it.
    """
    env = os.environ if environ is None else environ
    entries = [e.strip() for e in (forwarded or "").split(",") if e.strip()]
    if entries and peer and _trusted(peer, env.get(TRUSTED_PROXIES_ENV, "")):
        return entries[-1]
    return peer or "unknown"


def _trusted(peer: str, networks: str) -> bool:
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    if address.is_loopback:
        return True
    for net in filter(None, (n.strip() for n in networks.split(","))):
        try:
            if address in ipaddress.ip_network(net, strict=False):
                return True
        except ValueError:
            continue  # a mistyped network trusts nothing
    return False


class JoinLimiter:
    """Wrong codes from one client: past ``PER_MINUTE`` in a minute, its attempts are refused
    until the minute is over (each session is also slowed down on its own: live.session).

    ``client`` is ``client_address``: a flood is refused for that device only, and on a
    school's network every phone has its own.
    """

    PER_MINUTE = 120

    def __init__(self, store: Store) -> None:
        self.store = store

    def allowed(self, client: str) -> bool:
        used = self.store.get(f"tries:{client}:{int(time.time() // 60)}")
        return used is None or int(used) < self.PER_MINUTE

    def wrong(self, client: str) -> int:
        return self.store.incr(f"tries:{client}:{int(time.time() // 60)}", 120.0)
