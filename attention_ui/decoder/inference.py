"""Two stages of one decoder head at inference time: the KV cache (one new token against the
kept keys and values) and the online softmax (one query row, its keys a tile at a time).

Both draw on the core (attention_core.decoder.cache, attention_core.online_attention): the
page shows their numbers and what they save, and that they equal the full computation.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import AttentionTrace
from attention_core.decoder import Decoder, DecoderRun, cache_bytes, multiply_adds
from attention_core.decoder.cache import CacheComparison
from attention_ui.decoder import data
from attention_ui.decoder import generation_figures as gf
from attention_ui.draw import figures as fig
from attention_ui.frame import keys, models
from attention_ui.frame.widgets import static_table
from attention_ui.i18n import _
from attention_ui.stages.data import Labels
from attention_ui.views import online_softmax
from attention_ui.views.cache import lazy
from attention_ui.views.chart import plot


class Ctx(Protocol):
    """The head a stage shows (head.Ctx): the run, and layer, head and its K/V head, 0-based."""

    run: DecoderRun
    layer: int
    head: int

    @property
    def kv(self) -> int: ...


COMPARISONS = 8  # cached steps kept (shared by sessions): a prompt and its next token


@st.cache_resource(max_entries=COMPARISONS, show_spinner=False)
def _compare(
    folder: str, text: str, token: int, _decoder: Decoder, _run: DecoderRun
) -> CacheComparison:
    return _decoder.step_and_recompute(_run, token)


def comparison(run: DecoderRun) -> tuple[Decoder, CacheComparison]:
    """The likeliest next token after the prompt, by one cached step and by recomputing."""
    decoder = models.decoder()
    token = run.next_tokens[0].id
    with st.spinner(_("Running one step with the cache, and the whole text again…")):
        return decoder, _compare(str(decoder.path), run.text, token, decoder, run)


# ---- the KV cache ---------------------------------------------------------------------------
def kv_cache(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    run = ctx.run
    decoder, c = comparison(run)
    n, new = run.n, data.visible(run.next_tokens[0].text)
    st.markdown(
        _(
            "Writing text, the model runs **one token at a time**. Because of the causal mask "
            "an earlier token's keys and values never change, so they are kept: the **KV "
            "cache**, in every layer, for each of the {kv} key/value heads. The next token "
            "(here the likeliest, “{new}”) needs only its own query, key and value: one "
            "row per head against the {n} cached keys and its own."
        ).format(kv=run.config.n_kv_heads, new=new, n=n)
    )
    _cache_table(run)
    K = c.step.cache.K[ctx.layer][:, ctx.kv]  # (n + 1, d_head): the cache and the new key
    rows = [*labels.keys, f"→ {new}"]
    # one above the other: 64 columns of keys need the page's width
    title = _("Cached keys of key/value head {kv}, layer {layer}; the new one last").format(
        kv=ctx.kv + 1, layer=ctx.layer + 1
    )
    plot(
        lazy(fig.heatmap, K, rows, [str(i + 1) for i in range(K.shape[1])], title,
             row_title=_("token"), col_title=_("dimension")),
        key="dec_kv_keys",
    )  # fmt: skip
    w = c.step.weights[ctx.layer, ctx.head]  # (n + 1,)
    title = _("The new query of head {head} against the cache").format(head=ctx.head + 1)
    plot(lazy(gf.query_weights, rows, w.tolist(), title), key="dec_kv_query")
    _cache_checks(decoder, run, c)


def _cache_table(run: DecoderRun) -> None:
    config, n = run.config, run.n + 1
    both = [
        (_("with grouped queries ({kv} K/V heads)").format(kv=config.n_kv_heads), True),
        (_("one K/V head per query head ({h})").format(h=config.n_heads), False),
    ]
    frame = pd.DataFrame(
        {
            _("cache"): [name for name, _grouped in both],
            _("numbers per layer"): [
                f"{2 * (config.n_kv_heads if g else config.n_heads) * n * config.d_head:,}"
                for _name, g in both
            ],
            _("bytes, {layers} layers (float32)").format(layers=config.n_layers): [
                f"{cache_bytes(config, n, grouped=g):,}" for _name, g in both
            ],
        }
    )
    static_table(frame, hide_index=True)
    st.caption(
        _("{n} tokens × 2 (K and V) × heads × {d} numbers per layer.").format(n=n, d=config.d_head)
    )


def _cache_checks(decoder: Decoder, run: DecoderRun, c: CacheComparison) -> None:
    config, n = run.config, run.n + 1
    step, full = multiply_adds(config, 1, n), multiply_adds(config, n, n)
    after = data.visible(decoder.decode([int(np.argmax(c.step.logits))]))
    again = data.visible(decoder.decode([int(np.argmax(c.recomputed))]))
    st.markdown(
        _(
            "**Equal to recomputing.** The cached step's scores for the token after it (49,152 "
            "logits) differ from running all {n} tokens again by at most {diff}: float32's "
            "rounding (about 7 significant digits) on scores of about {size}. The likeliest "
            "next token: “{after}” with the cache, “{again}” recomputed."
        ).format(
            n=n,
            diff=f"{c.difference:.1e}",
            size=f"{float(np.abs(c.recomputed).max()):.0f}",
            after=after,
            again=again,
        )
        + "\n\n"
        + _(
            "**The work.** One cached step: {step} multiply-adds. Recomputing all {n} tokens: "
            "{full}, {ratio}× as many, and the gap grows with every token."
        ).format(step=f"{step:,}", n=n, full=f"{full:,}", ratio=f"{full / step:.1f}")
    )


# ---- the online softmax -----------------------------------------------------------------------
def online(labels: Labels, t: AttentionTrace, query: int) -> None:
    """Row ``query`` of this head over the keys up to it (the causal mask: the rest never
    enter), in tiles of the learner's size (views.online_softmax)."""
    online_softmax.online_row(labels, t, query, query + 1, keys.DEC_TILE)
