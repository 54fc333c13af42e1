"""Step builders: each stage of one attention trace as a step, with its known slips.

Every accepted answer is read off an ``AttentionTrace``, never typed as a constant, so
the exercises cannot drift from the maths the rest of the app shows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attention_core.attention import AttentionTrace
from attention_core.exercises.checker import close
from attention_core.exercises.mistakes import (
    concat_mistakes,
    head_weights_mistakes,
    multi_head_output_mistakes,
    output_mistakes,
    scaled_mistakes,
    scores_mistakes,
    weights_mistakes,
)
from attention_core.exercises.model import Mistake, NumericStep, Variant, tolerance
from attention_core.i18n import Piece, Plural, Text
from attention_core.multihead import MultiHeadTrace, combine_heads
from attention_core.types import FloatArray

QK_LAYOUT = Text("one row per query, one column per key")
OUT_LAYOUT = Text("one row per query, one column per value dimension")
SCALED_TEX = r"\frac{QK^\top}{\sqrt{d_k}}"
WEIGHTS_TEX = r"\operatorname{softmax}\!\left(" + SCALED_TEX + r"\right)"


def numeric(
    *,
    accepted: list[Variant],
    mistakes: list[Mistake],
    decimals: int | None,
    **fields: Any,
) -> NumericStep:
    """A NumericStep whose mistakes are only those the checker can tell apart.

    A wrong path that lands within the tolerance of an accepted answer (e.g. d_k = 1 makes
    "forgot to scale" harmless) or gives non-finite numbers is dropped.
    """
    tol = tolerance(decimals)
    kept = [
        m
        for m in mistakes
        if np.all(np.isfinite(m.value)) and not any(close(m.value, v.value, tol) for v in accepted)
    ]
    frozen = [Variant(v.label, _readonly(v.value)) for v in accepted]
    kept = [Mistake(m.key, _readonly(m.value), m.said) for m in kept]
    return NumericStep(accepted=tuple(frozen), mistakes=tuple(kept), decimals=decimals, **fields)


def _readonly(M: FloatArray) -> FloatArray:
    A = np.array(M, dtype=np.float64)
    A.flags.writeable = False  # steps are shared by every session: nobody may edit them
    return A


def scores_step(t: AttentionTrace, **fields: Any) -> NumericStep:
    """Q Kᵀ (n_q, n_k), exact."""
    return numeric(
        id="scores",
        title=Text("Q Kᵀ"),
        symbol=r"QK^\top",
        accepted=[Variant(None, t.scores)],
        mistakes=scores_mistakes(t),
        decimals=fields.pop("decimals", None),
        layout=QK_LAYOUT,
        **fields,
    )


def scaled_step(t: AttentionTrace, decimals: int | None, **fields: Any) -> NumericStep:
    """Q Kᵀ / √d_k (n_q, n_k)."""
    return numeric(
        id="scaled",
        title=Text("Q Kᵀ / √d_k"),
        symbol=SCALED_TEX,
        accepted=[Variant(None, t.scaled_scores)],
        mistakes=scaled_mistakes(t),
        decimals=decimals,
        layout=QK_LAYOUT,
        **fields,
    )


def weights_step(
    t: AttentionTrace, decimals: int, percent: bool = False, **fields: Any
) -> NumericStep:
    """softmax(Q Kᵀ / √d_k) row by row (n_q, n_k)."""
    return numeric(
        id="weights",
        title=Text("weights"),
        symbol=WEIGHTS_TEX,
        accepted=[Variant(None, t.weights)],
        mistakes=weights_mistakes(t),
        decimals=decimals,
        layout=QK_LAYOUT,
        kind="weights",
        percent=percent,
        **fields,
    )


def output_step(
    t: AttentionTrace,
    decimals: int,
    weight_decimals: int,
    rounded_weights: FloatArray | None = None,
    rounded_label: Piece | None = None,
    **fields: Any,
) -> NumericStep:
    """weights · V (n_q, d_v); the lesson's ``rounded_weights`` give a second accepted answer."""
    accepted = [Variant(None, t.output)]
    if rounded_weights is not None:
        accepted = [
            Variant(Text("the full-precision weights"), t.output),
            Variant(rounded_label, rounded_weights @ t.V),  # (n_q, n_k) @ (n_k, d_v)
        ]
    return numeric(
        id="output",
        title=Text("output"),
        symbol=WEIGHTS_TEX + "V",
        accepted=accepted,
        mistakes=output_mistakes(t, weight_decimals),
        decimals=decimals,
        layout=OUT_LAYOUT,
        **fields,
    )


# ---- multi-head -----------------------------------------------------------------------
CONCAT_LAYOUT = Text("one row per token; head 1's columns, then head 2's")
MODEL_LAYOUT = Text("one row per token, one column per model dimension (d_model)")


def head_weights_step(mh: MultiHeadTrace, h: int, decimals: int, **fields: Any) -> NumericStep:
    """Head ``h``'s weights softmax(Q_h K_hᵀ / √d_head) (n_q, n_k)."""
    return numeric(
        id=f"head{h + 1}",
        title=Text("head {head} weights", head=str(h + 1)),
        symbol=rf"\operatorname{{softmax}}\!\left(\frac{{Q_{h + 1} K_{h + 1}^\top}}"
        r"{\sqrt{d_\text{head}}}\right)",
        accepted=[Variant(None, mh.heads[h].weights)],
        mistakes=head_weights_mistakes(mh, h),
        decimals=decimals,
        layout=QK_LAYOUT,
        kind="weights",
        **fields,
    )


def _rounded_path(mh: MultiHeadTrace, decimals: int) -> FloatArray:
    """The concatenation a learner gets by hand: weights rounded, then outputs rounded.

    Returns (n_q, n_heads·d_head).
    """
    outputs = [np.round(h.weights, decimals) @ h.V for h in mh.heads]  # each (n_q, d_head)
    concat, _ = combine_heads(outputs, mh.W_o)
    return np.round(concat, decimals)


def concat_step(mh: MultiHeadTrace, decimals: int, **fields: Any) -> NumericStep:
    """[head_1 | head_2 | ...] (n_q, n_heads·d_head), each head's weights · V_h."""
    return numeric(
        id="concat",
        title=Text("concatenation"),
        symbol=r"\operatorname{concat}(\text{head}_1, \text{head}_2)",
        accepted=[
            Variant(Text("the full-precision weights"), mh.concat),
            Variant(
                Plural(
                    "the weights rounded to {n} decimal",
                    "the weights rounded to {n} decimals",
                    decimals,
                ),
                _rounded_path(mh, decimals),
            ),
        ],
        mistakes=concat_mistakes(mh),
        decimals=decimals,
        layout=CONCAT_LAYOUT,
        **fields,
    )


def multi_head_output_step(mh: MultiHeadTrace, decimals: int, **fields: Any) -> NumericStep:
    """concat · W_o (n_q, d_model)."""
    _, from_rounded = combine_heads([_rounded_path(mh, decimals)], mh.W_o)
    return numeric(
        id="final",
        title=Text("output"),
        symbol=r"\operatorname{concat}(\text{head}_1, \text{head}_2)\, W_O",
        accepted=[
            Variant(Text("the full-precision concatenation"), mh.output),
            Variant(
                Plural(
                    "the concatenation rounded to {n} decimal",
                    "the concatenation rounded to {n} decimals",
                    decimals,
                ),
                from_rounded,
            ),
        ],
        mistakes=multi_head_output_mistakes(mh),
        decimals=decimals,
        layout=MODEL_LAYOUT,
        **fields,
    )
