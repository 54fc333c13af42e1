"""A student's answer in Chromium, against Streamlit's floor in the same run (issue 19).

    python -m bench.pages.bench_ask [--rounds 12]

One ``streamlit run bench/floors/floor_app.py`` (a toggle redrawing one 6 x 6 heatmap) and one
``streamlit run app.py`` with its own SQLite store; a phone (390 x 844) joins a room opened
in that store. Each round alternates a floor toggle with a question: the teacher asks
(through the store, what the Ask button writes), alternately a cell of the room's example
and the post's weights step of the exercises, and the phone

- shows it: from the store's write until the answer box is on screen (the phone's watch
  fetches the room's version every WATCH_S, so this is the poll plus a rerun: not a ratio);
- sends it: from pressing Send until "Sent: your first answer is the one counted" is
  drawn (one rerun: the exercises' checker and one write to the store), as a ratio to the
  floor's toggle.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from attention_core import default_scenario
from attention_ui.classroom.questions import EXERCISE, Questions
from attention_ui.classroom.rooms import Rooms
from attention_ui.storage.store import open_store
from bench.common.browser import (
    CHROMIUM_ARGS,
    FLOOR_APP,
    find_chromium,
    serving,
    settle,
    time_change,
)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
ANSWERS = {"cell": "0.42", EXERCISE: "0.844, 0.114, 0.042"}
CARD = ".st-key-live_question"


def ask(q: Questions, code: str, secret: str, kind: str) -> None:
    if kind == EXERCISE:
        q.ask(code, secret, EXERCISE, 0, 0, "reveal", False, exercise="hungry",
              step_id="weights")  # fmt: skip
    else:
        q.ask(code, secret, "weights", 2, 1, "reveal", False)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=12)
    opts = p.parse_args(argv)
    from playwright.sync_api import sync_playwright

    out: dict[str, list[float]] = {"floor": [], "show cell": [], "show exercise": [],
                                   "send cell": [], "send exercise": []}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["LIVE_STORE"] = f"sqlite://{Path(tmp) / 'live.db'}"
        rooms = Rooms(open_store())
        room, secret = rooms.open("present", 5, default_scenario().to_url())
        q = Questions(rooms)
        with serving(FLOOR_APP) as floor_url, serving("app.py") as app_url, \
                sync_playwright() as pw:  # fmt: skip
            browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            floor = browser.new_page(viewport={"width": 1400, "height": 1000})
            floor.goto(floor_url + "/")
            floor.wait_for_selector(".st-key-floor_heatmap .heatmap-label", timeout=60_000)
            settle(floor)
            phone = browser.new_context(**PHONE).new_page()
            phone.goto(f"{app_url}/?join={room.code}")
            phone.wait_for_selector("[data-testid='stProgress']", timeout=60_000)
            settle(phone)
            for k in range(opts.rounds):
                floor.locator(".st-key-floor_toggle input").first.focus()
                out["floor"].append(time_change(
                    floor, ".st-key-floor_heatmap .heatmap-label",
                    lambda: floor.keyboard.press("Space")))  # fmt: skip
                kind = "cell" if k % 2 == 0 else EXERCISE
                t0 = time.perf_counter()
                ask(q, room.code, secret, kind)
                box = phone.locator(f"{CARD} input")
                box.wait_for(state="visible", timeout=30_000)
                out[f"show {kind}"].append((time.perf_counter() - t0) * 1000)
                settle(phone)
                box.fill(ANSWERS[kind])
                send = phone.locator(f"{CARD} button", has_text="Send")
                out[f"send {kind}"].append(
                    time_change(phone, f"{CARD} [data-testid='stCaptionContainer']", send.click)
                )
                assert "first answer is the one counted" in phone.locator(CARD).inner_text()
            browser.close()
    floor_ms = statistics.median(out["floor"])
    print(f"load average {os.getloadavg()}")
    for name, ms in out.items():
        ratio = "" if not name.startswith(("send", "floor")) else (
            f"  {statistics.median(ms) / floor_ms:.2f}x floor")  # fmt: skip
        print(
            f"{name:15s} n={len(ms):2d} median {statistics.median(ms):7.0f} ms  "
            f"min {min(ms):6.0f} ms  max {max(ms):6.0f} ms{ratio}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
