"""The real model (issue 10): forward pass, loading, GELU and memory.

1. ``model.encode`` of a 32-token sentence in float32 (budget 60 ms): tokenizing, the
   forward pass, and all 72 traces made by ``attention()``; against a bare NumPy forward in
   the same run (all heads in one batched product, no traces, same weights and GELU).
2. ``load_model()`` from the unpacked cache (budget 0.5 s).
3. The exact GELU on a (32, 1536) activation, against the tanh approximation and a
   ``math.erf`` loop; its worst error against ``math.erf`` is in the note.
4. A fresh process: import, load, encode; its resident memory (VmRSS) and peak (VmHWM).

On a shared box the wall clock includes waiting for a core; the CPU time of the process
(``time.process_time``, one BLAS thread) is reported too, as the uncontended cost.

BLAS threads matter on a busy 2-core box: ``encode`` runs with one BLAS thread
(``one_blas_thread``); the bare forward is timed both with one and with OpenBLAS's default.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench import Result, cpu_timed, timed

ROOT = Path(__file__).resolve().parents[2]
BASE = (
    "The animal didn't cross the street because it was too tired, so it lay down by the "
    "side of the road and slept until the morning sun rose over the quiet little town"
)


def sentence_of(model: object, n_tokens: int) -> str:
    """The longest prefix of BASE (in words) that makes at most ``n_tokens`` tokens."""
    words = BASE.split()
    for k in range(len(words), 0, -1):
        text = " ".join(words[:k])
        if len(model.tokenize(text).tokens) <= n_tokens:  # type: ignore[attr-defined]
            return text
    raise ValueError("no prefix is short enough")


def bare_forward(w: object, ids: np.ndarray) -> np.ndarray:
    """BERT's encoder with the heads batched: (h, n, d_k) products, nothing kept."""
    from attention_core.pretrained.bert import embed, layer_norm
    from attention_core.pretrained.gelu import gelu

    c = w.config  # type: ignore[attr-defined]
    X = embed(w, ids)  # type: ignore[arg-type]
    n, h, d = ids.shape[0], c.n_heads, c.d_k
    for lw in w.layers:  # type: ignore[attr-defined]
        Q = (X @ lw.W_q.T + lw.b_q).reshape(n, h, d).transpose(1, 0, 2)  # (h, n, d_k)
        K = (X @ lw.W_k.T + lw.b_k).reshape(n, h, d).transpose(1, 0, 2)
        V = (X @ lw.W_v.T + lw.b_v).reshape(n, h, d).transpose(1, 0, 2)
        S = Q @ K.transpose(0, 2, 1) * np.float32(1 / math.sqrt(d))  # (h, n, n)
        S = np.exp(S - S.max(axis=-1, keepdims=True))
        S /= S.sum(axis=-1, keepdims=True)
        concat = (S @ V).transpose(1, 0, 2).reshape(n, h * d)  # (n, d_model)
        A = layer_norm(concat @ lw.W_o.T + lw.b_o + X, lw.ln1_gamma, lw.ln1_beta, c.eps)
        X = layer_norm(gelu(A @ lw.W_1.T + lw.b_1) @ lw.W_2.T + lw.b_2 + A,
                       lw.ln2_gamma, lw.ln2_beta, c.eps)  # fmt: skip
    return X


def run(args: argparse.Namespace) -> list[Result]:
    from attention_core.pretrained import ModelMissing, load_model

    quick = getattr(args, "quick", False)
    try:
        model = load_model()
    except ModelMissing as exc:
        print(f"(real-model benchmarks skipped: {exc.message})")
        return []
    repeats = 10 if quick else 40
    return [
        *bench_forward(model, repeats),
        bench_load(3 if quick else 10),
        *bench_gelu(50 if quick else 200),
        bench_memory(),
    ]


def bench_forward(model: object, repeats: int) -> list[Result]:
    text = sentence_of(model, 32)
    tok = model.tokenize(text)  # type: ignore[attr-defined]
    n = len(tok.tokens)
    from attention_core.trained.run import one_blas_thread

    ours = timed(lambda: model.encode(text), repeats, warmup=2)  # type: ignore[attr-defined]
    with one_blas_thread():
        bare = timed(lambda: bare_forward(model.weights, tok.ids), repeats, warmup=2)  # type: ignore[attr-defined]
    threads = timed(lambda: bare_forward(model.weights, tok.ids), repeats, warmup=2)  # type: ignore[attr-defined]
    ours_cpu = cpu_timed(lambda: model.encode(text), repeats)  # type: ignore[attr-defined]
    with one_blas_thread():
        bare_cpu = cpu_timed(lambda: bare_forward(model.weights, tok.ids), repeats)  # type: ignore[attr-defined]
    run = model.encode(text)  # type: ignore[attr-defined]
    diff = np.abs(bare_forward(model.weights, tok.ids) - run.hidden_states[-1]).max()  # type: ignore[attr-defined]
    ratio = np.median(ours) / np.median(bare)
    return [
        Result(f"encode, {n} tokens, float32 (tokenize + forward + 72 traces)", ours,
               f"budget 60 ms; {ratio:.1f}x the bare forward"),
        Result(f"bare NumPy forward, {n} tokens, float32 (batched heads, no traces)", bare,
               f"same last hidden state within {diff:.1e}"),
        Result("same bare forward with OpenBLAS's default threads", threads,
               "why encode uses one BLAS thread"),
        Result(f"encode, {n} tokens, float32: CPU time", ours_cpu, "uncontended cost"),
        Result(f"bare NumPy forward, {n} tokens, float32: CPU time", bare_cpu,
               f"encode / bare = {np.median(ours_cpu) / np.median(bare_cpu):.2f}"),
    ]  # fmt: skip


CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
from attention_core.pretrained import load_model
from bench import timed
from bench.compute.bench_pretrained import sentence_of
t0 = time.perf_counter()
model = load_model()
load_ms = (time.perf_counter() - t0) * 1000
text = sentence_of(model, 32)
samples = timed(lambda: model.encode(text), {repeats}, warmup=2)
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
mb = lambda key: int(status[key].split()[0]) / 1024
got = {{"load_ms": load_ms, "samples": samples, "rss": mb("VmRSS"), "hwm": mb("VmHWM")}}
print(json.dumps(got))
"""


def _child(repeats: int) -> dict:
    code = CHILD.format(root=str(ROOT), repeats=repeats)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=600)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_load(repeats: int) -> Result:
    from attention_core.pretrained import load_model

    samples = timed(load_model, repeats, warmup=1)
    cpu = np.median(cpu_timed(load_model, repeats))
    return Result("load_model() from .model/ (safetensors + tokenizer.json)", samples,
                  f"budget 500 ms; file cache warm; CPU {cpu:.0f} ms")  # fmt: skip


def bench_gelu(repeats: int) -> list[Result]:
    from attention_core.pretrained.gelu import erf, gelu

    x = np.linspace(-8, 8, 200_001)
    err = np.abs(erf(x) - np.array([math.erf(v) for v in x])).max()
    rng = np.random.default_rng(0)
    out = []
    for dtype in (np.float32, np.float64):
        a = (rng.normal(size=(32, 1536)) * 2).astype(dtype)
        out.append(Result(f"exact GELU (Taylor-table erf), 32 x 1536, {dtype.__name__}",
                          timed(lambda a=a: gelu(a), repeats),
                          f"erf max error vs math.erf {err:.1e}" if dtype is np.float64 else
                          "x 6 layers per forward"))  # fmt: skip
    a = (rng.normal(size=(32, 1536)) * 2).astype(np.float32)
    c = np.float32(math.sqrt(2 / math.pi))
    tanh = timed(lambda: 0.5 * a * (1 + np.tanh(c * (a + np.float32(0.044715) * a * a * a))),
                 repeats)  # fmt: skip
    approx_err = np.abs(
        0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))) - gelu(x)
    ).max()
    loop = np.frompyfunc(math.erf, 1, 1)
    slow = timed(lambda: a * 0.5 * (1 + loop(a / math.sqrt(2)).astype(np.float32)), 5)
    return [
        *out,
        Result("tanh-approximate GELU, 32 x 1536, float32", tanh,
               f"not used: off by up to {approx_err:.1e}"),
        Result("GELU with math.erf per element (frompyfunc), 32 x 1536", slow, "not used"),
    ]  # fmt: skip


def bench_memory() -> Result:
    got = _child(3)
    return Result("fresh process: import + load_model() (memory in the note)", [got["load_ms"]],
                  f"RSS {got['rss']:.0f} MB after one encode, peak {got['hwm']:.0f} MB; "
                  "budget 500 MB for the server")  # fmt: skip


if __name__ == "__main__":
    t = time.perf_counter()
    from bench import HEADER

    print(HEADER)
    for r in run(argparse.Namespace(quick="--quick" in sys.argv)):
        print(r.row(), flush=True)
    print(f"({time.perf_counter() - t:.0f} s)")
