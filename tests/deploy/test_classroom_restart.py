"""`make classroom` restarts a Streamlit process that crashes (issue 45, item 2): one
worker's end stopped the whole class. ``supervise`` is sourced alone (CLASSROOM_NO_MAIN) and
given a small process of our own as the worker: no nginx, no Streamlit, about a second.
The whole class through a real classroom and Chromium phones, with one of its processes
killed, is tests/deploy/test_lesson_browser.py's."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The worker: a process that writes its pid to a file (one line per start), then sleeps
SUPERVISED = """
CLASSROOM_NO_MAIN=1 source deploy/classroom.sh
RESTART_QUICK_S={quick} RESTART_GIVE_UP=3
worker() {{ echo $BASHPID >>{pids}; exec {command}; }}
supervise 9 {log}
"""


def start(tmp_path: Path, command: str, quick: int = 20) -> tuple[subprocess.Popen, Path]:
    pids = tmp_path / "pids"
    script = SUPERVISED.format(quick=quick, pids=pids, command=command, log=tmp_path / "log")
    proc = subprocess.Popen(["bash", "-c", script], cwd=REPO, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
    return proc, pids


def started(pids: Path, count: int, seconds: float = 10) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        lines = pids.read_text().split() if pids.exists() else []
        if len(lines) >= count:
            return [int(p) for p in lines]
        time.sleep(0.05)
    raise AssertionError(f"{count} starts expected, saw {pids.read_text() if pids.exists() else 0}")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_killed_process_is_started_again_and_the_supervisors_stop_ends_it(
    tmp_path: Path,
) -> None:
    proc, pids = start(tmp_path, "sleep 60")
    first = started(pids, 1)[0]
    os.kill(first, signal.SIGKILL)  # a crash (the OOM killer's way)
    second = started(pids, 2)[1]
    assert second != first and alive(second)
    proc.send_signal(signal.SIGTERM)  # the classroom's cleanup
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "the process on port 9 ended (exit status 137); starting it again" in err
    deadline = time.monotonic() + 5
    while alive(second) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(second), "the supervisor left its worker running"
    assert len(started(pids, 2)) == 2  # stopped: not started a third time


def test_a_process_that_cannot_start_ends_the_classroom(tmp_path: Path) -> None:
    proc, pids = start(tmp_path, "sh -c 'exit 3'")
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 1
    assert len(started(pids, 3)) == 3
    assert "ended 3 times in a row within 20 s of its start (exit status 3)" in err
