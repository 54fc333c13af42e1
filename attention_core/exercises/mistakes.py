"""Known wrong paths, each computed by the core, so the checker can name the slip.

Every wrong set of weights is the core's own ``attention()`` run on the wrong scores (or
the core's ``softmax`` on the trace's masked scores): the masking and the softmax are
never written again here, so a wrong path cannot drift from the right one.
"""

from __future__ import annotations

import math

import numpy as np

from attention_core.attention import AttentionTrace, attention
from attention_core.errors import InputError
from attention_core.exercises.model import Mistake
from attention_core.i18n import Plural, Text
from attention_core.multihead import MultiHeadTrace, combine_heads
from attention_core.softmax import softmax
from attention_core.types import BoolArray, FloatArray


def attend_to_scores(S: FloatArray, V: FloatArray, mask: BoolArray | None) -> AttentionTrace:
    """The core's attention() on ready-made scores ``S`` (n_q, n_k), unscaled.

    Q = S and K = I (n_k, n_k) make Q Kᵀ = S, so the core applies the mask and the
    softmax to exactly these scores. V (n_k, d_v). Returns the trace (weights (n_q, n_k)).
    """
    n_k = S.shape[1]
    return attention(S, np.eye(n_k), V, mask=mask, scaled=False)  # scores = S @ I = S


def wrong_paths(t: AttentionTrace) -> list[tuple[str, FloatArray, FloatArray]]:
    """(mistake key, weights (n_q, n_k), output (n_q, d_v)) for each wrong path into softmax."""
    sqrt_dk = math.sqrt(t.d_k)
    paths = [
        ("softmax_unscaled", _through_core(t.scores, t.V, t.mask)),
        ("divided_by_dk", _through_core(t.scores / t.d_k, t.V, t.mask)),
        ("multiplied", _through_core(t.scores * sqrt_dk, t.V, t.mask)),
        ("softmax_columns", _down_the_columns(t)),
        ("rounded_early", _through_core(np.round(t.scaled_scores, 1), t.V, t.mask)),
    ]
    if t.mask is not None:
        paths.append(("no_mask", _through_core(t.scaled_scores, t.V, None)))
        if t.mask.shape[0] == t.mask.shape[1]:
            paths.append(("mask_flipped", _through_core(t.scaled_scores, t.V, t.mask.T)))
    return [(key, weights, output) for key, (weights, output) in paths]


def _through_core(
    S: FloatArray, V: FloatArray, mask: BoolArray | None
) -> tuple[FloatArray, FloatArray]:
    """Weights (n_q, n_k) and output (n_q, d_v) of the core's attention on scores ``S``.

    A mask that leaves some query no key (a flipped padding mask) is no slip a learner
    can follow; it comes back as nan, which the step builders drop.
    """
    try:
        wrong = attend_to_scores(S, V, mask)
    except InputError:
        nan = np.full(S.shape, np.nan)
        return nan, nan @ V  # (n_q, n_k) @ (n_k, d_v)
    return wrong.weights, wrong.output


def _down_the_columns(t: AttentionTrace) -> tuple[FloatArray, FloatArray]:
    """The core's softmax along axis 0 of the trace's own masked scores, and its output."""
    columns = softmax(t.masked_scores, axis=0)  # (n_q, n_k); a fully masked column is nan
    return columns, columns @ t.V  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v)


def scores_mistakes(t: AttentionTrace) -> list[Mistake]:
    return [
        Mistake(
            "transposed",
            t.scores.T,  # (n_k, n_q) = K Qᵀ
            Text(
                "These are the right dot products in the wrong layout: you computed K Qᵀ, "
                "the transpose. Q Kᵀ has one row per query and one column per key."
            ),
        )
    ]


def scaled_mistakes(t: AttentionTrace) -> list[Mistake]:
    d, r = t.d_k, math.sqrt(t.d_k)
    dk, root = str(d), f"{r:.4g}"
    out = [
        Mistake(
            "unscaled",
            t.scores,
            Text(
                "These are the raw scores Q Kᵀ: you forgot to scale. Divide each one by "
                "√d_k = √{d_k} ≈ {root}.",
                d_k=dk,
                root=root,
            ),
        ),
        Mistake(
            "divided_by_dk",
            t.scores / d,
            Text(
                "It looks like you divided by d_k = {d_k}. The scale is 1/√d_k: divide by "
                "√{d_k} ≈ {root} instead.",
                d_k=dk,
                root=root,
            ),
        ),
        Mistake(
            "multiplied",
            t.scores * r,
            Text(
                "It looks like you multiplied by √d_k ≈ {root}. Scaling divides the scores "
                "by √d_k, which makes them smaller.",
                root=root,
            ),
        ),
        Mistake(
            "transposed",
            t.scaled_scores.T,
            Text(
                "Right numbers, wrong layout: this is K Qᵀ / √d_k, the transpose. Keep one "
                "row per query and one column per key."
            ),
        ),
    ]
    if r != round(r):
        out.append(
            Mistake(
                "rounded_early",
                t.scores / round(r, 1),
                Text(
                    "Close, but it looks like you rounded √{d_k} to {rounded} before "
                    "dividing. Keep more digits (√{d_k} ≈ {root}) until the final rounding.",
                    d_k=dk,
                    rounded=str(round(r, 1)),
                    root=f"{r:.4f}",
                ),
            )
        )
    return out


_WEIGHT_MESSAGES = {
    "softmax_unscaled": Text(
        "It looks like you took the softmax of the unscaled scores Q Kᵀ. "
        "Divide by √d_k first, then apply softmax."
    ),
    "divided_by_dk": Text(
        "It looks like the scores were divided by d_k before the softmax. The scale is 1/√d_k."
    ),
    "multiplied": Text(
        "It looks like the scores were multiplied by √d_k before the softmax. "
        "Divide by √d_k instead."
    ),
    "softmax_columns": Text(
        "It looks like you took the softmax down each column. Softmax runs "
        "along each row: one query's weights over all the keys add up to 1."
    ),
    "rounded_early": Text(
        "Close, but it looks like you rounded the scaled scores to 1 decimal "
        "before the softmax. Keep more digits until the final rounding."
    ),
    "no_mask": Text(
        "It looks like you left out the mask: every token attended to later tokens "
        "too. Blocked positions get weight exactly 0."
    ),
    "mask_flipped": Text(
        "The mask is on the wrong side: each token looked at later tokens "
        "instead of earlier ones. A causal mask blocks everything above the diagonal."
    ),
}


def weights_mistakes(t: AttentionTrace) -> list[Mistake]:
    out = [Mistake(k, w, _WEIGHT_MESSAGES[k]) for k, w, _ in wrong_paths(t)]
    out.append(
        Mistake(
            "transposed",
            t.weights.T,
            Text(
                "Right numbers, wrong layout: rows and columns are swapped. Each row is one "
                "query's weights over the keys."
            ),
        )
    )
    return out


_OUTPUT_MESSAGES = {
    "softmax_unscaled": Text(
        "It looks like these weights came from the unscaled scores: you "
        "forgot to scale before the softmax."
    ),
    "divided_by_dk": Text(
        "It looks like the scores were divided by d_k instead of √d_k on the way to the weights."
    ),
    "multiplied": Text("It looks like the scores were multiplied by √d_k instead of divided."),
    "softmax_columns": Text(
        "It looks like the weights came from a softmax down the columns. "
        "Each query's row of weights should add up to 1."
    ),
    "rounded_early": Text(
        "Close, but it looks like the scaled scores were rounded to 1 decimal "
        "before the softmax. Keep more digits until the end."
    ),
    "no_mask": Text(
        "It looks like you left out the mask, so tokens also mixed in values of later tokens."
    ),
    "mask_flipped": Text(
        "The mask is on the wrong side: each token mixed in later tokens' "
        "values instead of earlier ones."
    ),
}


def output_mistakes(t: AttentionTrace, weight_decimals: int) -> list[Mistake]:
    keys = {"softmax_unscaled": "unscaled"}  # at the output, the slip is "forgot to scale"
    out = [Mistake(keys.get(k, k), o, _OUTPUT_MESSAGES[k]) for k, _, o in wrong_paths(t)]
    for r in range(1, weight_decimals):
        out.append(
            Mistake(
                "rounded_early",
                np.round(t.weights, r) @ t.V,  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v)
                Plural(
                    "Close, but it looks like you rounded the weights to {n} decimal before "
                    "multiplying by V. Keep at least {kept} decimals until the final answer.",
                    "Close, but it looks like you rounded the weights to {n} decimals before "
                    "multiplying by V. Keep at least {kept} decimals until the final answer.",
                    r,
                    kept=str(weight_decimals),
                ),
            )
        )
    out.append(
        Mistake(
            "transposed",
            t.output.T,
            Text(
                "Right numbers, wrong layout: the output has one row per query and one "
                "column per value dimension (weights · V, not Vᵀ · weightsᵀ)."
            ),
        )
    )
    return out


def mask_mistakes(mask: BoolArray) -> list[Mistake]:
    m = mask.astype(float)
    return [
        Mistake(
            "mask_flipped",
            m.T,
            Text(
                "This mask lets each token see later tokens and hides earlier ones: it is "
                "on the wrong side of the diagonal. Rows are queries, columns are keys."
            ),
        ),
        Mistake(
            "mask_no_self",
            np.tril(m, k=-1),
            Text(
                "This mask also blocks the diagonal, so a token could not attend to itself "
                "(and the first token would have nothing to attend to). Keep the diagonal "
                "at 1."
            ),
        ),
        Mistake(
            "mask_inverted",
            1.0 - m,
            Text(
                "This is the mask with 1 and 0 swapped: 1 where a key is blocked, 0 where it "
                "may be seen (some libraries write masks that way). Here 1 means the query "
                "(row) may attend to the key (column): write 1 for every 0 and 0 for every 1."
            ),
        ),
    ]


# ---- multi-head: slips per head, in the concatenation and through W_o -----------------
def _other(mh: MultiHeadTrace, h: int) -> int:
    return (h + 1) % mh.n_heads


def wrong_heads(mh: MultiHeadTrace) -> dict[str, list[AttentionTrace]]:
    """Every head recomputed by the core along a wrong path, by mistake key.

    "scaled_by_d_model": each head's scores divided by √d_model (the whole width) instead
    of its own √d_head; "unscaled": not divided at all.
    """
    d_model = mh.output.shape[1]
    return {
        "scaled_by_d_model": [
            attend_to_scores(h.scores / math.sqrt(d_model), h.V, h.mask) for h in mh.heads
        ],
        "unscaled": [attend_to_scores(h.scores, h.V, h.mask) for h in mh.heads],
    }


def _scale_message(mh: MultiHeadTrace, each_head: bool) -> Text:
    """Scaled by √d_model: about a head's scores (``each_head``: about every head's)."""
    p = {"d_model": str(mh.output.shape[1]), "d_head": str(mh.d_head)}
    square = mh.d_head**2 == mh.output.shape[1]  # then d_head itself is √d_model
    if each_head and square:
        return Text(
            "It looks like each head's scores were divided by √d_model = √{d_model} (or by "
            "d_head = {d_head} itself). A head only sees its own d_head = {d_head} columns, "
            "so it scales by 1/√d_head = 1/√{d_head}.", **p,
        )  # fmt: skip
    if each_head:
        return Text(
            "It looks like each head's scores were divided by √d_model = √{d_model}. A head "
            "only sees its own d_head = {d_head} columns, so it scales by 1/√d_head = "
            "1/√{d_head}.", **p,
        )  # fmt: skip
    if square:
        return Text(
            "It looks like the scores were divided by √d_model = √{d_model} (or by d_head = "
            "{d_head} itself). A head only sees its own d_head = {d_head} columns, so it "
            "scales by 1/√d_head = 1/√{d_head}.", **p,
        )  # fmt: skip
    return Text(
        "It looks like the scores were divided by √d_model = √{d_model}. A head only sees "
        "its own d_head = {d_head} columns, so it scales by 1/√d_head = 1/√{d_head}.", **p,
    )  # fmt: skip


def head_weights_mistakes(mh: MultiHeadTrace, h: int) -> list[Mistake]:
    """Slips in head ``h``'s weights (n_q, n_k)."""
    head, o = mh.heads[h], _other(mh, h)
    other = mh.heads[o]
    mixed = attention(head.Q, other.K, head.V, mask=head.mask)  # own queries, other keys
    wrong = wrong_heads(mh)
    return [
        Mistake("scaled_by_d_model", wrong["scaled_by_d_model"][h].weights,
                _scale_message(mh, each_head=False)),
        Mistake("softmax_unscaled", wrong["unscaled"][h].weights,
                Text("These are the softmax of the unscaled scores. Divide head {head}'s "
                     "scores by √d_head = √{d_head} first.",
                     head=str(h + 1), d_head=str(mh.d_head))),
        Mistake("wrong_head_slice", other.weights,
                Text("These are head {other}'s weights: you used its columns of W_q and W_k. "
                     "Head {head} reads columns {first} to {last}.",
                     other=str(o + 1), head=str(h + 1), **_columns(mh, h))),
        Mistake("wrong_head_slice", mixed.weights,
                Text("The queries come from head {head}'s columns but the keys from head "
                     "{other}'s. Both Q and K take columns {first} to {last} for head {head}.",
                     other=str(o + 1), head=str(h + 1), **_columns(mh, h))),
        Mistake("softmax_columns", _down_the_columns(head)[0],
                _WEIGHT_MESSAGES["softmax_columns"]),
        Mistake("transposed", head.weights.T,
                Text("Right numbers, wrong layout: each row is one query's weights over the "
                     "keys.")),
    ]  # fmt: skip


def _columns(mh: MultiHeadTrace, h: int) -> dict[str, str]:
    cols = mh.slices[h]
    return {"first": str(cols.start + 1), "last": str(cols.stop)}  # 1-based, as a learner counts


def _wrong_combinations(mh: MultiHeadTrace) -> dict[str, tuple[FloatArray, FloatArray]]:
    """(concat, output) along each wrong path through the heads, by mistake key."""
    outputs = {
        "heads_swapped": [h.output for h in mh.heads][::-1],
        **{key: [t.output for t in traces] for key, traces in wrong_heads(mh).items()},
    }
    return {key: combine_heads(outs, mh.W_o) for key, outs in outputs.items()}


_COMBINED_MESSAGES = {
    "unscaled": Text("It looks like the heads' scores were not scaled before the softmax."),
}


def _combined_mistakes(mh: MultiHeadTrace, stage: int, swapped: Text) -> list[Mistake]:
    """The wrong paths' concat (``stage`` 0) or output (1); ``swapped``: that stage's words."""
    messages = {
        **_COMBINED_MESSAGES,
        "heads_swapped": swapped,
        "scaled_by_d_model": _scale_message(mh, each_head=True),
    }
    return [Mistake(k, both[stage], messages[k]) for k, both in _wrong_combinations(mh).items()]


def concat_mistakes(mh: MultiHeadTrace) -> list[Mistake]:
    """Slips in the concatenation (n_q, n_heads·d_head)."""
    forgot_v = combine_heads([h.weights for h in mh.heads], mh.W_o)[0]
    return [
        *_combined_mistakes(
            mh, 0, Text("The heads are in the wrong order: head 1's output fills the first "
                        "{d_head} columns, head 2's the next.", d_head=str(mh.d_head)),
        ),
        Mistake("forgot_v", forgot_v,
                Text("These are the heads' weights side by side. Each head first multiplies "
                     "its weights by its own slice of V; the concatenation holds those "
                     "outputs.")),
    ]  # fmt: skip


def multi_head_output_mistakes(mh: MultiHeadTrace) -> list[Mistake]:
    """Slips in the final output (n_q, d_model)."""
    return [
        Mistake("forgot_w_o", mh.concat,
                Text("This is the concatenation itself: you forgot W_O. Multiply the "
                     "concatenated heads by W_O to get back to the model's width.")),
        *_combined_mistakes(
            mh, 1, Text("The heads went into W_O in the wrong order: head 1's output comes "
                        "first in the concatenation."),
        ),
        Mistake("transposed", combine_heads([h.output for h in mh.heads], mh.W_o.T)[1],
                Text("It looks like you multiplied by W_Oᵀ. The output is concat · W_O: row i "
                     "of the concatenation times each column of W_O.")),
    ]  # fmt: skip
