"""Where a phone's follow of the teacher's step goes, in Chromium: a timeline per step.

A projector tab goes live on presentation mode, phones join, and the teacher presses Next a
few times. For each step, from the click: when the projector's run ended, every phone's
fetch of the room's version file (and the number it read), its rerun request (the
watcher's trigger), the end of its run, and when "Step k of" was drawn. One server
(``streamlit run app.py`` on loopback, a temporary SQLite store) or ``--url`` of a running
``make classroom``.

    python -m bench.profile.follow_timeline [--phones 3] [--steps 5] [--url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from contextlib import ExitStack

from playwright.sync_api import Page, expect, sync_playwright
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.common.browser import CHROMIUM_ARGS, find_chromium, serving, settle

# In the page: the wall-clock time of the first frame that shows ``text`` (every frame,
# not Playwright's polling, whose intervals grow to a second).
WATCH_FOR = """(text) => {
  window.__seenAt = 0;
  const look = () => {
    if (document.body.innerText.includes(text)) { window.__seenAt = Date.now(); return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


class Tape:
    """Timestamped events of one page (ms since the tape's t0, reset per step)."""

    def __init__(self, name: str, page: Page) -> None:
        self.name, self.events, self.t0 = name, [], time.perf_counter()
        page.on("websocket", self._socket)
        page.on("response", self._response)

    def mark(self, what: str) -> None:
        self.events.append((round((time.perf_counter() - self.t0) * 1000), what))

    def _response(self, response) -> None:
        if "/static/live/" in response.url:
            try:
                body = response.text().strip()
            except Exception:
                body = "?"
            self.mark(f"fetch {response.status} v{body}")

    def _socket(self, ws) -> None:
        ws.on("framesent", self._sent)
        ws.on("framereceived", self._received)

    def _sent(self, payload) -> None:
        msg = BackMsg()
        try:
            msg.ParseFromString(payload if isinstance(payload, bytes) else payload.encode())
        except Exception:
            return
        kind = msg.WhichOneof("type")
        if kind == "rerun_script":
            rr = msg.rerun_script
            ws = [
                w.id.split("-")[-1][:24]
                for w in rr.widget_states.widgets
                if w.HasField("trigger_value") or w.HasField("json_trigger_value")
            ]
            self.mark(f"rerun frag={rr.fragment_id[:8] or '-'} triggers={ws}")
        elif kind:
            self.mark(f"send {kind}")

    def _received(self, payload) -> None:
        msg = ForwardMsg()
        try:
            msg.ParseFromString(payload if isinstance(payload, bytes) else payload.encode())
        except Exception:
            return
        kind = msg.WhichOneof("type")
        if kind == "script_finished":
            self.mark(f"finished {msg.script_finished}")
        elif kind == "new_session":
            self.mark("new_session (run starts)")
        elif kind == "session_status_changed":
            self.mark(f"status running={msg.session_status_changed.script_is_running}")


def run(url: str, phones: int, steps: int) -> dict:
    out: dict = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        teacher = browser.new_context(viewport={"width": 1280, "height": 720})
        projector = teacher.new_page()
        projector_tape = Tape("projector", projector)  # before its socket opens
        projector.goto(url + "/present")
        settle(projector)
        projector.locator(".st-key-live_start button").first.click()
        expect(projector.locator(".al-code").first).to_be_visible(timeout=60_000)
        code = projector.locator(".al-code").first.inner_text().strip()
        console = teacher.new_page()
        console.goto(url + "/console")
        expect(console.locator(".st-key-console_join button")).to_be_visible(timeout=60_000)
        pages = [browser.new_context(**PHONE).new_page() for _ in range(phones)]
        tapes = [Tape(f"phone{i}", p) for i, p in enumerate(pages)]
        tapes.append(projector_tape)
        for p in pages:
            p.goto(f"{url}/?join={code}")
        for p in pages:
            expect(p.get_by_text("Step 1 of").first).to_be_visible(timeout=60_000)
        console.locator(".st-key-console_join button").click()
        expect(projector.locator(".st-key-live_join_screen")).to_be_hidden(timeout=60_000)
        time.sleep(2)
        projector.locator(".st-key-present_tokens").first.click()
        for k in range(2, steps + 2):
            settle(projector)
            for t in tapes:
                t.events, t.t0 = [], time.perf_counter()
            for p in pages:
                p.evaluate(WATCH_FOR, f"Step {k} of")
            t0 = time.time() * 1000
            projector.locator(".st-key-present_next button").click()
            drawn = {}
            for t, p in zip(tapes, pages, strict=False):
                p.wait_for_function("() => window.__seenAt", timeout=30_000)
                drawn[t.name] = round(p.evaluate("() => window.__seenAt") - t0)
            time.sleep(1.0)
            out[f"step {k}"] = {"drawn": drawn, **{t.name: t.events for t in tapes}}
            print(json.dumps({f"step {k}": out[f"step {k}"]}, indent=1))
        browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phones", type=int, default=3)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--url")
    args = ap.parse_args()
    with ExitStack() as stack:
        url = args.url
        if url is None:
            db = os.path.join(stack.enter_context(tempfile.TemporaryDirectory()), "live.db")
            os.environ["LIVE_STORE"] = f"sqlite://{db}"
            url = stack.enter_context(serving("app.py"))
        run(url, args.phones, args.steps)


if __name__ == "__main__":
    main()
