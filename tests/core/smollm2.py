"""Shared by the decoder tests: the decoder (mapped once per test session) and its golden file.

The golden values come from transformers' LlamaForCausalLM loading the same GGUF file
(dev/make_decoder_golden.py), never from the code under test. ``make test`` fetches and
converts the model first; a bare ``pytest`` without it skips these tests with the reason,
except under CI (CI=true), where a missing model fails.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from attention_core.decoder import Decoder, load_decoder
from tests.core import fetched
from tests.tolerance import scaled_to

GOLDEN = Path(__file__).parent / "data" / "smollm2_golden.json"
PARIS = "The capital of France is"
WINOGRAD = "The trophy did not fit in the suitcase because it was too"


@functools.cache
def _decoder() -> Decoder:
    return load_decoder()


def decoder() -> Decoder:
    """The mapped decoder, or skip (fail under CI) with DecoderMissing's message."""
    return fetched.or_skip(_decoder, "decoder")


golden = functools.partial(fetched.golden, GOLDEN)  # the golden file, read once
decode = fetched.decode  # a base64 array of it


# ---- tolerances: the reference's own float32 rounding ------------------------------------
# As for MiniLM (tests/core/minilm.py): thirty layers of float32 sums have no useful
# worst-case bound, so the bound is the reference's own float32 rounding, measured as the
# difference between transformers' float32 run and its float64 run of the same input.
# Another float32 evaluation (ours: other BLAS kernels, float64 inside attention(), another
# order of sums) errs by the same scale in other bits: each side gets twice the
# reference's error, hence 4x. (transformers' float64 run still takes its softmax and its
# RoPE angles in float32, as its Llama code does: its "float64" numbers carry some float32
# rounding, which makes the measured noise, and so the bound, a little larger.)
SIDES = 4


@functools.cache
def float32_noise(field: str, case: str | None = None) -> float:
    """max |reference float32 - reference float64| of one golden field, over the cases."""
    worst = 0.0
    for name, c in golden()["cases"].items():
        if case is None or name == case:
            a = decode(c["float32"][field]).astype(np.float64)
            worst = max(worst, float(np.abs(a - decode(c["float64"][field])).max()))
    return worst


def network_tol(field: str, case: str | None = None, dtype: str = "float32") -> float:
    """The bound for two float32 evaluations of the decoder's ``field`` (see above)."""
    return scaled_to(SIDES * float32_noise(field, case), dtype)


def rope_float32_error(q: np.ndarray, k: np.ndarray, m: int, n: int) -> float:
    """How far a score turned by RoPE with float32 tables and float32 products (the forward
    pass) can be from the closed form in float64 (rope.score_by_distance), both / sqrt(64).

    Each float32 table entry (the angle p w_i rounded, then its cos or sin) is within
    delta_p = eps32 (p + 1) of exact; a turned component x1 cos - x2 sin, computed in
    float32 (two products and a sum: 3 roundings of at most |x1| + |x2|), is within
    (|x1| + |x2|)(delta_p + 3 eps32 / 2); the dot product is then within twice the sum over
    pairs of (|q1| + |q2|)(|k1| + |k2|) times the two sides' errors (test_decoder_parts).
    q, k (64,): the query at position m and the key at position n, before RoPE.
    """
    h = q.shape[0] // 2
    q, k = np.abs(np.asarray(q, np.float64)), np.abs(np.asarray(k, np.float64))
    pairs = float((q[:h] + q[h:]) @ (k[:h] + k[h:]))
    e32 = float(np.finfo(np.float32).eps)
    per_side = e32 * (m + 1) + e32 * (n + 1) + 3 * e32
    return 2 * pairs * per_side / np.sqrt(2 * h)
