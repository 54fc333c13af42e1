"""A room's own rules, on both real stores: only its secret drives it (whatever page asks),
an ended room says so to every follower's watch at once, and the picks it carries are the
page's; the join limiter keys a device by the address its proxy saw, not by what it wrote."""

from __future__ import annotations

import json
import time

import pytest

from attention_ui.classroom.rooms import (
    ENDED_TTL,
    NoRoomError,
    NotTeacherError,
    Rooms,
    client_address,
)


@pytest.fixture
def rooms(backend) -> Rooms:
    return Rooms(backend[1])


def test_only_the_secret_drives_the_room_on_either_store(rooms: Rooms) -> None:
    room, secret = rooms.open("present", 1, "S")
    for forged in ("", "not-the-secret", secret[:-1], secret + "x", secret.upper()):
        if forged == secret:
            continue
        with pytest.raises(NotTeacherError):
            rooms.drive(room.code, forged, step=4)
        with pytest.raises(NotTeacherError):
            rooms.end(room.code, forged)
    after = rooms.get(room.code)
    assert (after.step, after.version) == (1, room.version)  # nothing changed, no new version
    driven = rooms.drive(room.code, secret, step=4, page="scaling-lab", params={"lab_dk": 256})
    assert (driven.step, driven.page, driven.params) == (4, "scaling-lab", {"lab_dk": 256})
    assert driven.version == room.version + 1
    with pytest.raises(ValueError, match="a room has no"):
        rooms.drive(room.code, secret, opened=0)  # only what a teacher may change


def test_an_ended_room_bumps_its_version_then_is_gone(rooms: Rooms, backend) -> None:
    room, secret = rooms.open("present", 2, "S")
    v = rooms.version(room.code)
    rooms.end(room.code, secret)
    assert rooms.version(room.code) == v + 1  # every watch sees a new number at once
    with pytest.raises(NoRoomError):
        rooms.get(room.code)  # ... and the run it causes finds the class ended
    with pytest.raises(NoRoomError):
        rooms.drive(room.code, secret, step=3)  # an ended room is not driven back to life
    with pytest.raises(NoRoomError):
        rooms.is_teacher(room.code, secret)
    raw = backend[1].get(f"room:{room.code}")
    assert json.loads(raw) == {"ended": True}  # the tombstone holds nothing of the class
    assert ENDED_TTL <= 3600


def test_the_join_screen_is_the_rooms(rooms: Rooms) -> None:
    room, secret = rooms.open("present", 1, "S")
    assert room.join is False and rooms.get(room.code).params == {}
    assert rooms.drive(room.code, secret, join=True).join is True
    assert rooms.get(room.code).join is True


@pytest.mark.parametrize(("forwarded", "peer", "trusted", "device"), [
    # make classroom's nginx (on this machine) appends the address it saw: that one counts
    ("6.6.6.6, 192.168.1.23", "127.0.0.1", "", "192.168.1.23"),
    ("192.168.1.23", "127.0.0.1", "", "192.168.1.23"),
    ("6.6.6.6,192.168.1.23", "::1", "", "192.168.1.23"),
    # straight to Streamlit: whatever header the device wrote is ignored
    ("6.6.6.6", "192.168.1.23", "", "192.168.1.23"),
    # a balancer on another machine counts only when its network is trusted
    ("6.6.6.6, 10.0.5.7", "10.0.0.2", "10.0.0.0/24", "10.0.5.7"),
    ("6.6.6.6, 10.0.5.7", "10.0.1.2", "10.0.0.0/24", "10.0.1.2"),
    ("6.6.6.6, 10.0.5.7", "10.0.0.2", "not-a-network", "10.0.0.2"),
    (None, "192.168.1.23", "", "192.168.1.23"),
    ("", None, "", "unknown"),
])  # fmt: skip
def test_a_device_is_the_address_its_proxy_saw(forwarded, peer, trusted, device) -> None:
    env = {"ATTENTION_LAB_TRUSTED_PROXIES": trusted}
    assert client_address(forwarded, peer, env) == device


def test_a_change_written_late_leaves_each_field_changed_since(rooms: Rooms, backend) -> None:
    """A teacher's change kept through an outage is written when the store is back, with
    the time it was made: a field another device changed after it keeps the later value
    (issue 41, 6: the latest wins), the others take it."""
    room, secret = rooms.open("present", 1, "S")
    made = time.time()
    later = rooms.drive(room.code, secret, at=made + 60, step=3)  # the console, later
    late = rooms.drive(room.code, secret, at=made, step=6, paused=True)
    assert (late.step, late.paused) == (3, True)
    assert late.version == later.version + 1
    stale = rooms.drive(room.code, secret, at=made, step=7)  # nothing of it is the latest
    assert (stale.step, stale.version) == (3, late.version)  # no write, no new version
    record = json.loads(backend[1].get(f"room:{room.code}"))
    assert record["at"] == {"step": made + 60, "paused": made}  # field ids and times only
