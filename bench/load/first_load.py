"""Bytes on the wire for a phone's cold first load of a page (issue 21's network target).

    python -m bench.load.first_load                           # a fresh `streamlit run` (make run's)
    python -m bench.load.first_load --url http://127.0.0.1:8501   # e.g. `make classroom`'s nginx

Each run opens ``/<page>`` in a new Chromium context (an empty cache, 390x844, a phone's
touch and pixel ratio) and waits until the script has run and every element has arrived.
Every response is counted through the CDP: ``Network.loadingFinished``'s
``encodedDataLength`` is what came over the network, headers included, compressed or not.
Then the same context loads the page again: what a student's second visit costs, which
shows whether the hashed static files were cached (``Cache-Control: immutable``).
The websocket's frames are not in ``loadingFinished``; their payload bytes are reported on
their own line.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
from dataclasses import dataclass, field

from bench.common.browser import CHROMIUM_ARGS, find_chromium, settle, start_server

PHONE = {"width": 390, "height": 844}


@dataclass
class Response:
    url: str
    bytes: int
    encoding: str
    cache_control: str
    from_cache: bool


@dataclass
class Load:
    responses: list[Response] = field(default_factory=list)
    ws_bytes: int = 0

    @property
    def total(self) -> int:
        return sum(r.bytes for r in self.responses)

    def compressed(self) -> int:
        return sum(1 for r in self.responses if r.encoding in ("gzip", "br", "zstd"))


def _record(cdp) -> tuple[Load, dict]:
    load, meta = Load(), {}

    def on_response(e: dict) -> None:
        r = e["response"]
        headers = {k.lower(): v for k, v in r.get("headers", {}).items()}
        meta[e["requestId"]] = (
            r["url"],
            headers.get("content-encoding", ""),
            headers.get("cache-control", ""),
            bool(r.get("fromDiskCache") or r.get("fromMemoryCache")),
        )

    def on_finished(e: dict) -> None:
        url, enc, cache, cached = meta.get(e["requestId"], ("?", "", "", False))
        load.responses.append(Response(url, int(e["encodedDataLength"]), enc, cache, cached))

    def on_frame(e: dict) -> None:
        load.ws_bytes += len(e["response"].get("payloadData", ""))

    cdp.on("Network.responseReceived", on_response)
    cdp.on("Network.loadingFinished", on_finished)
    cdp.on("Network.webSocketFrameReceived", on_frame)
    return load, meta


def measure(url: str, page_path: str, runs: int) -> list[tuple[Load, Load]]:
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        try:
            for _ in range(runs):
                ctx = browser.new_context(
                    viewport=PHONE, device_scale_factor=3, is_mobile=True, has_touch=True
                )
                page = ctx.new_page()
                cdp = ctx.new_cdp_session(page)
                cdp.send("Network.enable")
                cold, _ = _record(cdp)
                page.goto(f"{url}/{page_path}", wait_until="load", timeout=120_000)
                settle(page)
                page.wait_for_timeout(1500)  # chunks loaded on demand have arrived
                page2 = ctx.new_page()  # a second visit: same cache, new page
                cdp2 = ctx.new_cdp_session(page2)
                cdp2.send("Network.enable")
                again, _ = _record(cdp2)
                page2.goto(f"{url}/{page_path}", wait_until="load", timeout=120_000)
                settle(page2)
                page2.wait_for_timeout(1500)
                out.append((_frozen(cold), _frozen(again)))
                ctx.close()
        finally:
            browser.close()
    return out


def _frozen(load: Load) -> Load:
    """A copy: the CDP listeners stay attached until the context closes."""
    return Load(list(load.responses), load.ws_bytes)


def report(loads: list[tuple[Load, Load]]) -> dict:
    cold = [c for c, _ in loads]
    again = [a for _, a in loads]
    last = cold[-1]
    kinds: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for r in last.responses:
        path = r.url.split("?", 1)[0]
        kind = path.rsplit(".", 1)[-1] if "/static/" in path else "other"
        kinds[kind][0] += 1
        kinds[kind][1] += r.bytes
    biggest = sorted(last.responses, key=lambda r: -r.bytes)[:6]
    return {
        "responses": [[r.url, r.bytes, r.encoding] for r in last.responses],
        "cold_mb": [round(c.total / 1e6, 3) for c in cold],
        "cold_mb_median": round(statistics.median(c.total for c in cold) / 1e6, 3),
        "cold_responses": [len(c.responses) for c in cold],
        "cold_compressed": [c.compressed() for c in cold],
        "cold_ws_kb": [round(c.ws_bytes / 1e3, 1) for c in cold],
        "again_mb": [round(a.total / 1e6, 3) for a in again],
        "again_responses": [len(a.responses) for a in again],
        "again_from_cache": [sum(r.from_cache for r in a.responses) for a in again],
        "by_kind": {k: {"n": n, "kb": round(b / 1e3, 1)} for k, (n, b) in sorted(kinds.items())},
        "biggest": [
            {
                "url": r.url.rsplit("/", 1)[-1][:48],
                "kb": round(r.bytes / 1e3, 1),
                "encoding": r.encoding or "none",
                "cache_control": r.cache_control,
            }
            for r in biggest
        ],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.load.first_load", description=__doc__)
    ap.add_argument("--url", help="a running server (default: start `streamlit run app.py`)")
    ap.add_argument("--page", default="scores", help="the page's path (default %(default)s)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", dest="json_out", help="also write the report as JSON here")
    a = ap.parse_args(argv)
    proc = None
    url = a.url
    if url is None:
        proc, url = start_server()
    try:
        rep = report(measure(url.rstrip("/"), a.page, a.runs))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
    rep = {"url": url, "page": a.page, "load_avg": [round(x, 2) for x in os.getloadavg()], **rep}
    every = rep.pop("responses")
    print(json.dumps(rep, indent=1))
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump({**rep, "responses": every}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
