"""Every setting's two runs in this process, finished or not, shared by all its sessions.

A class of 30 pressing Train with the same settings costs one training: each session that
needs a setting's runs takes its ``Job`` and trains it on a piece at a time (``Job.step``,
under the job's lock), so whichever sessions are waiting share the work and none repeats
it. A run stopped part way stays here as it is, never taken for the finished run: the next
session that wants it trains it on from where it stopped, to the same numbers as a run
that never stopped (``Training.advance`` in pieces is bit for bit one run).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from attention_core.training import History, Training, TrainSettings

MAX_JOBS = 32  # settings kept per process; the oldest used is dropped first


class Job:
    """One setting's two runs, trained on in pieces by whichever session holds its lock."""

    def __init__(self, settings: TrainSettings) -> None:
        self.settings = settings
        self.lock = threading.Lock()
        self.training = Training(settings)
        self.trained = 0  # steps advanced in all (each run's), for the class's one-run test
        self._final: tuple[History, History] | None = None

    @property
    def done(self) -> int:
        return self.training.done

    @property
    def finished(self) -> bool:
        return self.training.finished

    def step(self, k: int | None = None) -> int:
        """Train both runs up to ``k`` steps further, or by default to their next kept step
        (``Training.next_checkpoint``: the Training lab's piece); nothing once finished.
        The steps done."""
        with self.lock:
            if not self.training.finished:
                before = self.training.done
                k = self.training.next_checkpoint() - before if k is None else k
                self.trained += self.training.advance(k) - before
            return self.training.done

    def histories(self) -> tuple[History, History]:
        """Both runs as far as they are; a finished job hands out the same two every time."""
        with self.lock:
            if self._final is not None:
                return self._final
            if self.training.done < 0:  # not even step 0: one forward pass to draw
                self.training.advance(1)
                self.trained += 1
            pair = self.training.histories()
            if self.training.finished:
                self._final = pair
            return pair


class Jobs:
    """The jobs of one process, by settings, at most ``max_jobs`` (least recently used out)."""

    def __init__(self, max_jobs: int = MAX_JOBS) -> None:
        self.max_jobs = max_jobs
        self._lock = threading.Lock()
        self._jobs: OrderedDict[TrainSettings, Job] = OrderedDict()

    def get(self, settings: TrainSettings) -> Job:
        with self._lock:
            job = self._jobs.get(settings)
            if job is None:
                job = self._jobs[settings] = Job(settings)
                while len(self._jobs) > self.max_jobs:
                    self._jobs.popitem(last=False)
            self._jobs.move_to_end(settings)
            return job
