"""`make classroom`'s end (issue 34): a process stopped by Ctrl-C (a signal) is said calmly
and exits 0; only a process that ends with an error status is reported as a crash. Ctrl-C
printed "a process ended on its own; stopping the rest" and make's "Error 1".

The script's ``watch_processes`` is sourced alone (CLASSROOM_NO_MAIN) and given two small
processes of our own: no nginx, no Streamlit, under a second."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WATCH = """
CLASSROOM_NO_MAIN=1 source deploy/classroom.sh
sleep 30 & keep=$!
{first} & first=$!
(sleep 0.2; {stop}) &
trap 'kill $keep 2>/dev/null' EXIT
watch_processes "$first" "$keep"
"""


def watch(first: str, stop: str = "true") -> subprocess.CompletedProcess:
    script = WATCH.format(first=first, stop=stop)
    return subprocess.run(["bash", "-c", script], cwd=REPO, capture_output=True, text=True,
                          timeout=20)  # fmt: skip


# Started with & by a script, a process ignores SIGINT unless it sets its own handler, as
# nginx (a fast shutdown, status 0) and Streamlit do: these two do the same.
ON_INT = "import signal, sys, time; signal.signal(signal.SIGINT, {}); time.sleep(30)"
NGINX_LIKE = ON_INT.format("lambda *a: sys.exit(0)")
PYTHON_LIKE = ON_INT.format("signal.default_int_handler")  # ends by SIGINT: status 130


@pytest.mark.parametrize(
    ("first", "signal"),
    [(NGINX_LIKE, "INT"), (PYTHON_LIKE, "INT"), ("import time; time.sleep(30)", "TERM")],
)
def test_a_process_stopped_by_a_signal_is_not_called_a_crash(first: str, signal: str) -> None:
    done = watch(f'{sys.executable} -c "{first}"', f"kill -{signal} $first")
    assert done.returncode == 0, done.stderr
    assert "a process was stopped (Ctrl-C or a signal); stopping the rest" in done.stderr
    assert "ended on its own" not in done.stderr


def test_a_process_that_fails_is_reported_as_a_crash() -> None:
    done = watch("sh -c 'sleep 0.1; exit 3'")
    assert done.returncode == 1
    assert "a process ended on its own (exit status 3); stopping the rest" in done.stderr
