"""A class at its own pace, at the store: seats, nicknames, checks counted exactly once
across processes and outages, the dashboard's counts, the exports. On SQLite and Redis."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import time
from dataclasses import replace

import pytest

from attention_core import PRESETS
from attention_core.exercises import Feedback
from attention_ui.classroom.pace import (
    CHECK,
    SOLVED,
    Event,
    NicknameError,
    Pace,
    Practice,
    SeatInfo,
    board,
    csv_text,
    seat_json,
)
from attention_ui.classroom.rooms import NoRoomError, Rooms
from attention_ui.storage.store import StoreDownError, open_store
from tests.live import test_live_faults as faults

durable_redis, outage = faults.durable_redis, faults.outage  # the faults' fixtures
CAT = PRESETS["cat_mat"].build()


def _url(backend) -> str:
    name, _, handle = backend
    return f"sqlite://{handle}" if name == "sqlite" else handle.url


def _practice(url: str, open_ids=("paper_toy", "hungry")):
    rooms = Rooms(open_store(url))
    room, secret = rooms.open("present", 1, CAT.to_url())
    Pace(rooms).start(room.code, secret, list(open_ids))
    return rooms, room.code, secret


def test_a_seat_is_kept_and_nicknames_are_unique(backend) -> None:
    rooms, code, _ = _practice(_url(backend))
    pace = Pace(rooms)
    ada = pace.take_seat(code, "browser-a", "Ada")
    plain = pace.take_seat(code, "browser-b")
    assert (ada.number, ada.nick, ada.label) == (1, "Ada", "Ada")
    assert (plain.number, plain.label) == (2, "Seat 2")
    # a reload, another process: the same browser is the same seat, nickname and all
    again = Pace(Rooms(open_store(_url(backend)))).take_seat(code, "browser-a")
    assert (again.number, again.nick, again.key) == (1, "Ada", ada.key)
    with pytest.raises(NicknameError, match="already called 'ada'"):
        pace.take_seat(code, "browser-c", "  ada ")  # folded: the same name
    with pytest.raises(NicknameError, match="at most 24"):
        pace.take_seat(code, "browser-c", "x" * 25)
    with pytest.raises(NicknameError, match="plain text"):
        pace.take_seat(code, "browser-c", "a\u200bb")  # a hidden format character
    # the refused browser got no seat; a seat without a name may take one later
    assert pace.take_seat(code, "browser-b", "<b>Bo</b>").nick == "<b>Bo</b>"
    assert pace.take_seat(code, "browser-c").number == 3


def _send_checks(url: str, code: str, plan: list[tuple[str, Event]], out) -> None:
    """One process's sends: each event once, every fifth one twice (a retry)."""
    pace = Pace(Rooms(open_store(url)))
    statuses = []
    for n, (seat, event) in enumerate(plan):
        statuses.append(pace.send(code, seat, event))
        if n % 5 == 0:
            statuses.append(pace.send(code, seat, event))
    out.put(statuses)


def _ev(n: int, ex: str, step: str, ok: bool, slip: str | None, at: float) -> Event:
    return Event(f"e{n}", CHECK, ex, step, ok, slip, at)


def test_checks_from_two_processes_are_counted_once_each(backend) -> None:
    """40 seats, 3 checks each, sent through two processes with retries: 120 counted."""
    url = _url(backend)
    rooms, code, _ = _practice(url)
    pace = Pace(rooms)
    plan = []
    for s in range(40):
        pace.take_seat(code, f"b{s}")
        slip = "unscaled" if s % 4 else "transposed"
        plan += [(f"b{s}", _ev(3 * s, "paper_toy", "scores", s % 4 == 0, None, 10.0 + s)),
                 (f"b{s}", _ev(3 * s + 1, "paper_toy", "scaled", False, slip, 20.0 + s)),
                 (f"b{s}", _ev(3 * s + 2, "paper_toy", "scaled", True, None, 30 + s))]  # fmt: skip
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_send_checks, args=(url, code, half, out))
             for half in (plan[:60], plan[60:])]  # fmt: skip
    for p in procs:
        p.start()
    statuses = out.get(timeout=120) + out.get(timeout=120)
    for p in procs:
        p.join(timeout=60)
    assert statuses.count(True) == 120 and statuses.count(False) == 24
    seats, work = pace.snapshot(code)
    b = board(seats, work, Practice.of(rooms.get(code).practice), now=100.0)
    counts = {c.step: c for c in b.counts if c.exercise == "paper_toy"}
    # scores: one check each, right for seats 0, 4, ..., 36 (10 of 40)
    assert (counts["scores"].tried, counts["scores"].right_first,
            counts["scores"].right_end) == (40, 10, 10)  # fmt: skip
    assert counts["scores"].slips == (("other", 30),)  # wrong with no named slip
    # scaled: wrong then right for everyone; 30 forgot to scale, 10 transposed
    assert (counts["scaled"].tried, counts["scaled"].right_first,
            counts["scaled"].right_end) == (40, 0, 40)  # fmt: skip
    assert counts["scaled"].slips == (("forgot to scale", 30), ("transposed the product", 10))
    assert counts["weights"].tried == 0


def test_a_retry_after_an_outage_counts_once(outage) -> None:
    """Sent before the store stops: counted. While it is down: refused, kept by the phone.
    Back: the kept check counts once, and a second try of it (another process) does not."""
    rooms, code, _ = _practice(outage.url)
    pace = Pace(rooms)
    pace.take_seat(code, "b1")
    before = Event.check("hungry", "scaled", Feedback(True, "yes"))
    kept = Event.check("hungry", "weights", Feedback(False, "no", "softmax_unscaled"))
    assert pace.send(code, "b1", before) is True
    outage.stop()
    with pytest.raises(StoreDownError):
        pace.send(code, "b1", kept)
    outage.start()
    assert pace.send(code, "b1", kept) is True
    assert Pace(Rooms(open_store(outage.url))).send(code, "b1", kept) is False
    assert pace.send(code, "b1", before) is False
    assert sorted(e.id for e in pace.mine(code, "b1")) == sorted([before.id, kept.id])


def test_a_seat_reads_back_only_its_own_work(backend) -> None:
    rooms, code, _ = _practice(_url(backend))
    pace = Pace(rooms)
    for b in ("a", "b"):
        pace.take_seat(code, b)
    pace.send(code, "a", _ev(1, "hungry", "scaled", False, "unscaled", 5.0))
    pace.send(code, "a", replace(_ev(2, "hungry", "scaled", True, None, 6.0), answer="0.84, 0.16"))
    pace.send(code, "b", _ev(3, "hungry", "weights", False, "softmax_unscaled", 7.0))
    pace.send(code, "a", Event("s1", SOLVED, "hungry", "", at=8.0))
    assert [e.id for e in pace.mine(code, "a")] == ["e1", "e2", "s1"]
    doc = json.loads(seat_json(pace.mine(code, "a")))
    steps = {(r["exercise"], r["step"]): r for r in doc["steps"]}
    assert steps[("hungry", "scaled")]["status"] == "right"
    assert steps[("hungry", "scaled")]["attempts"] == 2
    assert steps[("hungry", "scaled")]["answer"] == "0.84, 0.16"  # the text of the last check
    assert steps[("hungry", "weights")]["status"] == "not tried"  # b's try is not a's
    assert steps[("hungry", "output")]["solution_shown"] is True


def test_the_end_of_the_class_deletes_seats_nicknames_and_work(backend) -> None:
    _, store, _ = backend
    rooms, code, secret = _practice(_url(backend))
    pace = Pace(rooms)
    pace.take_seat(code, "a", "Ada")
    pace.send(code, "a", _ev(1, "hungry", "scaled", True, None, 5.0))
    rooms.end(code, secret)
    for part in ("seats", "nicks", "work"):
        assert store.hgetall(f"room:{code}:{part}") == {}
    assert store.get(f"room:{code}:seatno") is None
    with pytest.raises(NoRoomError):
        rooms.get(code)


def test_open_more_and_lock_reach_the_room(backend) -> None:
    rooms, code, secret = _practice(_url(backend), ("hungry",))
    pace = Pace(rooms)
    v = rooms.version(code)
    p = pace.change(code, secret, lock="causal")  # locking to a closed one opens it
    assert (p.open, p.lock) == (("hungry", "causal"), "causal")
    assert rooms.version(code) > v and rooms.get(code).page == "exercises"
    p = pace.change(code, secret, open=["paper_toy", "hungry", "causal"], lock="")
    assert p.open == ("paper_toy", "hungry", "causal")  # the catalogue's order


# ---- the dashboard and the CSV, computed by hand ---------------------------------------------
def test_the_board_grid_counts_stuck_and_csv() -> None:
    p = Practice(("hungry",), stuck_s=600.0, started=0.0)
    ada, bo, cy = SeatInfo("ka", 1, "Ada", 0.0), SeatInfo("kb", 2, "", 0.0), SeatInfo("kc", 3)
    work = {
        "ka": [_ev(1, "hungry", "scaled", True, None, 30.0),
               _ev(2, "hungry", "weights", False, "softmax_unscaled", 60.0),
               _ev(3, "hungry", "weights", False, "softmax_unscaled", 90.0)],
        "kb": [_ev(4, "hungry", "scaled", False, "unscaled", 40.0),
               _ev(5, "hungry", "scaled", True, None, 50.0),
               Event("s", SOLVED, "hungry", "", at=70.0)],
        "kc": [],
    }  # fmt: skip
    b = board([ada, bo, cy], work, p, now=650.0)
    assert b.cell("ka", "hungry", "weights").status == "wrong"
    assert b.cell("ka", "hungry", "weights").slip == "softmax_unscaled"
    assert b.cell("kb", "hungry", "scaled").status == "right"
    assert b.cell("kb", "hungry", "output").status == "solution shown"
    assert b.cell("kc", "hungry", "scaled").status == "not tried"
    scaled, weights, output = b.counts
    assert (scaled.tried, scaled.right_first, scaled.right_end) == (2, 1, 2)
    assert scaled.slips == (("forgot to scale", 1),)
    assert (weights.tried, weights.right_first, weights.right_end) == (1, 0, 0)
    assert weights.slips == (("used the unscaled scores in softmax", 2),)
    assert output.tried == 0
    # Ada: 2 wrong on weights; Cy: nothing for 650 s >= 600; Bo moved at 70 s: 580 s ago
    assert [(s.label, why) for s, why in b.stuck] == [
        ("Ada", "2 wrong tries on 2 · “it was hungry”: weights (used the unscaled scores "
                "in softmax)"),
        ("Seat 3", "no progress for 10 min"),
    ]  # fmt: skip
    text = csv_text(b)
    assert text.startswith("\ufeff")  # a spreadsheet reads the file as UTF-8
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    hungry = "2 · “it was hungry”"  # the exercise and its steps by the dashboard's titles
    assert rows == [
        ["seat", "exercise", "step", "verdict", "slip", "attempts", "seconds"],
        ["Ada", hungry, "Q Kᵀ / √d_k", "right", "", "1", "30.0"],
        ["Ada", hungry, "weights", "wrong", "used the unscaled scores in softmax", "2", "90.0"],
        ["Seat 2", hungry, "Q Kᵀ / √d_k", "right", "", "2", "50.0"],
        ["Seat 2", hungry, "weights", "solution shown", "", "0", ""],
        ["Seat 2", hungry, "output", "solution shown", "", "0", ""],
    ]


def test_a_nickname_that_looks_like_a_formula_is_text_in_the_csv() -> None:
    p = Practice(("hungry",))
    seat = SeatInfo("k", 1, "=HYPERLINK(1)", 0.0)
    b = board([seat], {"k": [_ev(1, "hungry", "scaled", True, None, 1.0)]}, p, time.time())
    assert list(csv.reader(io.StringIO(csv_text(b).removeprefix("\ufeff"))))[1][0] == (
        "'=HYPERLINK(1)"
    )
