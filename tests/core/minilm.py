"""Shared by the real-model tests: the model (loaded once per dtype) and the golden file.

The golden values come from transformers' BertModel (dev/make_golden.py), never from the
code under test. ``make test`` fetches the model first; a bare ``pytest`` without it skips
these tests with the reason, except under CI (CI=true), where a missing model fails.
"""

from __future__ import annotations

import base64
import functools
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attention_core.pretrained import Model, ModelMissing, load_model

GOLDEN = Path(__file__).parent / "data" / "minilm_golden.json"
LESSON = "The animal didn't cross the street because it was too tired"


@functools.cache
def _model(dtype_name: str) -> Model | str:
    try:
        return load_model(dtype=np.dtype(dtype_name).type)
    except ModelMissing as exc:
        return exc.message


def model(dtype: str = "float32") -> Model:
    """The loaded model, or skip (fail under CI) with ModelMissing's message."""
    m = _model(dtype)
    if isinstance(m, str):
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the real-model tests (`make test` fetches it): {m}")
        pytest.skip(f"model not fetched ({m})")
    return m


@functools.cache
def golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text())


def decode(field: dict[str, Any]) -> np.ndarray:
    """A base64 array of the golden file."""
    raw = base64.b64decode(field["b64"])
    return np.frombuffer(raw, dtype=field["dtype"]).reshape(field["shape"])
