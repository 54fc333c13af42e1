"""What a run of either trained model shares: its head indices, and one BLAS thread."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any

from attention_core.errors import InputError


def check_head(layer: int, head: int, n_layers: int, n_heads: int, kind: str) -> None:
    """Raise InputError unless layer ``layer``, head ``head`` (0-based) is one of the
    ``kind``'s ("model", "decoder") ``n_layers`` layers of ``n_heads`` heads."""
    if not (0 <= layer < n_layers and 0 <= head < n_heads):
        raise InputError(
            f"there is no layer {layer + 1}, head {head + 1}: the {kind} has "
            f"{n_layers} layers of {n_heads} heads",
            where="head",
        )


@functools.cache
def _blas_controller() -> Any:
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # optional: without it BLAS keeps its own thread count
        return None
    return ThreadpoolController()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the forward pass with one BLAS thread.

    Its products are small ((n, 384) by (384, 1536)), and on a busy 2-core machine (a
    Streamlit server beside a browser, or CI) OpenBLAS's second thread waits for a core:
    measured here, encode took a median 1.5 s with 2 threads against 80 ms with one.
    The limit is process-wide: two sessions encoding at once can at worst leave BLAS at one
    thread, which suits this app's small matrices anyway.
    """
    controller = _blas_controller()
    if controller is None:
        yield
        return
    with controller.limit(limits=1, user_api="blas"):
        yield
