"""Real browsers alongside the simulated class (issue 11): ``python -m bench.load --browsers 3``.

The websocket students of bench/load/ stop at ``script_finished``; a browser still has
to receive, lay out and draw. These students are headless Chromium pages (Debian's, via
Playwright) against the same URL, during the same class:

1. each opens a walkthrough page by its address, ``/<page>?s=<its own scenario>`` (tokens
   ``zq9001a`` ...), in a browser of its own (cold cache, like a student's first visit),
   and the first page is timed until that page's first heatmap shows its numbers (and,
   to tell the server's part from the drawing, until its heading shows);
2. then, every think time, it clicks a sidebar link to another walkthrough page, or, on
   4. Scaling, half the time presses the Scaling toggle instead; a click is timed from
   its one mouse event (or key press) until the page's heatmap shows new numbers
   (bench.common.browser's ``CHANGED``);
3. after every page and click it checks the page: no other student's token anywhere in
   the document, the address's ``?s=`` still its own scenario (a leak otherwise), no
   ``stException`` and no notice of the app's guard (an error otherwise).

The browsers run in a process of their own (Playwright's async API on its own event loop),
so they neither stall the driver's asyncio loop nor share its GIL. They are launched while
the driver warms the server up and start when the class starts (``go``). Their Chromium
processes run on the server's machine, unlike a real class's: their CPU is reported.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import queue
import random
import time
from collections.abc import Awaitable, Callable
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from playwright.async_api import Browser, Page, async_playwright

from bench.common.browser import CHANGED, CHROMIUM_ARGS, IDLE, find_chromium
from bench.load import seats

FIRST_INDEX = 9001  # browser k has the tokens of student 9001 + k (the simulated: 0, 1, ...)
VIEWPORT = {"width": 1400, "height": 1000}  # wide enough for the sidebar to stay open
CHARTS = {  # each walkthrough page's first heatmap with numbers (URL path -> its cells)
    "inputs": ".st-key-inputs_preview .heatmap-label",
    "projections": ".st-key-proj_prod_0_Q .heatmap-label",
    "scores": ".st-key-scores_chart .heatmap-label",
    "scaling": ".st-key-scaling_scaled .heatmap-label",
    "mask": ".st-key-mask_chart .heatmap-label",
    "softmax": ".st-key-softmax_chart .heatmap-label",
    "output": ".st-key-output_chart .heatmap-label",
}
TOGGLE = ".st-key-scaled_toggle input"
HEADING = "[data-testid='stMain'] h1"  # the script's first output, drawn: before Plotly's
TOGGLE_SHARE = 0.5  # on the Scaling page, this share of the clicks toggle instead of leaving
FIRST_TIMEOUT_MS = 1000 * seats.RUN_TIMEOUT
CLICK_TIMEOUT_MS = 30_000
START_TIMEOUT = 300.0  # the driver's warm-up on a loaded machine
INSPECT = """(own) => {
    const text = document.body.textContent;
    const tokens = new Set(text.match(/zq\\d{4}[a-h]/g) || []);
    return {
        foreign: [...tokens].filter(t => !t.startsWith(own)),
        exceptions: document.querySelectorAll("[data-testid='stException']").length,
        guard: text.includes("Something went wrong"),
    };
}"""


# ---- one browser student -------------------------------------------------------------------
class BrowserStudent:
    """One student in a Chromium of its own: a first page, then clicks until the end."""

    def __init__(
        self, index: int, opts: seats.Options, stats: seats.BrowserStats, rng: random.Random
    ) -> None:
        self.index, self.opts, self.stats, self.rng = index, opts, stats, rng
        scenario = seats.student_scenario(index)
        self.tokens = scenario.tokens
        self.query = urlencode({"s": scenario.to_url()})
        self.where = rng.choice(list(CHARTS))

    async def run(self, browser: Browser, stop_at: float) -> None:
        await asyncio.sleep(self.rng.uniform(0, self.opts.arrival))
        self.stats.started += 1
        context = await browser.new_context(viewport=VIEWPORT)  # closed with its browser
        page = await context.new_page()
        if await self._act(page, self._first_page(page)):
            await self._click_until(page, stop_at)
            self.stats.finished += 1

    async def _first_page(self, page: Page) -> None:
        t0 = time.perf_counter()
        await page.goto(f"{self.opts.url}/{self.where}?{self.query}", wait_until="commit")
        await page.wait_for_selector(HEADING, state="attached", timeout=FIRST_TIMEOUT_MS)
        self.stats.first_heading.append(time.perf_counter() - t0)
        await page.wait_for_function(
            CHANGED, arg=[CHARTS[self.where], ""], timeout=FIRST_TIMEOUT_MS, polling=10
        )
        self.stats.first_page.append(time.perf_counter() - t0)
        await self._settle_and_inspect(page)

    async def _click_until(self, page: Page, stop_at: float) -> None:
        while await seats.think(self.rng, self.opts.think, stop_at):
            toggle = self.where == "scaling" and self.rng.random() < TOGGLE_SHARE
            await self._act(page, self._toggle(page) if toggle else self._switch(page))

    async def _switch(self, page: Page) -> None:
        """A sidebar link to another walkthrough page, until that page's numbers show."""
        target = self.rng.choice([p for p in CHARTS if p != self.where])
        link = page.locator(f".st-key-nav a[href^='{target}?']").first
        # Where to click is found before the clock starts (Playwright's click would check
        # the link's visibility and stability after it): the click is one mouse event.
        await link.scroll_into_view_if_needed()
        box = await link.bounding_box()
        if box is None:
            raise RuntimeError(f"no link to /{target} in the sidebar")
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        click = lambda: page.mouse.click(x, y)  # noqa: E731
        self.stats.switches.append(await time_change(page, CHARTS[target], click))
        await self._settle_and_inspect(page)

    async def _toggle(self, page: Page) -> None:
        """The Scaling toggle (by keyboard, as bench/pages/browser_app.py), until the scaled
        heatmap shows new numbers."""
        await page.locator(TOGGLE).first.focus()
        press = lambda: page.keyboard.press("Space")  # noqa: E731
        self.stats.reruns.append(await time_change(page, CHARTS["scaling"], press))
        await self._settle_and_inspect(page)

    async def _act(self, page: Page, action: Awaitable[None]) -> bool:
        """Run one page load or click; a time-out or any failure counts as an error. Then
        note the page the browser is on, which a failed click may or may not have left."""
        try:
            await action
            return True
        except Exception as exc:  # one failed click must not end the student
            first_line = (str(exc).splitlines() or [type(exc).__name__])[0]
            self.stats.errors.append(f"browser {self.index} on /{self.where}: {first_line}")
            return False
        finally:
            self.where = urlsplit(page.url).path.rsplit("/", 1)[-1]

    async def _settle_and_inspect(self, page: Page) -> None:
        await settle(page)
        found = await page.evaluate(INSPECT, f"zq{self.index:04d}")
        for token in found["foreign"]:
            self.stats.leaks.append(f"browser {self.index} saw {token}")
        tokens = seats.tokens_in_query(urlsplit(page.url).query)
        if tokens is not None and tokens != self.tokens:
            self.stats.leaks.append(f"browser {self.index}'s address holds {tokens[:3]}")
        if found["exceptions"] or found["guard"]:
            self.stats.errors.append(f"browser {self.index}: the app failed on /{self.where}")


async def time_change(page: Page, watch: str, act: Callable[[], Awaitable[None]]) -> float:
    """Seconds from ``act`` until the cells under ``watch`` show other numbers than before
    (bench.common.browser's ``time_change``, for the async API and without its settle)."""
    before = "|".join(await page.locator(watch).all_text_contents())
    t0 = time.perf_counter()
    await act()
    await page.wait_for_function(CHANGED, arg=[watch, before], timeout=CLICK_TIMEOUT_MS, polling=10)
    return time.perf_counter() - t0


async def settle(page: Page) -> None:
    """The run is over and every element has arrived (bench.common.browser's ``settle``)."""
    await page.wait_for_selector(IDLE, timeout=CLICK_TIMEOUT_MS)
    await page.wait_for_function(
        "!document.querySelector(\"[data-testid='stSkeleton']\")", timeout=CLICK_TIMEOUT_MS
    )
    await page.wait_for_timeout(200)


# ---- the browsers' class ----------------------------------------------------------------------
async def run_browsers(opts: seats.Options, go: Callable[[float], bool]) -> seats.BrowserStats:
    """Launch ``opts.browsers`` Chromiums, wait for ``go``, then run one student in each."""
    stats = seats.BrowserStats()
    async with async_playwright() as p:
        browsers = [
            await p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            for _ in range(opts.browsers)
        ]
        try:
            if not await asyncio.to_thread(go, START_TIMEOUT):
                return stats  # the class never started: nothing to report
            cpu = TreeCpu()  # from the start of the class: launching is not counted
            sampler = asyncio.create_task(cpu.sample_every(1.0))
            rng = random.Random(opts.seed + 1)
            stop_at = time.monotonic() + opts.duration
            students = [
                BrowserStudent(FIRST_INDEX + k, opts, stats, random.Random(rng.random()))
                for k in range(opts.browsers)
            ]
            pairs = zip(students, browsers, strict=True)
            await asyncio.gather(*(student.run(b, stop_at) for student, b in pairs))
            sampler.cancel()
            stats.client_cpu_s = cpu.sample()  # before the browsers close: then it is lost
        finally:
            for browser in browsers:
                await browser.close()
    return stats


def _child(opts: seats.Options, go: Event, out: Queue) -> None:
    try:
        stats = asyncio.run(run_browsers(opts, go.wait))
    except Exception as exc:  # the parent must get an answer whatever happens here
        stats = seats.BrowserStats(errors=[f"browsers: {exc!r}"])
    out.put(stats)


class TreeCpu:
    """CPU seconds of this process and every process below it (Playwright's driver, Chromium
    and its renderers), from /proc. Sampled, because Chromium's helpers are not reaped by
    their parents, so ``getrusage(RUSAGE_CHILDREN)`` misses most of their time."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}  # pid -> its CPU seconds when last seen
        self.start = 0.0
        self.start = self.sample()

    def sample(self) -> float:
        """Seconds used since this meter was made."""
        for pid in [os.getpid(), *descendants(os.getpid())]:
            self.seen[pid] = max(self.seen.get(pid, 0.0), seats.cpu_seconds([pid]))
        return sum(self.seen.values()) - self.start

    async def sample_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            self.sample()


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, from /proc's lists of children."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found += [child, *descendants(child)]
    return found


class Alongside:
    """The browsers' process: started before the driver's warm-up, told when the class starts."""

    def __init__(self, opts: seats.Options) -> None:
        ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: no asyncio loop inside
        self._go = ctx.Event()
        self._out = ctx.Queue()
        self._proc = ctx.Process(target=_child, args=(opts, self._go, self._out))
        self._proc.start()

    def go(self) -> None:
        self._go.set()

    def result(self, timeout: float) -> seats.BrowserStats:
        """The browsers' stats, once they are done (an error if they take over ``timeout``)."""
        try:
            return self._out.get(timeout=timeout)
        except queue.Empty:
            late = f"browsers: no result {timeout:.0f} s after the class"
            return seats.BrowserStats(errors=[late])

    def close(self) -> None:
        self._proc.join(timeout=30)
        if self._proc.is_alive():
            self._proc.terminate()  # Playwright's driver ends with it, and its browsers
            self._proc.join(timeout=10)
