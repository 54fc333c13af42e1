"""Choosing the next token: temperature, top-k and top-p, and a seeded draw.

    p = softmax(logits / T)          T > 0; T -> 0 puts all the weight on the largest logit
                                     (greedy, T = 0 here), T = 1 is the model's own
                                     distribution, T > 1 flattens it
    top-k: keep the k likeliest      then renormalise
    top-p: keep the fewest likeliest tokens whose probabilities reach p, then renormalise

in that order, as Hugging Face's generate() applies them. It is the Scaling lab's lesson
again: dividing the logits by a small T saturates the softmax exactly as scores not divided
by sqrt(d_k) do.

A draw is machine-independent given the probabilities: its uniform number is built from the
64 raw bits of numpy's PCG64 (whose stream numpy guarantees across machines and versions)
as (bits >> 11) * 2^-53, exactly, and the token is the first whose running sum (a plain
left-to-right float64 sum) passes it. The probabilities themselves come from float32
logits, whose last bits can differ between BLAS kernels: a draw could then differ only
where the uniform number falls within that rounding (~1e-6) of a running sum's boundary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeGuard

import numpy as np
from numpy.typing import NDArray

from attention_core.errors import InputError
from attention_core.i18n import N_

MAX_TEMPERATURE = 2.0  # the messages say 2


@dataclass(frozen=True, eq=False)
class Distribution:
    """The next token's distribution after temperature and the cut-offs, likeliest first.

    ids (m,) and p (m,) float64, summing to 1, only the tokens kept (p > 0); ``full`` (m',)
    the same tokens' probabilities at this temperature before any cut-off (for a chart
    that shows what the cut-offs removed) over ``full_ids``; ``entropy`` in nats, of p.
    """

    ids: NDArray[np.intp]
    p: NDArray[np.float64]
    full_ids: NDArray[np.intp]
    full: NDArray[np.float64]
    temperature: float

    @property
    def entropy(self) -> float:
        """-sum p log p, in nats (0 for greedy: one certain token)."""
        p = self.p[self.p > 0]
        return float(-(p * np.log(p)).sum())


Settings = tuple[float, int | None, float | None]


def check_sampling(temperature: object, top_k: object, top_p: object) -> Settings:
    """The three settings checked: T in [0, MAX_TEMPERATURE], top_k a whole number >= 1 or
    None, top_p in (0, 1] or None; else an InputError naming the setting."""
    try:
        t = float(temperature)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        t = math.nan
    if not 0.0 <= t <= MAX_TEMPERATURE:
        raise InputError(N_("the temperature must be between 0 and {most}, not {t}"),
                         where="temperature", most="2", t=str(temperature))  # fmt: skip
    if top_k is not None and not whole_number(top_k, 1):
        raise InputError(N_("top-k must be a whole number of tokens, 1 or more, not {k}"),
                         where="top_k", k=str(top_k))  # fmt: skip
    if top_p is not None and not (isinstance(top_p, float | int) and 0.0 < top_p <= 1.0):
        raise InputError(N_("top-p must be above 0 and at most 1, not {p}"), where="top_p",
                         p=str(top_p))  # fmt: skip
    return t, None if top_k is None else int(top_k), None if top_p is None else float(top_p)


def whole_number(x: object, least: int) -> TypeGuard[int | np.integer]:
    """x is an int (not a bool) of at least ``least``."""
    return not isinstance(x, bool) and isinstance(x, int | np.integer) and bool(x >= least)


def distribution(
    logits: NDArray[np.floating], temperature: float, top_k: int | None = None,
    top_p: float | None = None,
) -> Distribution:  # fmt: skip
    """softmax(logits / T) (float64), cut by top-k then top-p and renormalised.

    logits (vocab,). T = 0 is greedy: the largest logit gets probability 1 (the first one,
    by id, on a tie). Tokens are ordered likeliest first, ties by id.
    """
    t, top_k, top_p = check_sampling(temperature, top_k, top_p)
    z = np.asarray(logits, dtype=np.float64).ravel()
    order = np.argsort(-z, kind="stable")  # likeliest first, ties by id
    if t == 0.0:
        one = order[:1]
        return Distribution(one, np.ones(1), one, np.ones(1), 0.0)
    scaled = z[order] / t
    e = np.exp(scaled - scaled[0])  # the stable softmax: the largest is first
    full = e / e.sum()
    keep = full.shape[0] if top_k is None else min(top_k, full.shape[0])
    if top_p is not None:
        cut = full[:keep] / full[:keep].sum()  # top-p reads the top-k distribution
        reach = np.cumsum(cut)
        keep = min(keep, int(np.searchsorted(reach, top_p)) + 1)  # the first to reach it
    p = full[:keep] / full[:keep].sum()
    return Distribution(order[:keep], p, order, full, t)


def uniform(rng: np.random.Generator) -> float:
    """A uniform number in [0, 1) from the generator's next 64 raw bits, the same on every
    machine: the top 53 bits times 2^-53 (exact in float64)."""
    bits = int(rng.bit_generator.random_raw())
    return (bits >> 11) * 2.0**-53


def draw(dist: Distribution, u: float) -> int:
    """The token whose interval of the running sum of ``dist.p`` holds ``u`` (in [0, 1))."""
    total = 0.0
    for token, p in zip(dist.ids.tolist(), dist.p.tolist(), strict=True):
        total += p  # left to right, in float64: the same sum on every machine
        if u < total:
            return int(token)
    return int(dist.ids[-1])  # u above a sum rounded just below 1
