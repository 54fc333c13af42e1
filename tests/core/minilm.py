"""Shared by the real-model tests: the model (loaded once per dtype) and the golden file.

The golden values come from transformers' BertModel (dev/make_golden.py), never from the
code under test. ``make test`` fetches the model first; a bare ``pytest`` without it skips
these tests with the reason, except under CI (CI=true), where a missing model fails.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from attention_core.pretrained import Model, load_model
from tests.core import fetched
from tests.tolerance import scaled_to

GOLDEN = Path(__file__).parent / "data" / "minilm_golden.json"
LESSON = "The animal didn't cross the street because it was too tired"


@functools.cache
def _model(dtype_name: str) -> Model:
    return load_model(dtype=np.dtype(dtype_name).type)


def model(dtype: str = "float32") -> Model:
    """The loaded model, or skip (fail under CI) with ModelMissing's message."""
    return fetched.or_skip(lambda: _model(dtype), "real-model")


golden = functools.partial(fetched.golden, GOLDEN)  # the golden file, read once
decode = fetched.decode  # a base64 array of it


# ---- tolerances: the reference's own float32 rounding ------------------------------------
# Six layers of float32 sums have no useful worst-case bound, so the bound is measured on
# the reference: the golden file holds transformers' results in float32 and in float64 for
# the same inputs, and their difference is how far float32 rounding moves this network's
# numbers. Another float32 evaluation (ours, or ours with another BLAS kernel or batch
# shape) has an error of the same size but in other bits (a different summation order
# changes the error, not its scale): allow each of the two sides twice the reference's
# error, hence 4x. The same computation in float64 errs eps64 / eps32 times as much
# (tolerance.scaled_to).
SIDES = 4


@functools.cache
def float32_noise(field: str, case: str | None = None) -> float:
    """max |reference float32 - reference float64| of one golden field, over the cases.

    ``full_weights`` holds every head in float32 but only ``full_heads`` of float64: the
    comparison takes the heads both hold.
    """
    worst = 0.0
    for name, c in golden()["cases"].items():
        if case is not None and name != case:
            continue
        for s32, s64 in zip(c["float32"], c["float64"], strict=True):
            a, b = decode(s32[field]).astype(np.float64), decode(s64[field]).astype(np.float64)
            if field == "full_weights":
                a = a[[s32["full_heads"].index(h) for h in s64["full_heads"]]]
            worst = max(worst, float(np.abs(a - b).max()))
    return worst


def network_tol(field: str, dtype: str = "float32", case: str | None = None) -> float:
    """The bound for two evaluations of the network's ``field`` in ``dtype`` (see above)."""
    return scaled_to(SIDES * float32_noise(field, case), dtype)
