"""Attention masks. Convention (PyTorch's): True = this query may attend to this key."""

from __future__ import annotations

import numpy as np

from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.types import BoolArray


def causal_mask(n: int) -> BoolArray:
    """(n, n) lower-triangular mask: token i may attend to tokens 0..i, never the future."""
    if n < 1:
        raise InputError(N_("a causal mask needs at least one token, got {n}"), "mask", n=n)
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(n_q: int, n_k: int, n_valid: int) -> BoolArray:
    """(n_q, n_k) mask letting every query see only the first ``n_valid`` keys.

    The remaining keys stand for padding added to make sequences the same length.
    """
    if n_q < 1 or n_k < 1:
        raise InputError(N_("a padding mask needs at least one query and one key"), "mask")
    if not 1 <= n_valid <= n_k:
        raise InputError(
            N_("the number of real (non-padding) keys must be between 1 and {n}, got {got}"),
            where="mask", n=n_k, got=n_valid,
        )  # fmt: skip
    mask = np.zeros((n_q, n_k), dtype=bool)
    mask[:, :n_valid] = True
    return mask


def check_mask(mask: BoolArray, n_q: int, n_k: int) -> BoolArray:
    """Return ``mask`` as a boolean (n_q, n_k) array, or raise a clear InputError."""
    mask = np.asarray(mask)
    if mask.dtype != np.bool_:
        raise InputError(N_("the mask must hold True/False values (True = may attend)"), "mask")
    if mask.shape != (n_q, n_k):
        raise InputError(
            N_("the mask is {shape} but the scores are {n_q} x {n_k}: it needs one row per "
               "query and one column per key"),
            where="mask", shape=_shape(mask.shape), n_q=n_q, n_k=n_k,
        )  # fmt: skip
    empty = np.flatnonzero(~mask.any(axis=1))
    if empty.size:
        row = int(empty[0]) + 1
        raise InputError(
            N_("row {row} of the mask allows no key at all: query {row} would have nothing to "
               "attend to (its softmax would divide by zero). Let it attend to at least one key."),
            where="mask", row=row,
        )  # fmt: skip
    return mask


def _shape(shape: tuple[int, ...]) -> str:
    return " x ".join(str(s) for s in shape)
