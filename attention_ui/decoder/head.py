"""One decoder head, every stage: the walkthrough's stage views on a real causal trace, with
RoPE as a stage of its own and the grouped queries that share the head's keys and values.

Layer and head are picked 1-based (as the page counts) and live in the URL. The stages are
a row of choices (only the chosen one is drawn) in a fragment: a head pick reruns only this part.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st

from attention_core import AttentionTrace, Scenario
from attention_core.decoder import DecoderRun, decoder_head_scenario
from attention_ui.decoder import data, inference
from attention_ui.decoder import figures as df
from attention_ui.draw import figures as fig
from attention_ui.frame import guard, keys, look, state
from attention_ui.i18n import N_, _
from attention_ui.stages.data import Labels
from attention_ui.views import stage_views as views
from attention_ui.views import trained_head
from attention_ui.views.cache import lazy, resolve
from attention_ui.views.chart import plot

# 1-based: on the default prompt, the head where "it" looks most at "trophy" (0.57)
DEFAULT_LAYER, DEFAULT_HEAD = 17, 4


@dataclass(frozen=True)
class Ctx:
    """What a stage may need beyond the trace: the run and which head (0-based)."""

    run: DecoderRun
    layer: int
    head: int

    @property
    def kv(self) -> int:
        return self.run.config.kv_head(self.head)


def one_head(run: DecoderRun) -> None:
    st.header(_("One head, every stage"))  # outside the fragment: a pick does not resend it
    _one_head(run)


@guard.fragment
def _one_head(run: DecoderRun) -> None:
    layer, head = trained_head.pick_head(run.n_layers, run.n_heads, (DEFAULT_LAYER, DEFAULT_HEAD),
                                         keys.DEC_LAYER, keys.DEC_HEAD)  # fmt: skip
    ctx = Ctx(run, layer, head)
    pattern = run.pattern(layer, head)
    reads = " " + _("(reads key/value head {kv})").format(kv=ctx.kv + 1)
    trained_head.pattern_caption(layer, head, pattern.name, pattern.scores, pattern.NAMES, reads)
    trained_head.stage_tabs(STAGES, keys.DEC_STAGE, Labels.plain(run.labels),
                            run.head(layer, head), ctx, lambda: picked_token(run),
                            "dec")  # fmt: skip
    open_in_walkthrough(run, layer, head)


def _qkv(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    source = (
        _("the token embeddings")
        if ctx.layer == 0
        else _("layer {layer}'s output").format(layer=ctx.layer)
    )
    views.projections(
        labels,
        t,
        "dec_proj",
        note=_(
            "Q, K and V come from the hidden state entering layer {layer} ({source}, 576 "
            "numbers per token, RMS-normalised) through the layer's W_Q, W_K and W_V (no "
            "bias). Q is this head's own 64 columns; K and V are those of key/value head {kv}, "
            "which three query heads share. All three are shown after RoPE (see the next tab), "
            "as the head received them."
        ).format(layer=ctx.layer + 1, source=source, kv=ctx.kv + 1),
    )


def _rope(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    la = ctx.run.layers[ctx.layer]
    st.markdown(
        _(
            "Before a query meets a key, both are **turned by their position**. The 64 numbers "
            "are 32 pairs (dimension i with i + 32), and pair i of the token at position m is "
            "turned by the angle m · w_i, with w_i = 100000^(−i/32): pair 1 by a radian per "
            "token, pair 32 by almost nothing. The first token (position 0) is not turned, and "
            "in a short prompt only the first pairs turn far enough to see (dimensions 1–10 "
            "and 33–42 below)."
        )
    )
    titles = {  # (name, before?) -> its chart's title
        ("Q", True): _("Q before RoPE (this head's)"),
        ("Q", False): _("Q after RoPE (this head's)"),
        ("K", True): _("K before RoPE (key/value head {kv}'s)").format(kv=ctx.kv + 1),
        ("K", False): _("K after RoPE (key/value head {kv}'s)").format(kv=ctx.kv + 1),
    }
    pairs = (("Q", la.Q_pre[:, ctx.head], t.Q), ("K", la.K_pre[:, ctx.kv], t.K))
    for name, before, after in pairs:
        left, right = st.columns(2)
        for col, M, when in ((left, before, "before"), (right, after, "after")):
            with col:
                plot(
                    lazy(
                        fig.heatmap,
                        M,
                        labels.queries,
                        [str(i + 1) for i in range(64)],
                        titles[name, when == "before"],
                        row_title=_("token"),
                        col_title=_("dimension"),
                        zrange=_range(before, after),
                    ),
                    key=f"dec_rope_{name}_{when}",
                )
    _score_by_distance(labels, t, ctx)


def _range(*grids: np.ndarray) -> tuple[float, float]:
    bound = float(max(np.abs(g).max() for g in grids)) or 1.0
    return -bound, bound


@guard.fragment
def _score_by_distance(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    """How the score of the query picked above against one key changes with their distance
    (it used the last token whatever was picked)."""
    query = picked_token(ctx.run)
    options = labels.keys[: query + 1]  # causal: the query and the keys before it
    if st.session_state.get(keys.DEC_ROPE_KEY) not in options:
        default = data.rope_default_key(ctx.run, ctx.layer, ctx.head, query)
        st.session_state[keys.DEC_ROPE_KEY] = options[default]
    key = options.index(
        st.selectbox(
            _("Key for “{q}” (the token picked above)").format(q=labels.queries[query]),
            options,
            key=keys.DEC_ROPE_KEY,
        )
    )
    distances, scores, plain, actual = data.rope_curve(ctx.run, ctx.layer, ctx.head, query, key)
    title = _("Score of “{q}” against “{k}” at every distance").format(
        q=labels.queries[query], k=labels.keys[key]
    )
    at = (query - key, actual)
    plot(lazy(df.rope_distance, distances, scores, plain, at, title, look.phone()),
         key="dec_rope_curve")  # fmt: skip
    st.caption(
        _(
            "The same two vectors, as if the key stood d tokens before the query. Without RoPE "
            "the score would be {plain} at any distance; with it, it is {actual} at their real "
            "distance of {d} (the diamond), the number in this head's score grid. Only the "
            "distance matters, not where the pair sits in the prompt."
        ).format(plain=f"{plain:.2f}", actual=f"{actual:.2f}", d=query - key)
    )


def _gqa(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    group = data.group_of(ctx.run, ctx.head)
    plot(
        lazy(
            df.gqa_diagram,
            ctx.run.n_heads,
            ctx.run.config.n_kv_heads,
            ctx.head,
            _("{q} query heads, {kv} key/value heads").format(
                q=ctx.run.n_heads, kv=ctx.run.config.n_kv_heads
            ),
        ),
        key="dec_gqa",
    )
    st.markdown(
        _(
            "Query heads {first}–{last} all read key/value head {kv}: one K and one V, drawn "
            "once below, serve three heads."
        ).format(first=group[0] + 1, last=group[-1] + 1, kv=ctx.kv + 1)
    )
    left, right = st.columns(2)
    cols = [str(i + 1) for i in range(64)]
    with left:
        plot(
            lazy(
                fig.heatmap,
                t.K,
                labels.keys,
                cols,
                _("K of key/value head {kv}").format(kv=ctx.kv + 1),
                row_title=_("token"),
                col_title=_("dimension"),
            ),
            key="dec_gqa_k",
        )
    with right:
        plot(
            lazy(
                fig.heatmap,
                t.V,
                labels.keys,
                cols,
                _("V of key/value head {kv}").format(kv=ctx.kv + 1),
                row_title=_("token"),
                col_title=_("dimension"),
            ),
            key="dec_gqa_v",
        )
    weights = [ctx.run.weights[ctx.layer, h] for h in group]
    figures = resolve(lazy(df.group_weights, weights, labels.keys, group, ctx.head))
    for col, figure, h in zip(st.columns(len(group)), figures, group, strict=True):
        with col:
            plot(figure, key=f"dec_gqa_w{h - group[0]}")
    st.caption(_("Same keys, three different queries: three different maps of weights."))


def _mask(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    st.markdown(
        _(
            "This is the **causal mask** in a real model: token i may attend to tokens 1 … i "
            "only. Every score above the diagonal becomes −∞, so its weight after the softmax "
            "is exactly 0."
        )
    )
    views.mask(labels, t, "dec_mask")
    above = t.weights[np.triu(np.ones(t.weights.shape, dtype=bool), 1)]
    largest = float(above.max()) if above.size else 0.0
    st.caption(
        _("The largest weight above the diagonal in this head: {largest} (exactly 0).").format(
            largest=largest
        )
    )


SHARED = trained_head.walkthrough_stages("dec")
STAGES: dict[str, Callable[[Labels, AttentionTrace, Ctx], None]] = {  # shown translated
    "Q, K, V": _qkv,
    "RoPE": _rope,
    N_("Shared K and V"): _gqa,
    N_("Scores"): SHARED["Scores"],
    N_("Scaling"): SHARED["Scaling"],
    N_("Mask"): _mask,
    N_("Softmax"): SHARED["Softmax"],
    N_("Output"): SHARED["Output"],
    N_("KV cache"): inference.kv_cache,
    N_("Online softmax"): lambda labels, t, ctx: inference.online(labels, t, picked_token(ctx.run)),
}


def picked_token(run: DecoderRun) -> int:
    """The token picked in "From one token" (its label is in the session and the link), or
    the page's default one."""
    label = st.session_state.get(keys.DEC_TOKEN)
    options = data.token_options(run)
    return run.labels.index(label) if label in options else data.default_query(run)


def open_in_walkthrough(run: DecoderRun, layer: int, head: int) -> None:
    """Load this head's Q, K, V and causal mask as the app's scenario; go to the walkthrough."""

    def load(scenario: Scenario) -> None:
        state.set_scenario(scenario)
        st.toast(_("Loaded layer {layer}, head {head} of the decoder").format(
            layer=layer + 1, head=head + 1))  # fmt: skip

    title = _("SmolLM2 layer {layer}, head {head} (K/V head {kv})").format(
        layer=layer + 1, head=head + 1, kv=run.config.kv_head(head) + 1)  # fmt: skip
    trained_head.open_in_walkthrough(
        layer, head, "dec_open",
        _("Makes this head's Q, K and V (d_k = 64, after RoPE) the app's scenario, with the "
          "causal mask: every walkthrough page and the share link then show its real numbers."),
        lambda: decoder_head_scenario(run, layer, head, title), load,
    )  # fmt: skip
