"""The decoder (issue 23): forward pass, warm load, memory shared by processes, page clicks.

1. ``decoder.run`` of a 32-token prompt, one BLAS thread (target 150 ms): the forward pass,
   all 270 heads through ``attention()`` and the last row's logits; against the forward
   alone with every position's logits (``decoder.logits``) and a bare NumPy forward (all
   heads in one batched product, no traces) in the same run. CPU time too.
2. A warm load in a fresh process (the weights file already in the page cache): import,
   ``load_decoder()`` (the mmap, target 1 s), then its first run.
3. Memory: two processes that each loaded the decoder and ran a prompt, side by side. For
   each, /proc/PID/smaps of the weights file: its Rss, its Pss (proportional: a page that
   two processes map counts half in each) and its private pages (a copy of its own).
4. In Chromium, on one server after the floor app (bench/floors/floor_app.py) in the same run:
   head pick (Scores, then Softmax tab open: its grid redrawn), token pick (the "weight on
   one key" grid redrawn) and stage change (Scores <-> Softmax tab: the other tab's grid
   drawn), each
   as a ratio to the floor (target 1.5x); then the PSS of two Streamlit processes with the
   lab open in a browser each.

    python -m bench.compute.bench_decoder [--quick] [--no-browser]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench import Result, cpu_timed, timed

ROOT = Path(__file__).resolve().parents[2]
PROMPT = (
    "Attention lets every token look at the tokens before it and decide how much of each "
    "one to mix into its own representation, so a model can write one word after another"
)
CHILD = """
import json, sys, time
t0 = time.perf_counter()
from attention_core.decoder import load_decoder
t1 = time.perf_counter()
d = load_decoder()
t2 = time.perf_counter()
d.run(sys.argv[1])
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "first_run": t3 - t2}), flush=True)
if len(sys.argv) > 2:
    sys.stdin.readline()  # stay alive (and mapped) until the parent has read smaps
"""


def prompt_of(decoder: object, n_tokens: int) -> str:
    """The longest prefix of PROMPT (in words) that makes at most ``n_tokens`` tokens."""
    words = PROMPT.split()
    for k in range(len(words), 0, -1):
        text = " ".join(words[:k])
        if decoder.tokenize(text).n <= n_tokens:  # type: ignore[attr-defined]
            return text
    raise ValueError("no prefix is short enough")


def bare_forward(w: object, ids: np.ndarray) -> np.ndarray:
    """The same decoder with the heads batched ((h, n, d) products): no traces, no checks."""
    from attention_core.decoder.llama import mlp_block, rms_norm
    from attention_core.decoder.rope import apply_rope, rope_tables

    c = w.config  # type: ignore[attr-defined]
    n, h, g, d = ids.shape[0], c.n_heads, c.n_kv_heads, c.d_head
    X = w.embed[ids]  # type: ignore[attr-defined]
    cos, sin = rope_tables(n, d, c.rope_theta)
    causal = np.tril(np.ones((n, n), dtype=bool))
    for lw in w.layers:  # type: ignore[attr-defined]
        QKV = rms_norm(X, lw.attn_norm, c.eps) @ lw.Wt_qkv
        Q = apply_rope(QKV[:, : h * d].reshape(n, h, d), cos, sin).transpose(1, 0, 2)
        K = apply_rope(QKV[:, h * d : (h + g) * d].reshape(n, g, d), cos, sin)
        V = QKV[:, (h + g) * d :].reshape(n, g, d)
        K = np.repeat(K.transpose(1, 0, 2), h // g, axis=0)  # (h, n, d)
        V = np.repeat(V.transpose(1, 0, 2), h // g, axis=0)
        S = np.where(causal, Q @ K.transpose(0, 2, 1) * np.float32(1 / np.sqrt(d)), -np.inf)
        S = np.exp(S - S.max(axis=-1, keepdims=True))
        S /= S.sum(axis=-1, keepdims=True)
        X = X + (S @ V).transpose(1, 0, 2).reshape(n, h * d) @ lw.Wt_o
        X = X + mlp_block(lw, X, c)
    return rms_norm(X[-1:], w.final_norm, c.eps) @ w.output  # type: ignore[attr-defined]


def run(args: argparse.Namespace) -> list[Result]:
    from attention_core.decoder import DecoderMissing, load_decoder
    from attention_core.trained.run import one_blas_thread

    quick = getattr(args, "quick", False)
    browser = not getattr(args, "no_browser", False)
    try:
        load_decoder()  # only to know it is there: the mapping ends with the object
    except DecoderMissing as exc:
        print(f"(decoder benchmarks skipped: {exc.message})")
        return []
    # Memory first, while this process maps nothing: a third mapping would take a third
    # of each page's PSS.
    memory = bench_two_processes(PROMPT) + (_two_servers() if browser else [])
    decoder = load_decoder()
    repeats = 7 if quick else 25
    text = prompt_of(decoder, 32)
    ids = decoder.tokenize(text).ids
    note = f"{ids.shape[0]} tokens, one BLAS thread"
    out = [
        Result("decoder.run, 32 tokens (wall)", timed(lambda: decoder.run(text), repeats),
               f"{note}; target 150 ms"),
        Result("decoder.run, 32 tokens (CPU)", cpu_timed(lambda: decoder.run(text), repeats),
               "CPU time of this process: the uncontended cost"),
        Result("decoder.logits: the forward alone, every row's logits (CPU)",
               cpu_timed(lambda: decoder.logits(ids), repeats), note),
    ]  # fmt: skip
    with one_blas_thread():
        out.append(Result("bare forward: heads batched, no traces, last row (CPU)",
                          cpu_timed(lambda: bare_forward(decoder.weights, ids), repeats),
                          "what attention() and the traces add is the difference"))  # fmt: skip
    out.extend(bench_warm_load(3 if quick else 5, text))
    out.extend(memory)
    if browser:
        out.extend(bench_browser(5 if quick else 12))
    return out


def bench_warm_load(repeats: int, text: str) -> list[Result]:
    """Fresh processes, the weights file warm in the page cache (this process mapped it)."""
    runs = [json.loads(subprocess.run([sys.executable, "-c", CHILD, text], cwd=ROOT,
                                      capture_output=True, text=True, check=True).stdout)
            for _ in range(repeats)]  # fmt: skip
    ms = {k: [r[k] * 1000 for r in runs] for k in ("import", "load", "first_run")}
    return [
        Result("fresh process: import attention_core.decoder", ms["import"]),
        Result("fresh process: load_decoder() (warm: the mmap)", ms["load"], "target 1 s"),
        Result("fresh process: its first run (pages of the file mapped in)", ms["first_run"]),
    ]


def weights_smaps(pid: int) -> dict[str, int]:
    """kB of the weights file's mapping in process ``pid``: Rss, Pss, Shared_*, Private_*."""
    from attention_core.decoder.files import WEIGHTS_FILE

    totals: dict[str, int] = {}
    inside = False
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and len(head) >= 5:  # a mapping's first line
            inside = line.rstrip().endswith(WEIGHTS_FILE)
        elif inside and line.endswith(" kB"):
            key, value = line.split(":")
            totals[key] = totals.get(key, 0) + int(value.split()[0])
    return totals


def bench_two_processes(text: str) -> list[Result]:
    """Two processes that ran the decoder, both alive: each one's share of the weights."""
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, text, "wait"], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for _ in range(2)]  # fmt: skip
    try:
        for p in procs:
            p.stdout.readline()  # type: ignore[union-attr]  # loaded and ran
        maps = [weights_smaps(p.pid) for p in procs]
    finally:
        for p in procs:
            p.communicate("\n", timeout=30)
    return [smaps_result(f"process {k + 1} of 2 (python)", m) for k, m in enumerate(maps)]


def smaps_result(who: str, m: dict[str, int]) -> Result:
    size = (ROOT / ".model" / "SmolLM2-135M-Instruct" / "weights.f32.npy").stat().st_size
    private = m.get("Private_Clean", 0) + m.get("Private_Dirty", 0)
    return Result(
        f"weights file PSS, {who} (MB)", [m.get("Pss", 0) / 1024],
        f"Rss {m.get('Rss', 0) / 1024:.0f} MB of the {size / 2**20:.0f} MB file, private "
        f"{private / 1024:.1f} MB, shared {m.get('Shared_Clean', 0) / 1024:.0f} MB",
    )  # fmt: skip


# ---- in Chromium -------------------------------------------------------------------------------
FLOOR_WATCH = ".st-key-floor_heatmap .heatmap-label"
SCORES = ".st-key-dec_scores_chart"
SOFTMAX = ".st-key-dec_softmax_chart"
# The "weight on one key" grid prints no numbers (hover only): its title names the picked
# token, and Plotly redraws title and cells in one call.
TOKEN_CELLS = ".st-key-dec_on_target .gtitle"
TABS = ".st-key-dec_scores_chart, .st-key-dec_softmax_chart"


def bench_browser(steps: int) -> list[Result]:
    from bench.common.browser import FLOOR_APP, chromium, serving, skipped
    from bench.common.interact import measure

    with chromium() as browser:
        if browser is None:
            return skipped()
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        with serving(FLOOR_APP) as url:
            floor = measure(page, url + "/", ".st-key-floor_toggle input", "Space",
                             FLOOR_WATCH, steps)  # fmt: skip
        with serving("app.py") as url:
            picks = _decoder_picks(page, url, steps)
        page.close()
    ref = Result("", floor).median

    def versus(samples: list[float]) -> str:
        m = Result("", samples).median
        return f"{m / ref:.2f}x the floor ({'within' if m <= 1.5 * ref else 'OVER'} 1.5x)"

    out = [Result("browser: FLOOR toggle -> 6x6 heatmap redrawn", floor, "the reference (1.0x)")]
    return out + [Result(f"browser: Decoder {name}", s, versus(s)) for name, s in picks.items()]


def _decoder_picks(page, url: str, steps: int) -> dict[str, list[float]]:
    from bench.common.browser import settle, stage_control, time_change
    from bench.common.interact import pick

    page.goto(url + "/decoder")
    page.wait_for_selector(".st-key-dec_patterns .heatmaplayer", timeout=120_000)
    settle(page)
    stage_control(page, "dec", "Scores").click()
    page.wait_for_selector(f"{SCORES} .heatmaplayer", timeout=60_000)
    settle(page)
    out = {
        "head pick, Scores tab -> its grid redrawn": [
            time_change(page, SCORES, pick(page, "dec_head", k % 2 == 0)) for k in range(steps)
        ]
    }
    stage_control(page, "dec", "Softmax").click()
    page.wait_for_selector(f"{SOFTMAX} .heatmaplayer", timeout=60_000)
    settle(page)
    out["head pick, Softmax tab -> its grid redrawn"] = [
        time_change(page, SOFTMAX, pick(page, "dec_head", k % 2 == 0)) for k in range(steps)
    ]
    stage_control(page, "dec", "Scores").click()
    page.wait_for_selector(f"{SCORES} .heatmaplayer", timeout=60_000)
    settle(page)
    out["token pick -> 'weight on one key' grid redrawn"] = [
        time_change(page, TOKEN_CELLS, pick(page, "dec_token", k % 2 == 1)) for k in range(steps)
    ]  # "was", "it", "was", ... (the default is the prompt's "it")

    def click_tab(k: int):
        """One mouse event on the tab, found (and scrolled to) before the clock starts."""
        tab = stage_control(page, "dec", "Softmax" if k % 2 == 0 else "Scores")
        tab.scroll_into_view_if_needed()
        box = tab.bounding_box()
        return lambda: page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    out["stage change Scores <-> Softmax -> the tab's grid drawn"] = [
        time_change(page, TABS, click_tab(k)) for k in range(steps)
    ]  # fmt: skip
    return out


def _two_servers() -> list[Result]:
    """Two Streamlit processes, the lab open in one browser page each: the weights' PSS."""
    from playwright.sync_api import sync_playwright

    from bench.common.browser import CHROMIUM_ARGS, find_chromium, settle, start_server

    chromium = find_chromium()
    if chromium is None:
        return []
    servers = [start_server("app.py") for _ in range(2)]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            for _, url in servers:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(url + "/decoder")
                page.wait_for_selector(".st-key-dec_patterns .heatmaplayer", timeout=120_000)
                settle(page)
            maps = [weights_smaps(proc.pid) for proc, _ in servers]
            browser.close()
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(timeout=10)
    return [smaps_result(f"Streamlit server {k + 1} of 2, lab open", m)
            for k, m in enumerate(maps)]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench import HEADER

    print(f"# bench_decoder {time.strftime('%Y-%m-%d %H:%M')}, load average "
          + " / ".join(f"{x:.2f}" for x in __import__("os").getloadavg()))  # fmt: skip
    print(HEADER)
    for result in run(args):
        print(result.row(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
