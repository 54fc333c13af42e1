"""The KV cache (issue 44): one cached step against recomputing the whole text, at 32 tokens.

Both give the 33rd token's logits: ``cached_step`` runs its one row through every layer
against the 32 cached keys and values; the recomputation runs ``llama.forward`` on all 33
tokens (``last_only``: the output matrix for the last row only, as generation needs). One
BLAS thread, as the app runs. Wall and CPU time, and the multiply-adds each way
(``cache.multiply_adds``); target: the cached step at least 5 times cheaper. Then a whole
generation of 32 tokens with and without the cache.

    python -m bench.compute.bench_kv_cache [--quick]
"""

from __future__ import annotations

import argparse

from bench import Result, cpu_timed, timed

N = 32


def run(args: argparse.Namespace) -> list[Result]:
    from attention_core.decoder import DecoderMissing, llama, load_decoder
    from attention_core.decoder.cache import cached_step, multiply_adds, prefill
    from attention_core.trained.run import one_blas_thread

    try:
        decoder = load_decoder()
    except DecoderMissing as exc:
        print(f"(KV-cache benchmarks skipped: {exc.message})")
        return []
    repeats = 7 if getattr(args, "quick", False) else 25
    w = decoder.weights
    ids = [int(i) for i in decoder.tokenize("1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,").ids]
    ids = (ids * N)[:N]  # exactly 32 tokens
    with one_blas_thread():
        logits, cache = prefill(w, ids)
        token = int(logits.argmax())
        step = lambda: cached_step(w, cache, token)  # noqa: E731
        again = lambda: llama.forward(w, [*ids, token], last_only=True)  # noqa: E731
        macs = multiply_adds(w.config, N + 1, N + 1) / multiply_adds(w.config, 1, N + 1)
        out = [
            Result("cached step at 32 tokens (wall)", timed(step, repeats), "one BLAS thread"),
            Result("recompute 33 tokens (wall)", timed(again, repeats), "llama.forward, last row"),
            Result("cached step at 32 tokens (CPU)", cpu_timed(step, repeats), ""),
            Result("recompute 33 tokens (CPU)", cpu_timed(again, repeats),
                   f"multiply-adds: {macs:.1f}x the cached step's"),
        ]  # fmt: skip
    gen = min(3, repeats)
    text = decoder.decode(ids)
    out += [
        Result("generate 32 tokens, KV cache (wall)",
               timed(lambda: decoder.generate(text, N, 0.0), gen), "greedy"),
        Result("generate 32 tokens, recomputing (wall)",
               timed(lambda: decoder.generate(text, N, 0.0, cache=False), gen), "greedy"),
    ]  # fmt: skip
    ratio = out[1].median / out[0].median
    cpu_ratio = out[3].median / out[2].median
    print(f"cached step: {ratio:.1f}x cheaper in wall time, {cpu_ratio:.1f}x in CPU time, "
          f"{macs:.1f}x in multiply-adds (target 5x)")  # fmt: skip
    return out


if __name__ == "__main__":
    import sys

    from bench import HEADER

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    print(HEADER)
    for result in run(parser.parse_args(sys.argv[1:])):
        print(result.row())
