"""The online softmax: attention computed over the keys a tile at a time, never the whole row.

FlashAttention and every fast kernel work this way. For each query row they keep only

    m   the largest score seen so far            (the stable softmax's "subtract the max")
    l   the sum of exp(score - m) so far          (the softmax's denominator, so far)
    acc the sum of exp(score - m) v so far        (the output's numerator, so far)

and when a tile brings a larger maximum m_new, everything kept so far was measured against
the old one: l and acc are multiplied by exp(m_old - m_new) before the tile's own terms are
added. After the last tile, acc / l is exactly softmax(scores) V. What a row holds is
O(tile + d_v) numbers, where the full softmax holds the whole row of n_k scores (n_q x n_k
for the grid).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention_core.attention import check_qkv
from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.masks import check_mask
from attention_core.types import BoolArray, FloatArray, RealArray


@dataclass(frozen=True, eq=False)
class OnlineTile:
    """The state of every query row after one tile of keys, ``start`` to ``stop`` - 1.

    scores (n_q, stop - start): the tile's scaled scores, -inf where masked; m, l,
    rescale (n_q,); partial (n_q, d_v): acc / l, the output over the keys seen so far
    (0 in a row that has seen no key yet). ``rescale`` is exp(m_old - m_new), what the
    row's l and acc were multiplied by before this tile's terms were added (1 where m
    did not change, also in a row that has still seen no key).
    """

    start: int
    stop: int
    scores: FloatArray
    m: FloatArray
    l: FloatArray  # noqa: E741 (the papers' name)
    rescale: FloatArray
    partial: FloatArray


@dataclass(frozen=True, eq=False)
class OnlineTrace:
    """softmax(Q K^T / sqrt(d_k)) V computed tile by tile: the output and every tile."""

    output: FloatArray  # (n_q, d_v)
    tiles: tuple[OnlineTile, ...]
    tile: int
    scale: float
    mask: BoolArray | None

    @property
    def held(self) -> int:
        """Numbers a query row holds at once: m, l, acc (d_v) and one tile of scores."""
        return 2 + self.output.shape[1] + self.tile

    @property
    def full_row(self) -> int:
        """Numbers the full softmax holds for a row: all n_k scores."""
        return self.tiles[-1].stop


def check_tile(tile: object, n_k: int) -> int:
    """``tile`` as a whole number of keys, 1 or more, or a clear InputError."""
    if isinstance(tile, bool) or not isinstance(tile, int | np.integer) or tile < 1:
        raise InputError(N_("the tile size must be a whole number of keys, 1 or more, not "
                            "{tile}"), where="tile", tile=str(tile))  # fmt: skip
    return min(int(tile), n_k)  # a tile past the last key is one tile of them all


def online_attention(
    Q: RealArray,
    K: RealArray,
    V: RealArray,
    tile: int,
    mask: BoolArray | None = None,
    scaled: bool = True,
) -> OnlineTrace:
    """``attention(Q, K, V, mask, scaled).output`` computed over ``tile`` keys at a time.

    Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v), mask (n_q, n_k) True = may attend, checked
    as ``attention`` checks them (a row that may attend to no key is an InputError there
    too: its softmax has no value). A tile in which a row may attend to nothing adds
    nothing to that row; the last tile may be shorter. float64 throughout.
    """
    Q, K, V = check_qkv(Q, K, V)
    n_q, n_k = Q.shape[0], K.shape[0]
    if mask is not None:
        mask = check_mask(mask, n_q, n_k)
    size = check_tile(tile, n_k)
    scale = 1.0 / math.sqrt(Q.shape[1]) if scaled else 1.0
    m = np.full(n_q, -np.inf)
    l = np.zeros(n_q)  # noqa: E741 (the papers' name)
    acc = np.zeros((n_q, V.shape[1]))
    tiles = []
    for start in range(0, n_k, size):
        stop = min(start + size, n_k)
        scores = (Q @ K[start:stop].T) * scale  # (n_q, d_k) @ (d_k, b) -> (n_q, b)
        if mask is not None:
            scores = np.where(mask[:, start:stop], scores, -np.inf)
        m_new = np.maximum(m, scores.max(axis=1))  # (n_q,)
        seen = np.isfinite(m_new)  # rows that have met at least one key they may attend to
        shift = np.where(seen, m_new, 0.0)  # a row with no key yet: exp(-inf - 0) = 0 below
        rescale = np.where(seen, np.exp(m - shift), 1.0)  # exp(m_old - m_new) <= 1
        p = np.exp(scores - shift[:, None])  # (n_q, b), 0 where masked
        l = l * rescale + p.sum(axis=1)  # noqa: E741
        acc = acc * rescale[:, None] + p @ V[start:stop]  # (n_q, b) @ (b, d_v) -> (n_q, d_v)
        m = m_new
        partial = acc / np.where(l > 0, l, 1.0)[:, None]  # 0 in a row with no key yet
        tiles.append(OnlineTile(start, stop, scores, m, l, rescale, partial))
    return OnlineTrace(output=tiles[-1].partial, tiles=tuple(tiles), tile=size,
                       scale=float(scale), mask=mask)  # fmt: skip
