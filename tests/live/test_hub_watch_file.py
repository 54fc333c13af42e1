"""The hub's version files (attention_ui/classroom/hub.py): a folder it cannot write is logged
once and kept for the teacher's console, not swallowed; written again, the error clears."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from attention_core import default_scenario
from attention_ui.classroom.hub import Hub
from attention_ui.classroom.rooms import Rooms
from attention_ui.storage.store import SqliteStore


@pytest.fixture
def hub_and_room(tmp_path: Path) -> tuple[Hub, str, int, Path]:
    blocker = tmp_path / "static"
    blocker.write_text("a file where the static folder should be")  # unwritable, even for root
    rooms = Rooms(SqliteStore(tmp_path / "live.db"))
    room, _ = rooms.open("present", 1, default_scenario().to_url())
    hub = Hub(rooms, static_dir=blocker / "live")
    hub._thread = threading.current_thread()  # no mirror thread: the test mirrors by hand
    hub.seen("phone-1", room.code)
    return hub, room.code, room.version, blocker


def test_a_watch_file_that_cannot_be_written_is_logged_once_and_kept(
    hub_and_room: tuple[Hub, str, int, Path], caplog: pytest.LogCaptureFixture
) -> None:
    hub, _, _, blocker = hub_and_room
    assert hub.watch_file_error() is None
    with caplog.at_level(logging.ERROR, logger="attention_ui.classroom.hub"):
        hub.mirror_once()
        hub.mirror_once()  # every FRESH_S: the same failure is not logged again
    error = hub.watch_file_error()
    assert error is not None and str(blocker) in error and "Not a directory" in error
    assert [r.getMessage() for r in caplog.records] == [
        f"live class: {error}; phones follow at the 5-second heartbeat"
    ]


def test_the_error_clears_once_the_file_is_written(
    hub_and_room: tuple[Hub, str, int, Path],
) -> None:
    hub, code, version, blocker = hub_and_room
    hub.mirror_once()
    assert hub.watch_file_error() is not None
    blocker.unlink()  # the folder can be made now
    hub.mirror_once()
    assert hub.watch_file_error() is None
    assert (blocker / "live" / code).read_text() == str(version)
