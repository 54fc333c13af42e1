"""A scenario's heads: its multi-head trace, one head's projection slices, one head alone.

The arithmetic is ``multi_head_attention``'s; this module only reads a Scenario into it,
so pages never compute. Shapes follow the paper: X (n, d_model); W_q, W_k, W_v
(d_model, n_heads·d_head); W_o (n_heads·d_head, d_model).
"""

from __future__ import annotations

from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.multihead import MultiHeadTrace, head_slice, multi_head_attention
from attention_core.scenario import Scenario
from attention_core.types import FloatArray


def multi_head_trace(s: Scenario) -> MultiHeadTrace:
    """The scenario's multi-head attention: ``n_heads`` heads, then W_o.

    Needs embeddings mode with d_k = d_v and W_o (``shapes.ready_for_heads`` makes it so);
    otherwise an InputError says what is missing. The scenario's mask and scaling switch
    apply to every head.
    """
    if s.mode != "embeddings":
        raise InputError(
            N_("multi-head attention needs embeddings mode (X, W_q, W_k, W_v)"), "mode"
        )
    if s.W_o is None:
        raise InputError(N_("multi-head attention needs W_o to map the heads back"), "W_o")
    m = s.matrices()
    return multi_head_attention(
        m["X"],
        m["W_q"],
        m["W_k"],
        m["W_v"],
        s.W_o,
        s.n_heads,
        mask=s.mask(),
        scaled=s.scaled,
        labels=(s.query_labels, s.key_labels),
    )


def head_projections(s: Scenario, trace: MultiHeadTrace, h: int) -> dict[str, FloatArray]:
    """Head ``h``'s slices of W_q, W_k and W_v, each (d_model, d_head), keyed "Q", "K", "V"."""
    cols, m = head_slice(h, trace.d_head), s.matrices()
    return {"Q": m["W_q"][:, cols], "K": m["W_k"][:, cols], "V": m["W_v"][:, cols]}


def head_scenario(s: Scenario, trace: MultiHeadTrace, h: int, name: str | None = None) -> Scenario:
    """Head ``h`` (0-based) alone: its Q, K, V (n, d_head) as a direct-mode scenario.

    Its mask and scaling are the scenario's, so the walkthrough shows this head's numbers:
    scaled by 1/√d_head, its own d_k. ``name``: the new scenario's name (the app gives it in
    the learner's language); by default "<name>: head h of n", in English.
    """
    head = trace.heads[h]
    title = s.name or "your scenario"
    return Scenario(
        tokens=s.tokens,
        mode="direct",
        Q=head.Q,
        K=head.K,
        V=head.V,
        mask_kind=s.mask_kind,
        n_valid=s.n_valid,
        custom_mask=s.custom_mask,
        scaled=s.scaled,
        name=name if name is not None else f"{title}: head {h + 1} of {trace.n_heads}",
    )
