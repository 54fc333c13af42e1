"""A class at its own pace at Streamlit's protocol: 120 phones check exercise steps, one
teacher's console shows them (issue 32).

    python -m bench.load.live_pace                  # make classroom (2 processes), SQLite
    python -m bench.load.live_pace --redis          # the same with the room in redis-server

It starts the classroom as ``bench.load.live`` does, opens a room and starts a practice on
the paper toy (what the console's *Start the practice* writes). Then:

- each of ``--students`` phones opens ``/?join=CODE`` (the app takes it to the Exercises
  page), every third one gives a nickname, and every ``--think`` (10-30 s) seconds it types
  an answer into the next step and presses Check: a named slip of that step first about
  half of the time, else the right answer; after the last step it starts again. Each check
  is timed until its run finished, as the browser's spinner ends. The phones also send
  their heartbeat fragment's run every 5 s, as the page's timer does;
- ``--solo`` students do the same on the Exercises page with no class (the same run, the
  same machine): the class's checks are compared with theirs (the ratio of the medians and
  of the 95th percentiles);
- the teacher's console (``?teach=CODE.SECRET``) runs its timed fragments as the frontend
  does; each run of the dashboard is timed, and its grid is read: a check counts as shown
  when the seat's cell says what that check made of it (verdict, slip, attempts). The lag
  runs from the moment the phone pressed Check.

Errors: exceptions shown, time-outs, closed sockets, a phone that never saw its seat. A leak
is a phone that received another student's nickname, or the teacher's secret.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import sys
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
from attention_core.exercises import MISTAKE_LABELS, check_answer, exercise_by_id  # noqa: E402
from attention_core.exercises.text import format_value  # noqa: E402
from attention_ui.classroom.pace import Pace  # noqa: E402
from attention_ui.classroom.rooms import Rooms  # noqa: E402
from attention_ui.storage.store import open_store  # noqa: E402
from bench.load import http_get, percentile, source_address  # noqa: E402
from bench.load.live import Classroom  # noqa: E402
from bench.load.seats import RUN_TIMEOUT, cpu_seconds  # noqa: E402

EXERCISE = "paper_toy"
SHOWN_TARGET_S, RERUN_TARGET_S = 2.0, 1.0
_SEAT = re.compile(r"you are seat (\d+)")


@dataclass
class Stats:
    checks: list[float] = field(default_factory=list)  # the class's checks, seconds
    solo_checks: list[float] = field(default_factory=list)  # the Exercises page alone
    dashboard_runs: list[float] = field(default_factory=list)
    expected: list[tuple[str, str, str, float]] = field(default_factory=list)  # seat, col, cell, t
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)


class Session:
    """One browser session at the protocol: a websocket, its widgets, its timed fragments."""

    def __init__(self, name: str, url: str, path: str, query: dict, index: int, stats: Stats,
                 secrets: tuple[bytes, ...] = ()) -> None:  # fmt: skip
        host_port = url.split("://", 1)[1].rstrip("/")
        self.host, port = host_port.split(":")
        self.port, self.path, self.name, self.stats = int(port), path, name, stats
        self.source = source_address(index)
        self.query = urlencode(query)
        self.page_hash, self.page_name = "", path.strip("/")
        self.inputs: dict[str, str] = {}
        self.buttons: dict[str, str] = {}
        self.fragments: dict[str, float] = {}  # fragment id -> interval (auto_rerun)
        self.finished = asyncio.Event()
        self.lock = asyncio.Lock()  # one run at a time, as the frontend queues them
        self.secrets = secrets  # what this session must never receive
        self.markdown: list[tuple[float, str]] = []
        self.ws: ClientConnection | None = None

    async def open(self) -> None:
        await http_get(self.host, self.port, f"{self.path}?{self.query}", self.source)
        self.ws = await connect(f"ws://{self.host}:{self.port}/_stcore/stream",
                                subprotocols=["streamlit"],
                                origin=f"http://{self.host}:{self.port}", max_size=None,
                                ping_interval=None, open_timeout=RUN_TIMEOUT,
                                local_addr=(self.source, 0))  # fmt: skip
        self.reader = asyncio.create_task(self._read())
        await self.run()

    async def close(self) -> None:
        self.reader.cancel()
        if self.ws is not None:
            await self.ws.close()

    async def run(self, widgets: list[tuple[str, str, object]] = (),
                  fragment: str = "") -> float | None:  # fmt: skip
        """One rerun (widgets: (id, "string_value" or "trigger_value", value)); its seconds
        until the run finished, or None after RUN_TIMEOUT (an error)."""
        async with self.lock:
            msg = BackMsg()
            rerun = msg.rerun_script
            rerun.query_string, rerun.page_script_hash = self.query, self.page_hash
            rerun.page_name = "" if self.page_hash else self.page_name
            if fragment:
                rerun.fragment_id, rerun.is_auto_rerun = fragment, True
            for wid, kind, value in widgets:
                w = rerun.widget_states.widgets.add()
                w.id = wid
                setattr(w, kind, value)
            rerun.context_info.timezone = "UTC"
            rerun.context_info.url = f"http://{self.host}:{self.port}{self.path}?{self.query}"
            self.finished.clear()
            t0 = time.perf_counter()
            await self.ws.send(msg.SerializeToString())
            try:
                await asyncio.wait_for(self.finished.wait(), RUN_TIMEOUT)
            except TimeoutError:
                self.stats.errors.append(f"{self.name}: a run took over {RUN_TIMEOUT} s")
                return None
            return time.perf_counter() - t0

    async def _read(self) -> None:
        while True:
            raw = await self.ws.recv(decode=False)
            for secret in self.secrets:
                if secret in raw:
                    self.stats.leaks.append(f"{self.name} received {secret[:12]!r}")
            fwd = ForwardMsg()
            fwd.ParseFromString(raw)
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                self.page_hash = fwd.new_session.page_script_hash
            elif kind == "navigation":
                self.page_hash = fwd.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "auto_rerun":
                self.fragments[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
            elif kind == "script_finished":
                if fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    self.finished.set()
            elif kind == "delta":
                self._delta(fwd)

    def _delta(self, fwd: ForwardMsg) -> None:
        element = fwd.delta.new_element
        which = element.WhichOneof("type")
        if which == "button":
            self.buttons[element.button.id.rsplit("-", 1)[-1]] = element.button.id
        elif which == "text_input":
            self.inputs[element.text_input.id.rsplit("-", 1)[-1]] = element.text_input.id
        elif which == "markdown":
            self.markdown.append((time.perf_counter(), element.markdown.body))
        elif which == "exception":
            exc = element.exception
            self.stats.errors.append(f"{self.name}: the app raised {exc.type}: {exc.message}")


def answers() -> list[tuple[str, list[tuple[str, str]]]]:
    """Each step of the exercise: its id, and (what is typed, the cell's verdict words)."""
    plan = []
    for step in exercise_by_id(EXERCISE).steps:
        typed = [format_value(step.expected, step.decimals)]
        typed += sorted({format_value(m.value, step.decimals) for m in step.mistakes})
        kinds = []
        for text in typed:  # the checker's verdict on it is what the phone is told
            fb = check_answer(step, text)
            if fb.correct or fb.mistake:
                kinds.append((text, "✓" if fb.correct else f"✗ {MISTAKE_LABELS[fb.mistake]}"))
        plan.append((step.id, kinds))
    return plan


async def student(s: Session, index: int, in_class: bool, opts, stop: asyncio.Event,
                  nick: str) -> None:  # fmt: skip
    """Join, maybe give a nickname, then check a step every --think seconds."""
    rng = random.Random(index)
    plan = answers()
    try:
        await s.open()
        box = f"ex_{EXERCISE}_{plan[0][0]}"
        deadline = time.monotonic() + RUN_TIMEOUT
        while box not in s.inputs and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        seat = ""
        if in_class:
            seat = await _seat(s, nick)
            if not seat:
                s.stats.errors.append(f"{s.name}: no seat on the page")
                return
        beats = asyncio.create_task(_heartbeat(s, stop))
        attempts: dict[str, int] = {}
        k = 0
        await asyncio.sleep(rng.uniform(0, opts.think[1]))  # they start at various times
        while not stop.is_set():
            step, kinds = plan[k % len(plan)]
            right, slips = kinds[0], kinds[1:]
            typed, cell = rng.choice(slips) if slips and rng.random() < 0.5 else right
            if cell == "✓":
                k += 1
            attempts[step] = attempts.get(step, 0) + 1
            n = attempts[step]
            box, check = f"ex_{EXERCISE}_{step}", f"ex_{EXERCISE}_{step}_check"
            pressed = time.perf_counter()
            took = await s.run([(s.inputs[box], "string_value", typed),
                                (s.buttons[check], "trigger_value", True)])  # fmt: skip
            if took is not None:
                (s.stats.checks if in_class else s.stats.solo_checks).append(took)
                if in_class:
                    shown = cell + (f" ({n})" if n > 1 else "")
                    s.stats.expected.append((seat, f"1·{step}", shown, pressed))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), rng.uniform(*opts.think))
        beats.cancel()
    except (OSError, TimeoutError) as exc:
        s.stats.errors.append(f"{s.name}: {type(exc).__name__}: {exc}")
    except Exception as exc:  # one phone must not end the class
        s.stats.errors.append(f"{s.name}: unexpected {exc!r}")
    finally:
        if s.ws is not None:
            await s.close()


async def _seat(s: Session, nick: str) -> str:
    """The seat's label on the console: its nickname, else "Seat N" (from the phone's card)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = [m.group(1) for _, body in s.markdown if (m := _SEAT.search(body))]
        if found and (not nick or "Use it" in s.buttons):
            break
        await asyncio.sleep(0.05)
    if not found:
        return ""
    if nick:
        await s.run([(s.inputs["pace_nick"], "string_value", nick),
                     (s.buttons["Use it"], "trigger_value", True)])  # fmt: skip
        return nick
    return f"Seat {found[-1]}"


async def _heartbeat(s: Session, stop: asyncio.Event) -> None:
    """The phone's timed fragments (the live class's 5 s heartbeat), as the page's timer."""
    while not stop.is_set():
        await asyncio.sleep(5.0)
        for fid in list(s.fragments):
            await s.run(fragment=fid)


async def teacher(s: Session, stop: asyncio.Event) -> None:
    """The console: its timed fragments run at their intervals; the dashboard's are timed."""
    await s.open()
    last: dict[str, float] = {}
    while not stop.is_set():
        await asyncio.sleep(0.05)
        for fid, every in list(s.fragments.items()):
            if time.monotonic() - last.get(fid, 0.0) >= every:
                last[fid] = time.monotonic()
                took = await s.run(fragment=fid)
                if took is not None and every == 1.0:
                    s.stats.dashboard_runs.append(took)
    await s.close()


def shown_lags(markdown: list[tuple[float, str]], expected: list) -> tuple[list[float], int]:
    """For each expected (seat, column, cell, pressed): seconds until the console's grid
    first showed that cell so after it was pressed; and how many never showed."""
    seen: dict[tuple[str, str, str], float] = {}
    for t, body in markdown:
        lines = body.splitlines()
        if not lines or not lines[0].startswith("| Student |"):
            continue
        heads = [h.strip().replace("\\", "") for h in lines[0].strip("|").split("|")]
        for line in lines[2:]:
            cells = [c.strip().replace("\\", "") for c in line.strip("|").split("|")]
            for head, cell in zip(heads[1:], cells[1:], strict=False):
                seen.setdefault((cells[0], head, cell), t)
    lags, missing = [], 0
    for seat, col, cell, pressed in expected:
        t = seen.get((seat, col, cell))
        if t is None:
            missing += 1
        else:
            lags.append(max(0.0, t - pressed))
    return lags, missing


async def run(room: Classroom, opts: argparse.Namespace) -> dict:
    rooms = Rooms(open_store(room.store_url))
    opened, secret = rooms.open("present", 1, default_scenario().to_url())
    Pace(rooms).start(opened.code, secret, [EXERCISE])
    stats, stop, console_stop = Stats(), asyncio.Event(), asyncio.Event()
    nicks = {i: f"Nick{i:03d}x" for i in range(0, opts.students, 3)}
    console = Session("teacher", room.url, "/console",
                      {"teach": f"{opened.code}.{secret}"}, opts.students + opts.solo + 1,
                      stats)  # fmt: skip
    tasks = [asyncio.create_task(teacher(console, console_stop))]
    for i in range(opts.students + opts.solo):
        in_class = i < opts.students
        others = (*(n.encode() for k, n in nicks.items() if k != i), secret.encode())
        query = {"join": opened.code} if in_class else {}
        s = Session(f"student {i}" if in_class else f"solo {i}", room.url,
                    "/" if in_class else "/exercises", query, i, stats, others)  # fmt: skip
        tasks.append(asyncio.create_task(student(s, i, in_class, opts, stop, nicks.get(i, ""))))
        await asyncio.sleep(opts.arrival / (opts.students + opts.solo))
    pids = room.pids()
    cpu0, t0 = cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(opts.duration)
    cpu = (cpu_seconds(pids) - cpu0) / (time.monotonic() - t0)
    stop.set()
    await asyncio.gather(*tasks[1:], return_exceptions=True)
    await asyncio.sleep(SHOWN_TARGET_S + 1)  # the console goes on until the last checks show
    console_stop.set()
    await tasks[0]
    lags, missing = shown_lags(console.markdown, stats.expected)
    seats, work = Pace(rooms).snapshot(opened.code)
    counted = sum(len(v) for v in work.values())
    p = lambda xs, q: round(percentile(xs, q), 3) if xs else None  # noqa: E731
    return {
        "store": "redis" if room.redis_proc else "sqlite", "students": opts.students,
        "solo": opts.solo, "seats": len(seats), "duration_s": opts.duration,
        "checks": len(stats.checks), "checks_counted_in_store": counted,
        "check_p50_s": p(stats.checks, 50), "check_p95_s": p(stats.checks, 95),
        "solo_check_p50_s": p(stats.solo_checks, 50),
        "solo_check_p95_s": p(stats.solo_checks, 95),
        "check_ratio_p50": round(percentile(stats.checks, 50) / percentile(stats.solo_checks, 50),
                                 2) if stats.checks and stats.solo_checks else None,
        "check_ratio_p95": round(percentile(stats.checks, 95) / percentile(stats.solo_checks, 95),
                                 2) if stats.checks and stats.solo_checks else None,
        "dashboard_shown_p50_s": p(lags, 50), "dashboard_shown_p95_s": p(lags, 95),
        "dashboard_shown_max_s": round(max(lags), 3) if lags else None,
        "dashboard_shown_within_2s": round(sum(x <= SHOWN_TARGET_S for x in lags) / len(lags), 4)
        if lags else None,
        "dashboard_never_shown": missing,
        "dashboard_runs": len(stats.dashboard_runs),
        "dashboard_rerun_p50_s": p(stats.dashboard_runs, 50),
        "dashboard_rerun_p95_s": p(stats.dashboard_runs, 95),
        "dashboard_rerun_max_s": round(max(stats.dashboard_runs), 3)
        if stats.dashboard_runs else None,
        "servers_cpu_share_of_one_core": round(cpu, 3),
        "errors": len(stats.errors), "leaks": len(stats.leaks),
        "first_errors": stats.errors[:5], "first_leaks": stats.leaks[:5],
        "load_average": os.getloadavg(),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--students", type=int, default=120)
    p.add_argument("--solo", type=int, default=12, help="on the Exercises page, no class")
    p.add_argument("--arrival", type=float, default=20.0, help="all join within this many s")
    p.add_argument("--think", type=float, nargs=2, default=(10.0, 30.0))
    p.add_argument("--duration", type=float, default=150.0, help="s of checking")
    p.add_argument("--redis", action="store_true", help="the room in a real redis-server")
    p.add_argument("--json", default=None, help="also write the summary here")
    opts = p.parse_args(argv)
    room = Classroom(redis=opts.redis)
    try:
        room.wait_ready()
        summary = asyncio.run(run(room, opts))
    finally:
        room.stop()
    print(json.dumps(summary, indent=1))
    if opts.json:
        Path(opts.json).write_text(json.dumps(summary, indent=1))
    return 1 if summary["errors"] or summary["leaks"] or summary["dashboard_never_shown"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
