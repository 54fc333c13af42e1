"""What every student of a benchmarked class shares: the options, the results, each
student's scenario and pauses, and the server's processes (read from /proc).

``bench/load/`` (students at Streamlit's protocol) and ``bench/load/browsers.py`` (real
Chromium students beside them) both build on it; neither imports the other's internals.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

from attention_core import Scenario
from attention_core.presets import random_scenario

RUN_TIMEOUT = 60.0  # a rerun slower than this is an error, not a sample


# ---- options and results -----------------------------------------------------------------
@dataclass
class Options:
    url: str = "http://127.0.0.1:8501"
    sessions: int = 10
    arrival: float = 5.0  # all students arrive within this many seconds
    think: tuple[float, float] = (2.0, 8.0)  # seconds between one student's clicks
    duration: float = 20.0  # seconds from the first arrival until everyone stops
    life: tuple[float, float] | None = None  # soak: a student leaves after this, another comes
    linger: float = 0.0  # keep sampling memory this long after everyone left
    pids: list[int] = field(default_factory=list)
    server_ports: list[int] = field(default_factory=list)
    spread_sources: bool = True  # one loopback source address per student (for ip hashing)
    seed: int = 0
    rss_log: str | None = None
    json_out: str | None = None
    warmup: bool = True  # one visit to every page first, as the teacher does before sharing
    per_page: int = 0  # > 0: measure each page's server CPU per rerun instead of a class
    browsers: int = 0  # real Chromium students alongside (bench/load/browsers.py)


@dataclass
class Stats:
    first_page: list[float] = field(default_factory=list)  # seconds
    switches: list[float] = field(default_factory=list)
    reruns: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    started: int = 0
    finished: int = 0
    saw_own_tokens: int = 0
    script_runs: int = 0
    rss: list[tuple[float, int]] = field(default_factory=list)  # (seconds, bytes)
    server_cpu_s: float = 0.0

    @property
    def clicks(self) -> list[float]:
        return self.switches + self.reruns


@dataclass
class BrowserStats(Stats):
    """What the real browsers of bench/load/browsers.py saw (their reruns are toggles)."""

    first_heading: list[float] = field(default_factory=list)  # s until the page's h1 shows
    client_cpu_s: float = 0.0  # the browsers' own CPU: Chromium runs on this machine too


# ---- the students' scenarios -------------------------------------------------------------
def student_scenario(index: int) -> Scenario:
    """A random scenario whose tokens carry the student's number (``zq0007a`` ...)."""
    rng = random.Random(index)
    n = rng.randint(3, 7)
    base = random_scenario(seed=index, n_tokens=n, d_model=rng.randint(3, 5), d_k=3, d_v=3)
    tokens = tuple(f"zq{index:04d}{chr(ord('a') + i)}" for i in range(n))
    return dataclasses.replace(base, tokens=tokens, name=f"student {index}")


def tokens_in_query(query: str) -> tuple[str, ...] | None:
    """The tokens of the scenario in a query string's ``s=``, or None if it has none."""
    packed = parse_qs(query).get("s")
    if not packed:
        return None
    return Scenario.from_url(packed[0]).tokens


# ---- the server's processes --------------------------------------------------------------
def listening_pids(port: int) -> list[int]:
    """Pids of the processes that hold a listening TCP socket on ``port`` (from /proc)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:  # 0A = LISTEN
                inodes.add(f"socket:[{cols[9]}]")
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if any(os.readlink(fd) in inodes for fd in (proc / "fd").iterdir()):
                pids.append(int(proc.name))
        except OSError:
            continue
    return sorted(pids)


def rss_bytes(pids: Iterable[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU time of the processes (fields 14 and 15 of /proc/PID/stat)."""
    ticks = 0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


async def think(rng: random.Random, pause: tuple[float, float], stop_at: float) -> bool:
    """A student's pause before the next click; False (at the end) when the class ends first."""
    wait = rng.uniform(*pause)
    if time.monotonic() + wait >= stop_at:
        await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
        return False
    await asyncio.sleep(wait)
    return True
