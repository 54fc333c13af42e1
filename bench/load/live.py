"""A live class at Streamlit's protocol: simulated students' phones follow one teacher.

    python -m bench.load.live --students 120 --steps 10              # make classroom, SQLite
    python -m bench.load.live --students 120 --steps 10 --redis      # the same on a real Redis

It starts the classroom itself (deploy/classroom.sh: two Streamlit processes behind
nginx, the room in a SQLite file, or in a redis-server it starts on a free port), opens a
room in that store, and then each student does what a phone's browser does:

1. GET ``/?join=CODE`` and open the websocket with that query, as the frontend does;
2. the app joins the room and switches to the teacher's page (presentation mode);
3. like the page's watcher (attention_ui/live/phone.py), it fetches the room's version
   file ``/app/static/live/CODE`` every ``WATCH_S``, and when the number changed sends the
   watcher's trigger: the app reruns, follows the room, and the new step arrives; and it
   sends the heartbeat's trigger every ``HEARTBEAT_S``, as the page's own timer does (one
   request at a time, as the page sends them).

The teacher's click is a write to the room (what the teacher's session writes on Next;
the Chromium test drives that page itself). After each of ``--steps`` step changes it times
how long each student took to show "Step k of n". Then (``--pages``) the teacher takes the
class to the Scaling lab, moves its d_k three times, and goes on to Softmax, Exercises and
back to the slides: each page change is timed until a phone drew that page's heading, each
lab pick until its address holds the new d_k (the lab's slider took it).
``--explorers`` press "Explore on my own" and click (a rerun) every few seconds, timed
while the rest follow. ``--idle`` seconds with nothing changing measure the poll's cost
(the servers' CPU). A leak is the teacher's secret in a message a student receives; errors
are exceptions shown, time-outs, closed sockets. (``--no-pages``: the steps only.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from attention_core import default_scenario  # noqa: E402
from attention_ui.classroom.hub import (  # noqa: E402
    ASK_AGAIN_S,
    HEARTBEAT_S,
    IDLE_AGAIN_S,
    QUIET_MS,
    WATCH_S,
)
from attention_ui.classroom.rooms import Rooms  # noqa: E402
from attention_ui.storage.store import open_store  # noqa: E402
from bench.common.browser import free_port  # noqa: E402
from bench.load import http_get, percentile, source_address  # noqa: E402
from bench.load.live_ask import ask_round  # noqa: E402
from bench.load.seats import RUN_TIMEOUT, cpu_seconds, listening_pids  # noqa: E402

FOLLOW_TARGET_S, BEHIND_S = 2.0, 5.0


@dataclass
class ClassStats:
    joined: int = 0
    lags: dict[int, list[float]] = field(default_factory=dict)  # step -> each student's lag
    clicks: list[float] = field(default_factory=list)  # explorers' reruns, seconds
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)


class Phone:
    """One student's phone: its websocket, the step on its screen, its poll."""

    def __init__(self, index: int, url: str, code: str, secret: str, stats: ClassStats) -> None:
        self.index, self.code, self.secret, self.stats = index, code, secret, stats
        host_port = url.split("://", 1)[1].rstrip("/")
        self.host, port = host_port.split(":")
        self.port = int(port)
        self.source = source_address(index)
        self.query = urlencode({"join": code})
        self.page_hash = ""
        self.beat = ""  # the heartbeat's component (its own timer: live.views.BEAT_JS)
        self.beat_fragment = ""  # the fragment it was drawn in
        self.watcher = ""  # the watcher component's element id
        self.watch_fragment = ""  # the fragment it was drawn in (presentation mode's slide)
        self.version = 0  # the room version the watcher was last given (its data)
        self.asked = 0
        self.runs = 0  # runs that drew the watcher (the heartbeat's does not)
        self.beat_drawn = 0.0  # when a run last drew the heartbeat: the next beat is due after
        self.step = 0
        self.seen: list[tuple[float, int]] = []  # (when, step) each time a step was drawn
        self.buttons: dict[str, str] = {}  # widget key suffix -> element id
        self.inputs: dict[str, str] = {}  # text inputs: key suffix -> element id
        self.answer_sent = 0.0  # when this phone sent its answer (perf_counter)
        self.cached: dict[str, int] = {}  # message hash -> step it carried (0: none)
        self.headings: list[tuple[float, str]] = []  # (when, text) of each page title drawn
        self.cached_headings: dict[str, str] = {}  # message hash -> the page title it drew
        self.queries: list[tuple[float, str]] = []  # (when, query) each address change
        self.http: KeptAlive | None = None  # the watcher's fetches reuse one connection
        self.finished = asyncio.Event()
        self.ws: ClientConnection | None = None
        self.log: list[tuple[float, str]] = []  # (when, what): a late phone's story
        self.running = False  # a run of this session is requested or on (the page's state)
        self.sent = 0.0  # when this phone last sent a request (monotonic)

    async def run(self, stop: asyncio.Event, explore_every: tuple[float, float] | None) -> None:
        try:
            for path in (f"/?{self.query}", "/_stcore/health", "/_stcore/host-config"):
                await http_get(self.host, self.port, path, self.source)
            async with connect(f"ws://{self.host}:{self.port}/_stcore/stream",
                               subprotocols=["streamlit"],
                               origin=f"http://{self.host}:{self.port}", max_size=None,
                               ping_interval=None, open_timeout=RUN_TIMEOUT,
                               local_addr=(self.source, 0)) as ws:  # fmt: skip
                self.ws = ws
                reader = asyncio.create_task(self._read())
                await self._send()
                await asyncio.wait_for(self._until_step(), RUN_TIMEOUT)
                self.stats.joined += 1
                task = self._explore(stop, explore_every) if explore_every else self._poll(stop)
                await task
                reader.cancel()
                if self.http is not None:
                    self.http.close()
        except (OSError, TimeoutError) as exc:
            self.stats.errors.append(f"student {self.index}: {type(exc).__name__}: {exc}")
        except Exception as exc:  # one phone must not end the class
            self.stats.errors.append(f"student {self.index}: unexpected {exc!r}")

    async def _until_step(self) -> None:
        while self.step == 0:
            await asyncio.sleep(0.05)

    async def _send(self, fragment: str = "", trigger: str = "", changed: int = 0,
                    beat: bool = False) -> None:  # fmt: skip
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query
        rerun.page_script_hash = self.page_hash
        if fragment:
            rerun.fragment_id = fragment
            rerun.is_auto_rerun = True
        if trigger:
            w = rerun.widget_states.widgets.add()
            w.id = trigger
            w.trigger_value = True
        if changed:  # the watcher's trigger, as the component sends it: its fragment reruns
            rerun.fragment_id = self.watch_fragment
            w = rerun.widget_states.widgets.add()
            w.id = f"$$STREAMLIT_INTERNAL_KEY_{self.watcher}__events"
            w.json_trigger_value = json.dumps(
                [{"event": "changed", "value": {"want": changed, "shows": self.version}}]
            )
        if beat:  # the heartbeat's trigger: its fragment reruns
            rerun.fragment_id = self.beat_fragment
            w = rerun.widget_states.widgets.add()
            w.id = f"$$STREAMLIT_INTERNAL_KEY_{self.beat}__events"
            w.json_trigger_value = json.dumps(
                [{"event": "beat", "value": {"at": int(time.time()), "shows": self.version}}]
            )
        self.sent = time.monotonic()
        self.running = True  # as the page marks itself "rerun requested"
        rerun.cached_message_hashes.extend(self.cached)
        rerun.context_info.timezone = "UTC"
        rerun.context_info.url = f"http://{self.host}:{self.port}/?{self.query}"
        await self.ws.send(msg.SerializeToString())

    async def answer(self, text: str) -> bool:
        """Type ``text`` into the question's box and press Send: one rerun, as a form sends."""
        deadline = time.monotonic() + 10
        while ("live_answer" not in self.inputs or "Send" not in self.buttons) and (
                time.monotonic() < deadline):  # fmt: skip
            await asyncio.sleep(0.05)
        if "live_answer" not in self.inputs:
            self.stats.errors.append(f"student {self.index}: no question on screen")
            return False
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string, rerun.page_script_hash = self.query, self.page_hash
        box = rerun.widget_states.widgets.add()
        box.id, box.string_value = self.inputs["live_answer"], text
        send = rerun.widget_states.widgets.add()
        send.id, send.trigger_value = self.buttons["Send"], True
        self.answer_sent = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        return True

    async def _poll(self, stop: asyncio.Event) -> None:
        """The page's two timers (live.views.WATCH_JS and BEAT_JS), one request at a time:
        each sends only while the page is idle and not within QUIET_MS of the other. The
        watcher fetches the version file every WATCH_S and asks when it changed (again when
        a run has drawn since the ask, the page went idle IDLE_AGAIN_S after it, or
        ASK_AGAIN_S passed, and it is still not shown); the heartbeat HEARTBEAT_S after the last
        beat or the last run that drew it."""
        last_beat, asked_runs, asked_at = time.monotonic(), 0, 0.0
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), WATCH_S)
            except TimeoutError:
                now = await self._fetch_version()
                since = time.monotonic() - asked_at
                dropped = (
                    self.runs > asked_runs
                    or since > ASK_AGAIN_S
                    or (since > IDLE_AGAIN_S and not self.running)
                )
                if (now and now != self.version and (now != self.asked or dropped)
                        and self.watcher and self._may_request()):  # fmt: skip
                    self.asked, asked_runs, asked_at = now, self.runs, time.monotonic()
                    self.note(f"ask v{now} (shows v{self.version}, frag {self.watch_fragment[:6]})")
                    await self._send(changed=now)
                due = time.monotonic() - max(last_beat, self.beat_drawn) >= HEARTBEAT_S
                if self.beat and due and self._may_request():
                    last_beat = time.monotonic()
                    self.note("heartbeat")
                    await self._send(beat=True)

    def _may_request(self) -> bool:
        since = time.monotonic() - self.sent
        return since > QUIET_MS / 1000 and (not self.running or since > ASK_AGAIN_S)

    async def _fetch_version(self) -> int:
        """GET the room's version file, as the watcher does; 0 when there is none yet."""
        if self.http is None:
            self.http = KeptAlive(self.host, self.port, self.source)
        try:
            body = await self.http.get(f"/app/static/live/{self.code}")
        except OSError:
            return 0
        return int(body) if body.strip().isdigit() else 0

    async def _explore(self, stop: asyncio.Event, every: tuple[float, float]) -> None:
        """Press "Explore on my own", then click (a rerun) every few seconds, timed."""
        while "live_explore" not in self.buttons:
            await asyncio.sleep(0.05)
        await self._run_once(trigger=self.buttons["live_explore"])
        rng = random.Random(self.index)
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), rng.uniform(*every))
            except TimeoutError:
                t0 = time.perf_counter()
                if await self._run_once():
                    self.stats.clicks.append(time.perf_counter() - t0)

    async def _run_once(self, trigger: str = "") -> bool:
        self.finished.clear()
        await self._send(trigger=trigger)
        try:
            await asyncio.wait_for(self.finished.wait(), RUN_TIMEOUT)
            return True
        except TimeoutError:
            self.stats.errors.append(f"student {self.index}: a click took over {RUN_TIMEOUT} s")
            return False

    async def _read(self) -> None:
        while True:
            raw = await self.ws.recv(decode=False)
            if self.secret.encode() in raw:
                self.stats.leaks.append(f"student {self.index} received the teacher's secret")
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            self._handle(fwd, fwd.WhichOneof("type"))

    def _handle(self, fwd: ForwardMsg, kind: str | None) -> None:
        if os.environ.get("LIVE_TRACE"):
            what = fwd.delta.new_element.WhichOneof("type") if kind == "delta" else ""
            self.note(f"{kind}:{what}:{fwd.metadata.delta_path[:3]}")
        if kind == "new_session":
            self.page_hash = fwd.new_session.page_script_hash
        elif kind == "navigation":
            self.page_hash = fwd.navigation.page_script_hash or self.page_hash
        elif kind == "page_info_changed":
            self.query = fwd.page_info_changed.query_string
            self.queries.append((time.perf_counter(), self.query))
        elif kind == "ref_hash":  # a message the phone had: what it carried is drawn again
            self._saw(self.cached.get(fwd.ref_hash, 0))
            if fwd.ref_hash in self.cached_headings:
                self.headings.append((time.perf_counter(), self.cached_headings[fwd.ref_hash]))
        elif kind == "session_status_changed":
            self.running = fwd.session_status_changed.script_is_running
        elif kind == "script_finished":
            self.note(f"finished {fwd.script_finished}")
            if fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                self.finished.set()
        elif kind == "delta":
            self._delta(fwd)

    def _delta(self, fwd: ForwardMsg) -> None:
        element = fwd.delta.new_element
        which = element.WhichOneof("type")
        step = 0
        if which == "progress" and element.progress.text.startswith("Step "):
            step = int(element.progress.text.split()[1])
            self._saw(step)
        elif which == "bidi_component" and element.bidi_component.component_name.endswith(
            ".live_watch"
        ):
            self.watcher = element.bidi_component.id
            self.watch_fragment = fwd.delta.fragment_id
            self.runs += 1
            self.version = int(json.loads(element.bidi_component.json or "{}").get("version", 0))
            self.note(f"watcher v{self.version} frag {self.watch_fragment[:6]}")
        elif which == "bidi_component" and element.bidi_component.component_name.endswith(
            ".live_beat"
        ):
            self.beat, self.beat_fragment = element.bidi_component.id, fwd.delta.fragment_id
            self.beat_drawn = time.monotonic()  # this run said "still here" (BEAT_JS)
        elif which == "heading" and element.heading.tag == "h1":
            self.headings.append((time.perf_counter(), element.heading.body))
            if fwd.metadata.cacheable:
                self.cached_headings[fwd.hash] = element.heading.body
        elif which == "button":
            self.buttons[element.button.id.rsplit("-", 1)[-1]] = element.button.id
        elif which == "text_input":
            self.inputs[element.text_input.id.rsplit("-", 1)[-1]] = element.text_input.id
        elif which == "exception":
            exc = element.exception
            self.stats.errors.append(f"student {self.index}: the app raised {exc.type}: "
                                     f"{exc.message}")  # fmt: skip
        if fwd.metadata.cacheable:
            self.cached[fwd.hash] = step

    def note(self, what: str) -> None:
        self.log.append((time.perf_counter(), what))

    def story(self, since: float) -> str:
        return " | ".join(f"{t - since:.2f}:{w}" for t, w in self.log if t >= since - 1)

    def _saw(self, step: int) -> None:
        if step:
            self.note(f"step {step}")
            self.step = step
            self.seen.append((time.perf_counter(), step))

    def lag(self, step: int, since: float) -> float | None:
        """Seconds from ``since`` until ``step`` was first drawn after it, or None."""
        return next((t - since for t, k in self.seen if t >= since and k == step), None)

    def page_lag(self, heading: str, since: float) -> float | None:
        """Seconds from ``since`` until a page titled ``heading`` was drawn, or None."""
        return next((t - since for t, h in self.headings if t >= since and h == heading), None)

    def query_lag(self, part: str, since: float) -> float | None:
        """Seconds from ``since`` until the address held ``part`` (a pick taken), or None."""
        return next((t - since for t, q in self.queries if t >= since and part in q), None)


class KeptAlive:
    """One HTTP/1.1 connection kept open for a phone's repeated GETs, as a browser's fetch
    reuses its connection to the same server (nginx keeps it 75 s); opened again when the
    server closed it. A new TCP connection every WATCH_S cost this driver, which shares the
    servers' two cores, and nginx more than the phones it stands for would."""

    def __init__(self, host: str, port: int, source: str | None) -> None:
        self.host, self.port, self.source = host, port, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> bytes:
        """The body of a 200 answer (anything else raises OSError)."""
        for attempt in (0, 1):  # a connection the server closed meanwhile: once more
            try:
                return await asyncio.wait_for(self._get(path), RUN_TIMEOUT)
            except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                self.close()
                if attempt or isinstance(exc, ValueError):
                    raise OSError(f"GET {path}: {exc!r}") from exc
        raise AssertionError("unreachable")

    async def _get(self, path: str) -> bytes:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port, local_addr=(self.source, 0) if self.source else None
            )
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n\r\n"
                          .encode())  # fmt: skip
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        length = next((int(x.split(":", 1)[1]) for x in lines
                       if x.lower().startswith("content-length:")), None)  # fmt: skip
        if length is None:
            raise ValueError(f"no Content-Length in {lines[0]!r}")
        body = await self.reader.readexactly(length)
        if any(x.lower() == "connection: close" for x in lines):
            self.close()
        if not lines[0].startswith("HTTP/1.1 200"):
            raise ValueError(f"GET {path} answered {lines[0]!r}")
        return body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def http_body(host: str, port: int, path: str, source: str | None) -> bytes:
    """A plain HTTP/1.1 GET's body (anything but 200 raises OSError)."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, local_addr=(source, 0) if source else None),
        RUN_TIMEOUT,
    )
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
                     .encode())  # fmt: skip
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), RUN_TIMEOUT)
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise OSError(f"GET {path} answered {head[:20]!r}")
    return body


# ---- the classroom ---------------------------------------------------------------------------
class Classroom:
    """deploy/classroom.sh with two processes on free ports, and its store."""

    def __init__(self, redis: bool, workers: int = 2) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="bench-live-"))
        self.port, self.workers = free_port(), workers
        self.backends = [free_port() for _ in range(workers)]  # checked free, then reused
        self.redis_proc: subprocess.Popen | None = None
        if redis:
            rport = free_port()
            self.redis_proc = subprocess.Popen(
                ["redis-server", "--port", str(rport), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.tmp)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
            self.store_url = f"redis://127.0.0.1:{rport}/0"
        else:
            self.store_url = f"sqlite://{self.tmp / 'live.db'}"
        env = {**os.environ, "PORT": str(self.port), "WORKERS": str(workers),
               "BACKEND_PORT": str(min(self.backends)), "HOST": "127.0.0.1",
               "LIVE_STORE": self.store_url, "PYTHON": sys.executable,
               "ATTENTION_LAB_PUBLIC_URL": f"http://127.0.0.1:{self.port}"}  # fmt: skip
        self.backends = [min(self.backends) + i for i in range(workers)]
        self.proc = subprocess.Popen(["bash", "deploy/classroom.sh"], cwd=ROOT, env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     start_new_session=True)  # fmt: skip
        self.url = f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"classroom ended: {self.proc.stderr.read().decode()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    pids = self.pids()
                    if len(pids) >= self.workers:
                        return
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError("the classroom did not come up")

    def pids(self) -> list[int]:
        return sorted({p for port in self.backends for p in listening_pids(port)})

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.redis_proc is not None:
            self.redis_proc.terminate()
            self.redis_proc.wait(timeout=10)


# The teacher's page changes and lab picks after the steps: (what, the room's change, how a
# phone shows it: ("page", its title) or ("query", a part of its address)).
PAGE_PLAN = (
    (
        "page: Scaling lab",
        {"page": "scaling-lab", "params": {"lab_dk": 64}},
        ("page", "Scaling lab"),
    ),
    ("pick: d_k 128", {"params": {"lab_dk": 128}}, ("query", "lab_dk=128")),
    ("pick: d_k 256", {"params": {"lab_dk": 256}}, ("query", "lab_dk=256")),
    ("pick: d_k 512", {"params": {"lab_dk": 512}}, ("query", "lab_dk=512")),
    ("page: Softmax", {"page": "softmax", "params": {}}, ("page", "6. Softmax")),
    ("page: Exercises", {"page": "exercises", "params": {}}, ("page", "Exercises")),
    ("page: the slides", {"page": "present", "params": {}}, ("page", "Presentation mode")),
)


async def page_round(rooms: Rooms, code: str, secret: str, followers: list[Phone], gap: float,
                     pids: list[int]) -> tuple[dict[str, list[float]], list[str]]:  # fmt: skip
    """Take the class through PAGE_PLAN; each change's lags, and who was behind after 5 s.
    Each change's server CPU (both processes, over the 5 s that follow it) per follower is
    printed: what one phone's follow of that change costs."""
    lags, late = {}, []
    for name, change, (kind, shown) in PAGE_PLAN:
        changed, cpu0 = time.perf_counter(), cpu_seconds(pids)
        rooms.drive(code, secret, **change)
        await asyncio.sleep(BEHIND_S)
        cpu_ms = (cpu_seconds(pids) - cpu0) * 1000 / max(1, len(followers))
        print(f"{name}: server CPU {cpu_ms:.1f} ms per follower", file=sys.stderr)
        seen = [(p, p.page_lag(shown, changed) if kind == "page" else
                 p.query_lag(shown, changed)) for p in followers]  # fmt: skip
        lags[name] = [x for _, x in seen if x is not None]
        late += [f"student {p.index}: {name} not shown" for p, x in seen if x is None]
        for p, x in seen:
            if x is None or x > FOLLOW_TARGET_S:
                print(f"  late student {p.index}: {p.story(changed)}", file=sys.stderr)
        await asyncio.sleep(max(0.0, gap - BEHIND_S))
    return lags, late


def page_summary(lags: dict[str, list[float]], late: list[str]) -> dict:
    pages = [x for n, v in lags.items() if n.startswith("page") for x in v]
    picks = [x for n, v in lags.items() if n.startswith("pick") for x in v]
    p95 = lambda xs: round(percentile(xs, 95), 3) if xs else None  # noqa: E731
    return {"page_follow_p95_s": p95(pages), "page_follow_max_s": round(max(pages), 3)
            if pages else None, "pick_follow_p95_s": p95(picks),
            "pick_follow_max_s": round(max(picks), 3) if picks else None,
            "page_follow_p95_s_each": {n: p95(v) for n, v in lags.items()},
            "pages_behind_after_5s": len(late), "pages_behind_first": late[:5]}  # fmt: skip


def step_plan(changes: int) -> list[int]:
    """``changes`` step changes that stay within the default example's slides: 2, 3, ... n,
    n - 1, ..., 1, 2, ... (each one a new step for every phone)."""
    from attention_ui.practice.present import steps

    s = default_scenario()
    n = len(steps(s, s.trace()))
    cycle = [*range(2, n + 1), *range(n - 1, 0, -1)]  # never the same step twice running
    return [cycle[i % len(cycle)] for i in range(changes)]


async def run_class(room: Classroom, opts: argparse.Namespace) -> dict:
    rooms = Rooms(open_store(room.store_url))
    opened, secret = rooms.open("present", 1, default_scenario().to_url())
    stats, stop = ClassStats(), asyncio.Event()
    phones = [Phone(i, room.url, opened.code, secret, stats) for i in range(opts.students)]
    explorers = set(range(0, opts.students, max(1, opts.students // max(1, opts.explorers))))
    explorers = set(sorted(explorers)[: opts.explorers])
    tasks = []
    for i, phone in enumerate(phones):  # they arrive within --arrival seconds
        tasks.append(asyncio.create_task(phone.run(stop, opts.think if i in explorers else None)))
        await asyncio.sleep(opts.arrival / max(1, opts.students))
    deadline = time.monotonic() + 60
    while stats.joined + len(stats.errors) < opts.students and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)  # every phone's poll is running
    pids = room.pids()
    cpu0, t0 = cpu_seconds(pids), time.monotonic()  # the idle window: the poll's cost
    await asyncio.sleep(opts.idle)
    idle_cpu = (cpu_seconds(pids) - cpu0) / (time.monotonic() - t0)
    followers = [p for i, p in enumerate(phones) if i not in explorers]
    late: list[str] = []
    driver0, steps0 = time.process_time(), time.monotonic()  # this driver's own CPU meanwhile
    for n, k in enumerate(step_plan(opts.steps)):  # forward, then back, within the slides
        changed, cpu0 = time.perf_counter(), cpu_seconds(pids)
        rooms.drive(opened.code, secret, step=k)
        await asyncio.sleep(BEHIND_S)
        cpu_ms = (cpu_seconds(pids) - cpu0) * 1000 / max(1, len(followers))
        print(f"step {k}: server CPU {cpu_ms:.1f} ms per follower", file=sys.stderr)
        for p in followers:
            if (lag := p.lag(k, changed)) is None or lag > 2.5:
                print(f"  late student {p.index}: {p.story(changed)}", file=sys.stderr)
        stats.lags[n] = [lag for p in followers if (lag := p.lag(k, changed)) is not None]
        late += [f"student {p.index} at step {p.step}, not {k}" for p in followers
                 if p.lag(k, changed) is None]  # fmt: skip
        await asyncio.sleep(max(0.0, opts.gap - BEHIND_S))
    driver_cpu = (time.process_time() - driver0) / (time.monotonic() - steps0)
    paged = (page_summary(*await page_round(rooms, opened.code, secret, followers, opts.gap, pids))
             if opts.pages else {})  # fmt: skip
    asked = (await ask_round(rooms, opened.code, secret, followers, opts, FOLLOW_TARGET_S + 1)
             if opts.ask else {})  # fmt: skip
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    every = [x for lags in stats.lags.values() for x in lags]
    per_step = [percentile(lags, 95) for lags in stats.lags.values() if lags]
    return {
        "store": "redis" if room.redis_proc else "sqlite", "students": opts.students,
        "followers": len(followers), "explorers": len(explorers), "joined": stats.joined,
        "steps": opts.steps,
        "follow_p95_s_worst_step": round(max(per_step), 3) if per_step else None,
        "follow_p50_s": round(percentile(every, 50), 3) if every else None,
        "follow_p95_s": round(percentile(every, 95), 3) if every else None,
        "follow_max_s": round(max(every), 3) if every else None,
        "follow_share_within_2s": round(sum(x <= FOLLOW_TARGET_S for x in every) / len(every), 4)
        if every else None,
        "follow_per_half_second": [sum(h / 2 <= x < (h + 1) / 2 for x in every) for h in range(10)],
        "follow_p95_s_per_step": [round(x, 2) for x in per_step],
        "behind_after_5s": len(late), "behind_first": late[:5],
        "explorer_clicks": len(stats.clicks),
        "explorer_click_p95_s": round(percentile(stats.clicks, 95), 3) if stats.clicks else None,
        "idle_poll_cpu_share_of_one_core": round(idle_cpu, 3),
        "driver_cpu_share_while_following": round(driver_cpu, 3),  # the 120 phones' stand-in
        **paged,
        **asked,
        "errors": len(stats.errors), "leaks": len(stats.leaks),
        "first_errors": stats.errors[:5], "load_average": os.getloadavg(),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--students", type=int, default=120)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--explorers", type=int, default=10)
    p.add_argument("--arrival", type=float, default=20.0, help="all join within this many s")
    p.add_argument("--idle", type=float, default=20.0, help="s with no change: the poll's cost")
    p.add_argument("--gap", type=float, default=6.0, help="s between two step changes")
    p.add_argument("--think", type=float, nargs=2, default=(2.0, 5.0))  # an explorer's pause
    p.add_argument("--redis", action="store_true", help="the room in a real redis-server")
    p.add_argument(
        "--no-pages",
        dest="pages",
        action="store_false",
        help="skip the page changes and lab picks after the steps",
    )
    p.add_argument("--ask", action="store_true", help="then ask the class; all answer")
    p.add_argument("--answer-window", type=float, default=3.0, help="s in which all answer")
    p.add_argument(
        "--exercise",
        action="store_true",
        help="ask a lesson's exercise step (the post's weights) instead of a cell",
    )
    p.add_argument("--json", default=None, help="also write the summary here")
    opts = p.parse_args(argv)
    room = Classroom(redis=opts.redis)
    try:
        room.wait_ready()
        summary = asyncio.run(run_class(room, opts))
    finally:
        room.stop()
    print(json.dumps(summary, indent=1))
    if opts.json:
        Path(opts.json).write_text(json.dumps(summary, indent=1))
    behind = summary["behind_after_5s"] + summary.get("pages_behind_after_5s", 0)
    return 1 if summary["errors"] or summary["leaks"] or behind else 0


if __name__ == "__main__":
    raise SystemExit(main())
