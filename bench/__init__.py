"""Benchmarks with recorded results (bench/RESULTS.md). Run them all with ``python -m bench``.

Each ``bench_*.py`` module has ``run(args) -> list[Result]``; ``__main__`` finds and runs
them and prints one markdown table.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Result:
    name: str
    samples_ms: list[float]
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.samples_ms)

    def row(self) -> str:
        s = self.samples_ms
        return (
            f"| {self.name} | {len(s)} | {self.median:.1f} | {min(s):.1f} | {max(s):.1f} "
            f"| {self.note} |"
        )


HEADER = "| benchmark | runs | median ms | min ms | max ms | note |\n|---|---|---|---|---|---|"


def timed(
    f: Callable[[], object],
    repeats: int,
    warmup: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Milliseconds of ``repeats`` calls of ``f`` after ``warmup`` untimed ones (wall clock)."""
    for _ in range(warmup):
        f()
    out = []
    for _ in range(repeats):
        t0 = clock()
        f()
        out.append((clock() - t0) * 1000)
    return out


def cpu_timed(f: Callable[[], object], repeats: int, warmup: int = 1) -> list[float]:
    """CPU milliseconds of this process per call: its own work, not waiting for a busy box."""
    return timed(f, repeats, warmup, clock=time.process_time)
