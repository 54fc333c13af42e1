"""A class of students at Streamlit's websocket protocol, without browsers.

    python -m bench.load --sessions 40 --arrival 10 --think 2 8 --duration 90 \\
        --url http://127.0.0.1:8501

Each simulated student does what a browser does, message for message:

1. opens a page by its address, ``/<page>?s=<its own scenario>`` (GET the page, then
   ``/_stcore/health`` and ``/_stcore/host-config``, as the frontend does on load);
2. opens the websocket ``/_stcore/stream`` with the subprotocol ``streamlit`` and sends a
   ``BackMsg.rerun_script`` carrying the query string and the page's URL name, as the
   frontend's ``sendRerunBackMsg`` does for a fresh load; the first page is done when
   ``ForwardMsg.script_finished`` arrives;
3. then "clicks" every few seconds (``--think``): half the time a sidebar menu link to
   another page (as the browser sends it: a ``rerun_script`` of the page it is on carrying
   the menu's trigger value ``go``; the app then switches page in the same request, which
   finishes one run early), otherwise a rerun of the page it is on (what any widget change
   costs outside a fragment).

Like the browser it keeps the ForwardMsg cache (it sends back the hashes of cacheable
messages it holds, so the server answers with ``ref_hash`` for them), and it follows the
``?s=`` the app writes into the URL (``page_info_changed``).

Every student's tokens are its own (``zq0007a`` ...); a student that receives any other
student's token, in any message, or is handed a ``?s=`` holding other tokens, counts a
leak. Exceptions shown by the app, missing pages, cache misses, closed sockets and time-outs
count as errors. Server memory is the summed RSS of the server processes (found from
their listening ports, or given by pid), sampled every second.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.BidiComponent_pb2 import BidiComponent  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from attention_core import InputError  # noqa: E402
from bench.load.seats import (  # noqa: E402
    RUN_TIMEOUT,
    BrowserStats,
    Options,
    Stats,
    cpu_seconds,
    listening_pids,
    rss_bytes,
    student_scenario,
    think,
    tokens_in_query,
)

TOKEN = re.compile(rb"zq(\d{4})[a-h]")  # every simulated student's tokens look like this
PAGE_SWITCH_SHARE = 0.5


async def sample_memory(pids: list[int], stats: Stats, stop: asyncio.Event, log) -> None:
    t0 = time.monotonic()
    while True:
        rss = rss_bytes(pids)
        stats.rss.append((time.monotonic() - t0, rss))
        if log is not None:
            log.write(f"{time.time():.0f}\t{time.monotonic() - t0:.1f}\t{rss}\n")
            log.flush()
        try:
            await asyncio.wait_for(stop.wait(), timeout=1.0)
            return
        except TimeoutError:
            continue


# ---- one student ---------------------------------------------------------------------------
class Student:
    """One browser tab: its own scenario, its own websocket, its own message cache."""

    def __init__(self, index: int, opts: Options, stats: Stats, rng: random.Random) -> None:
        self.index = index
        self.opts = opts
        self.stats = stats
        self.rng = rng
        self.scenario = student_scenario(index)
        self.tokens = self.scenario.tokens
        self.query = urlencode({"s": self.scenario.to_url()})
        parts = urlsplit(opts.url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.base = parts.path.rstrip("/")
        self.source = source_address(index) if self._spread() else None
        self.pages: dict[str, str] = {}  # url_pathname -> page_script_hash (warm-up, page_costs)
        self.page_hash = ""
        self.menu_id = ""  # the sidebar menu's element id (attention_ui.frame.menu), once seen
        self.menu_targets: list[str] = []  # the pages its links offer (not the open one)
        self.cache: dict[str, int] = {}  # message hash -> run count when last used
        self.max_age = 2
        self.runs = 0
        self.saw_own = False

    def _spread(self) -> bool:
        try:
            return self.opts.spread_sources and ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    async def run(self, stop_at: float) -> None:
        self.stats.started += 1
        try:
            await self._visit(stop_at)
            self.stats.finished += 1
        except (OSError, WebSocketException, TimeoutError) as exc:
            self.stats.errors.append(f"student {self.index}: {type(exc).__name__}: {exc}")
        except Exception as exc:  # anything else is counted too: one student must not end the class
            self.stats.errors.append(f"student {self.index}: unexpected {exc!r}")
        if self.saw_own:
            self.stats.saw_own_tokens += 1

    async def _visit(self, stop_at: float) -> None:
        # a shared deep link: the Start page or a walkthrough page, with the scenario
        first = self.rng.choice(["", "scores", "softmax", "scaling", "projections", "output"])
        t0 = time.perf_counter()
        for path in (f"/{first}?{self.query}", "/_stcore/health", "/_stcore/host-config"):
            await http_get(self.host, self.port, self.base + path, self.source)
        ws_url = f"ws://{self.host}:{self.port}{self.base}/_stcore/stream"
        async with connect(
            ws_url,
            subprotocols=["streamlit"],  # what the frontend offers (no XSRF token, no session)
            origin=f"http://{self.host}:{self.port}",
            max_size=None,  # figures can exceed the 1 MiB default
            ping_interval=None,  # browsers do not ping; a loaded server must not drop us
            open_timeout=RUN_TIMEOUT,
            local_addr=(self.source, 0) if self.source else None,
        ) as ws:
            if await self._rerun(ws, page_name=first):
                self.stats.first_page.append(time.perf_counter() - t0)
            await self._click_until(ws, stop_at)

    async def _click_until(self, ws: ClientConnection, stop_at: float) -> None:
        while await think(self.rng, self.opts.think, stop_at):
            switch = bool(self.menu_targets) and self.rng.random() < PAGE_SWITCH_SHARE
            go = self.rng.choice(self.menu_targets) if switch else ""
            t0 = time.perf_counter()
            if await self._rerun(ws, page_hash=self.page_hash, go=go):
                (self.stats.switches if switch else self.stats.reruns).append(
                    time.perf_counter() - t0
                )

    async def _rerun(
        self, ws: ClientConnection, page_hash: str = "", page_name: str = "", go: str = ""
    ) -> bool:
        """Send one rerun_script and read until script_finished; False if it failed.

        ``go``: a menu click asking for that page (the trigger value the browser sends).
        """
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query
        rerun.page_script_hash = page_hash
        rerun.page_name = page_name
        if go:
            trigger = rerun.widget_states.widgets.add()
            trigger.id = f"$$STREAMLIT_INTERNAL_KEY_{self.menu_id}__events"
            trigger.json_trigger_value = json.dumps([{"event": "go", "value": go}])
        rerun.cached_message_hashes.extend(self.cache)
        rerun.context_info.timezone = "UTC"
        rerun.context_info.locale = "en-US"
        rerun.context_info.url = f"http://{self.host}:{self.port}{self.base}/?{self.query}"
        await ws.send(msg.SerializeToString())
        try:
            return await asyncio.wait_for(self._read_run(ws), RUN_TIMEOUT)
        except TimeoutError:
            self.stats.errors.append(f"student {self.index}: no script_finished in {RUN_TIMEOUT} s")
            return False

    async def _read_run(self, ws: ClientConnection) -> bool:
        ok = True
        while True:
            raw = await ws.recv(decode=False)
            ok = self._check_bytes(raw) and ok
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            kind = fwd.WhichOneof("type")
            ok = self._handle(fwd, kind) and ok
            if kind == "script_finished":
                if fwd.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # a page switch: the new page's run follows at once
                self._end_run()
                return ok and fwd.script_finished != ForwardMsg.FINISHED_WITH_COMPILE_ERROR

    def _check_bytes(self, raw: bytes) -> bool:
        """Any token of another student anywhere in the message is a leak."""
        for match in TOKEN.finditer(raw):
            if int(match.group(1)) != self.index:
                self.stats.leaks.append(f"student {self.index} got {match.group(0).decode()}")
                return False
            self.saw_own = True
        return True

    def _handle(self, fwd: ForwardMsg, kind: str | None) -> bool:
        if fwd.metadata.cacheable:
            self.cache[fwd.hash] = self.runs
        if kind == "new_session":
            self.max_age = fwd.new_session.config.max_cached_message_age or self.max_age
            self.page_hash = fwd.new_session.page_script_hash
        elif kind == "navigation":
            self.pages = {p.url_pathname: p.page_script_hash for p in fwd.navigation.app_pages}
            self.page_hash = fwd.navigation.page_script_hash or self.page_hash
        elif kind == "page_info_changed":
            return self._follow_url(fwd.page_info_changed.query_string)
        elif kind == "ref_hash":
            if fwd.ref_hash not in self.cache:
                return self._error(f"cache miss for {fwd.ref_hash}")
            self.cache[fwd.ref_hash] = self.runs
        elif kind == "page_not_found":
            return self._error(f"page not found: {fwd.page_not_found.page_name!r}")
        elif kind == "delta" and fwd.delta.new_element.WhichOneof("type") == "bidi_component":
            self._read_menu(fwd.delta.new_element.bidi_component)
        elif kind == "delta" and fwd.delta.new_element.WhichOneof("type") == "exception":
            exc = fwd.delta.new_element.exception
            return self._error(f"the app raised {exc.type}: {exc.message[:200]}")
        return True

    def _read_menu(self, element: BidiComponent) -> None:
        """The sidebar menu: its id (for the trigger) and the pages its links lead to."""
        if element.component_name.endswith(".menu"):
            self.menu_id = element.id
            items = json.loads(element.json)["items"]
            # $LOAD_SKIP_PAGES=real-model,decoder: pages no student switches to (a diagnosis)
            skip = set(filter(None, os.environ.get("LOAD_SKIP_PAGES", "").split(",")))
            self.menu_targets = [
                item["path"]
                for item in items
                if not item["current"] and item["path"].strip("/") not in skip
            ]

    def _follow_url(self, query: str) -> bool:
        """The app wrote the URL; it must hold this student's scenario, then we keep it."""
        try:
            tokens = tokens_in_query(query)
        except InputError as exc:
            return self._error(f"the app wrote an unreadable ?s= ({exc})")
        if tokens is not None and tokens != self.tokens:
            self.stats.leaks.append(f"student {self.index} was handed ?s= with {tokens[:3]}")
            return False
        self.query = query
        return True

    def _end_run(self) -> None:
        """Age the message cache like the frontend: drop what the last runs did not use."""
        self.runs += 1
        self.stats.script_runs += 1
        self.cache = {h: r for h, r in self.cache.items() if self.runs - r <= self.max_age}

    def _error(self, text: str) -> bool:
        self.stats.errors.append(f"student {self.index}: {text}")
        return False


def source_address(index: int) -> str:
    """A loopback address of its own for each student (Linux answers on all of 127/8), so a
    proxy that hashes the client address spreads them as it would spread a classroom."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


async def http_get(host: str, port: int, path: str, source: str | None) -> int:
    """A plain HTTP/1.1 GET; returns the status (anything but 200 raises OSError)."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, local_addr=(source, 0) if source else None),
        RUN_TIMEOUT,
    )
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode()
        )
        await writer.drain()
        body = await asyncio.wait_for(reader.read(), RUN_TIMEOUT)
    finally:
        writer.close()
    status = int(body.split(b" ", 2)[1]) if body.startswith(b"HTTP/") else 0
    if status != 200:
        raise OSError(f"GET {path[:60]} answered {status}")
    return status


# ---- the class -----------------------------------------------------------------------------
WARMUP_STUDENT = 9999


async def warm_up(opts: Options) -> None:
    """Open every page once, uncounted: a fresh process imports NumPy, pandas and Plotly
    and compiles the page scripts on its first runs (about 2 s here), which the teacher
    pays when opening the link before sharing it, not the first student."""
    student = Student(WARMUP_STUDENT, opts, Stats(), random.Random(0))
    student.source = None
    await student.run(time.monotonic())  # first page only
    ws_url = f"ws://{student.host}:{student.port}{student.base}/_stcore/stream"
    async with connect(ws_url, subprotocols=["streamlit"], max_size=None, ping_interval=None) as ws:
        await student._rerun(ws, page_name="")
        for page_hash in list(student.pages.values()):
            await student._rerun(ws, page_hash=page_hash)


async def page_costs(opts: Options, repeats: int) -> dict[str, float]:
    """Server CPU per rerun of each page, in ms: one student reruns every page ``repeats``
    times while the server's CPU time is read from /proc (the whole process: the script,
    Streamlit's messages and the websocket). Run it on an otherwise idle server."""
    pids = opts.pids or [p for port in server_ports(opts) for p in listening_pids(port)]
    student = Student(WARMUP_STUDENT, opts, Stats(), random.Random(0))
    student.source = None
    ws_url = f"ws://{student.host}:{student.port}{student.base}/_stcore/stream"
    costs = {}
    async with connect(ws_url, subprotocols=["streamlit"], max_size=None, ping_interval=None) as ws:
        await student._rerun(ws, page_name="")
        for name, page_hash in list(student.pages.items()):
            await student._rerun(ws, page_hash=page_hash)  # the switch itself is not counted
            cpu0 = cpu_seconds(pids)
            for _ in range(repeats):
                await student._rerun(ws, page_hash=page_hash)
            costs[name or "start"] = 1000 * (cpu_seconds(pids) - cpu0) / repeats
    return costs


async def run_class(opts: Options, on_start: Callable[[], None] | None = None) -> Stats:
    """The class; ``on_start`` is called once the warm-up is over, as the students arrive."""
    if opts.warmup:
        await warm_up(opts)
    if on_start is not None:
        on_start()
    stats = Stats()
    pids = opts.pids or [p for port in server_ports(opts) for p in listening_pids(port)]
    cpu0 = cpu_seconds(pids)
    stop_sampling = asyncio.Event()
    log = open(opts.rss_log, "a") if opts.rss_log else None  # noqa: SIM115  # closed below
    sampler = asyncio.create_task(sample_memory(pids, stats, stop_sampling, log))
    rng = random.Random(opts.seed)
    start = time.monotonic()
    end = start + opts.duration
    tasks = [
        asyncio.create_task(_seat(i, opts, stats, rng, start, end)) for i in range(opts.sessions)
    ]
    await asyncio.gather(*tasks)
    if opts.linger:
        await asyncio.sleep(opts.linger)
    stats.server_cpu_s = cpu_seconds(pids) - cpu0
    stop_sampling.set()
    await sampler
    if log is not None:
        log.close()
    return stats


async def _seat(
    seat: int, opts: Options, stats: Stats, rng: random.Random, start: float, end: float
) -> None:
    """One seat in the class: a student arrives; in a soak, leaves and is replaced."""
    await asyncio.sleep(rng.uniform(0, opts.arrival))
    index = seat
    while time.monotonic() < end:
        leave = end if opts.life is None else min(end, time.monotonic() + rng.uniform(*opts.life))
        student = Student(index, opts, stats, random.Random(rng.random()))
        await student.run(leave)
        if opts.life is None:
            return
        index += opts.sessions  # the next student in this seat has new tokens
        await asyncio.sleep(rng.uniform(0, 2))


def server_ports(opts: Options) -> list[int]:
    return opts.server_ports or [urlsplit(opts.url).port or 80]


# ---- the report ------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, round(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def dist(xs: list[float]) -> dict:
    return {
        "n": len(xs),
        "p50": percentile(xs, 50),
        "p95": percentile(xs, 95),
        "max": max(xs, default=float("nan")),
    }


def browser_summary(stats: BrowserStats) -> dict:
    """The real browsers' part of the summary (their reruns are Scaling toggles)."""
    return {
        "errors": len(stats.errors),
        "leaks": len(stats.leaks),
        "students": {"started": stats.started, "finished": stats.finished},
        "first_heading_s": dist(stats.first_heading),
        "first_page_s": dist(stats.first_page),
        "clicks_s": dist(stats.clicks),
        "page_switches_s": dist(stats.switches),
        "toggles_s": dist(stats.reruns),
        "browsers_cpu_s": stats.client_cpu_s,
        "error_texts": stats.errors[:20],
        "leak_texts": stats.leaks[:20],
    }


def summary(
    stats: Stats,
    opts: Options,
    load_before: tuple[float, ...],
    browsers: BrowserStats | None = None,
) -> dict:
    mb = [r / 2**20 for _, r in stats.rss] or [float("nan")]
    return {
        "load": {
            "sessions": opts.sessions,
            "arrival_s": opts.arrival,
            "think_s": opts.think,
            "duration_s": opts.duration,
            "life_s": opts.life,
            "url": opts.url,
            "browsers": opts.browsers,
        },
        "errors": len(stats.errors),
        "leaks": len(stats.leaks),
        "students": {
            "started": stats.started,
            "finished": stats.finished,
            "saw_own_tokens": stats.saw_own_tokens,
        },
        "first_page_s": dist(stats.first_page),
        "clicks_s": dist(stats.clicks),
        "page_switches_s": dist(stats.switches),
        "reruns_s": dist(stats.reruns),
        "server_rss_mb": {"start": mb[0], "peak": max(mb), "end": mb[-1]},
        "server_cpu_ms_per_run": 1000 * stats.server_cpu_s / max(1, stats.script_runs),
        "script_runs": stats.script_runs,
        "loadavg_before": load_before,
        "loadavg_after": os.getloadavg(),
        "driver_cpu_s": sum(os.times()[:2]),  # this process: it shares the machine
        **({"browsers": browser_summary(browsers)} if browsers is not None else {}),
    }


def print_summary(s: dict, stats: Stats) -> None:
    load = s["load"]
    print(
        f"load: {load['sessions']} sessions arriving within {load['arrival_s']:g} s, "
        f"think {load['think_s'][0]:g}-{load['think_s'][1]:g} s, {load['duration_s']:g} s"
        + (
            f", each staying {load['life_s'][0]:g}-{load['life_s'][1]:g} s"
            if load["life_s"]
            else ""
        )
        + f", against {load['url']}"
    )
    print(f"errors: {s['errors']}   leaks: {s['leaks']}   students: {s['students']}")
    for line in stats.errors[:10] + stats.leaks[:10]:
        print("  ", line)
    for name in ("first_page_s", "clicks_s", "page_switches_s", "reruns_s"):
        print_dist(name, s[name])
    m = s["server_rss_mb"]
    print(
        f"server RSS: start {m['start']:.0f} MB, peak {m['peak']:.0f} MB, end {m['end']:.0f} MB; "
        f"server CPU {s['server_cpu_ms_per_run']:.0f} ms per script run ({s['script_runs']} runs)"
    )
    before = " / ".join(f"{x:.2f}" for x in s["loadavg_before"])
    after = " / ".join(f"{x:.2f}" for x in s["loadavg_after"])
    print(
        f"load average before {before}, after {after} ({os.cpu_count()} cores); "
        f"this driver used {s['driver_cpu_s']:.0f} s of CPU"
    )
    if "browsers" in s:
        print_browsers(s["browsers"], load["browsers"])


def print_dist(name: str, d: dict) -> None:
    print(
        f"{name[:-2]:>14}: n={d['n']:<5} p50 {d['p50']:.3f} s   p95 {d['p95']:.3f} s   "
        f"max {d['max']:.3f} s"
    )


def print_browsers(b: dict, count: int) -> None:
    """The real browsers beside the simulated students (times include drawing)."""
    print(
        f"{count} real browsers alongside (Chromium, until the numbers are drawn): "
        f"errors: {b['errors']}   leaks: {b['leaks']}   students: {b['students']}"
    )
    for line in b["error_texts"][:10] + b["leak_texts"][:10]:
        print("  ", line)
    for name in ("first_heading_s", "first_page_s", "clicks_s", "page_switches_s", "toggles_s"):
        print_dist(name, b[name])
    print(f"the browsers used {b['browsers_cpu_s']:.0f} s of CPU on this machine")


def parse_args(argv: list[str] | None = None) -> Options:
    p = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default=Options.url, help="the app's address (default %(default)s)")
    p.add_argument("--sessions", "-n", type=int, default=Options.sessions)
    p.add_argument("--arrival", type=float, default=Options.arrival, help="arrival window, s")
    p.add_argument("--think", type=float, nargs=2, default=Options.think, metavar=("MIN", "MAX"))
    p.add_argument("--duration", type=float, default=Options.duration, help="seconds")
    p.add_argument(
        "--life",
        type=float,
        nargs=2,
        metavar=("MIN", "MAX"),
        help="soak: each student leaves after this many seconds; a new one takes the seat",
    )
    p.add_argument(
        "--linger",
        type=float,
        default=0.0,
        help="after everyone left, keep sampling server memory this long",
    )
    p.add_argument("--pid", type=int, action="append", default=[], help="a server pid (repeat)")
    p.add_argument(
        "--server-port",
        type=int,
        action="append",
        default=[],
        help="a port a server process listens on (repeat; default: the URL's)",
    )
    p.add_argument(
        "--no-spread",
        action="store_true",
        help="all students from one source address (default: 127.0.x.y each)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--no-warmup",
        action="store_true",
        help="do not open every page once before the class (cold first page)",
    )
    p.add_argument("--rss-log", help="append 'epoch  seconds  rss_bytes' lines here every second")
    p.add_argument("--json", dest="json_out", help="also write the summary as JSON here")
    p.add_argument(
        "--browsers",
        type=int,
        default=0,
        metavar="N",
        help="also N real headless Chromium students alongside (bench/load/browsers.py)",
    )
    p.add_argument(
        "--per-page",
        type=int,
        metavar="REPEATS",
        default=0,
        help="instead of a class: server CPU per rerun of each page (one student)",
    )
    a = p.parse_args(argv)
    return Options(
        url=a.url.rstrip("/"),
        sessions=a.sessions,
        arrival=a.arrival,
        think=tuple(a.think),
        duration=a.duration,
        life=tuple(a.life) if a.life else None,
        linger=a.linger,
        pids=a.pid,
        server_ports=a.server_port,
        spread_sources=not a.no_spread,
        seed=a.seed,
        rss_log=a.rss_log,
        json_out=a.json_out,
        warmup=not a.no_warmup,
        per_page=a.per_page,
        browsers=a.browsers,
    )


def run(opts: Options) -> tuple[dict, Stats]:
    load_before = os.getloadavg()
    if not opts.browsers:
        stats = asyncio.run(run_class(opts))
        return summary(stats, opts, load_before), stats
    from bench.load.browsers import Alongside  # Playwright only when asked for

    browsers = Alongside(opts)  # launched during the warm-up, started with the class
    try:
        stats = asyncio.run(run_class(opts, on_start=browsers.go))
        seen = browsers.result(timeout=opts.arrival + opts.think[1] + 120)
    finally:
        browsers.close()
    return summary(stats, opts, load_before, seen), stats


def main(argv: list[str] | None = None) -> int:
    opts = parse_args(argv)
    if opts.per_page:
        costs = asyncio.run(page_costs(opts, opts.per_page))
        for name, ms in costs.items():
            print(f"{name:>12}: {ms:5.1f} ms server CPU per rerun")
        return 0
    s, stats = run(opts)
    print_summary(s, stats)
    if opts.json_out:
        Path(opts.json_out).write_text(json.dumps({**s, "rss": stats.rss}, indent=1))
    b = s.get("browsers", {})
    return 1 if s["errors"] or s["leaks"] or b.get("errors") or b.get("leaks") else 0


if __name__ == "__main__":
    raise SystemExit(main())
