"""What the two real models' tests share: the model loaded once, or a skip with the reason
(a failure under CI, which must run them), and the golden files' base64 arrays."""

from __future__ import annotations

import base64
import functools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest

from attention_core.pretrained import ModelMissing

T = TypeVar("T")


def or_skip(load: Callable[[], T], what: str) -> T:
    """``load()`` (cached by the caller), or skip (fail under CI) with ModelMissing's message.

    ``what``: "real-model" or "decoder", as the messages say it.
    """
    try:
        return load()
    except ModelMissing as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the {what} tests (`make test` fetches it): {exc.message}")
        pytest.skip(f"{what.split('-')[-1]} not fetched ({exc.message})")


@functools.cache
def golden(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def decode(field: dict[str, Any]) -> np.ndarray:
    """A base64 array of a golden file."""
    raw = base64.b64decode(field["b64"])
    return np.frombuffer(raw, dtype=field["dtype"]).reshape(field["shape"])
