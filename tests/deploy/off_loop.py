"""``bench.load.run`` from a test, in a thread of its own.

``load.run`` calls ``asyncio.run``, which refuses to start inside a running event loop, and
pytest-playwright's sync API leaves one running in the main thread of any pytest process
that ran a browser test first (``pytest -n 2`` hands a worker these tests after browser
tests). A fresh thread has no loop, whatever ran before.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bench import load
from bench.load.seats import Stats


def run_load(opts: load.Options) -> tuple[dict, Stats]:
    with ThreadPoolExecutor(1, thread_name_prefix="load") as pool:
        return pool.submit(load.run, opts).result()
