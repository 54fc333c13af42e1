"""One head of the real model, every stage: the walkthrough's stage views on a real trace.

Layer and head are picked 1-based (as the page counts; the core is 0-based) and live in
the URL. The stages are lazy tabs: only the open one is drawn, and the pickers and tabs
sit in a fragment, so picking a head reruns and redraws only this section.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st

from attention_core import AttentionTrace, InputError
from attention_core.pretrained import Model, Run, head_scenario
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys, state
from attention_ui.frame.pages import BY_KEY
from attention_ui.real_model import data, lab
from attention_ui.stages.data import Labels
from attention_ui.views import stage_views as views

DEFAULT_LAYER, DEFAULT_HEAD = 4, 2  # 1-based: where "it" -> "animal" is strongest (lesson)
PAD_DEMO = 3  # [PAD] tokens added to show the padding mask
WALKTHROUGH_PAGE = "scores"  # the page, whose scores view is keyed "scores" too


def qkv_note(layer: int) -> str:
    source = "the token embeddings" if layer == 0 else f"layer {layer}'s output"
    return (
        f"In a trained model Q, K and V are not typed in: each comes from the hidden state "
        f"entering layer {layer + 1} ({source}, 384 numbers per token) through this layer's "
        "learned W_Q, W_K and W_V, plus a bias for each, and this head keeps its own 32 of "
        "the 384 columns. They are shown here as the head received them."
    )


@guard.fragment
def one_head(model: Model, run: Run) -> None:
    st.header("One head, every stage")
    layer, head = _pick_head()
    pattern = run.pattern(layer, head)
    scores = ", ".join(f"{k.replace('_', ' ')} {v:.2f}" for k, v in pattern.scores.items())
    st.caption(
        f"Layer {layer + 1}, head {head + 1}: **{pattern.name or 'no single clear pattern'}** "
        f"(measured: {scores})."
    )
    trace = run.heads[layer][head]
    labels = Labels.plain(run.labels)
    tabs = st.tabs(list(STAGES), key=keys.RM_STAGE, on_change="rerun")
    for tab, draw in zip(tabs, STAGES.values(), strict=True):
        if tab.open:  # lazy: the other tabs' views are not computed or sent
            with tab:
                draw(labels, trace, Ctx(model, run, layer, head))
    open_in_walkthrough(run, layer, head)


def _pick_head() -> tuple[int, int]:
    """Layer and head pickers (1-based on screen, bound to the URL); returns 0-based."""
    left, right = st.columns(2)
    layer = left.selectbox("Layer", range(1, 7), index=DEFAULT_LAYER - 1, key=keys.RM_LAYER,
                           bind="query-params")  # fmt: skip
    head = right.selectbox("Head", range(1, 13), index=DEFAULT_HEAD - 1, key=keys.RM_HEAD,
                           bind="query-params")  # fmt: skip
    return layer - 1, head - 1


@dataclass(frozen=True)
class Ctx:
    """What a stage tab may need beyond the trace: the model, the run and which head."""

    model: Model
    run: Run
    layer: int
    head: int


def _qkv(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    views.projections(labels, t, "rm_proj", note=qkv_note(ctx.layer))


def _scores(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    views.scores(labels, t, "rm_scores")


def _scaling(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    st.caption(f"Each head has d_k = {t.d_k}, so every score is multiplied by 1/√{t.d_k}.")
    views.scaling(labels, t, "rm_scaling")


def _mask(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    st.markdown(
        "Run alone, a sentence has **no padding**, so nothing is masked: every token may "
        "attend to every token. In a batch, shorter sentences are filled up with [PAD] "
        f"tokens that nobody may attend to. Below, your sentence is run with {PAD_DEMO} "
        "[PAD] tokens after it, as it would be in a batch with a longer one."
    )
    views.mask(labels, t, "rm_mask")
    padded = lab.padded_run(str(ctx.model.path), ctx.run.text, PAD_DEMO, ctx.model)
    t_pad = padded.heads[ctx.layer][ctx.head]
    views.mask(Labels.plain(padded.labels), t_pad, "rm_mask_pad")
    n = ctx.run.n_valid
    diff = float(np.max(np.abs(t_pad.weights[:n, :n] - t.weights)))
    st.caption(
        f"The [PAD] columns get weight exactly 0 (largest: {t_pad.weights[:n, n:].max():.1e}), "
        f"and the real tokens' weights are unchanged (largest difference {diff:.1e})."
    )


def _softmax(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    views.softmax_view(labels, t, "rm_softmax")


def _output(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    st.caption(
        f"Each of the 12 heads gives {t.output.shape[1]} numbers per token; the model puts "
        "the 12 side by side (384) and mixes them with its output matrix W_O before adding "
        "the result back to the token (the residual)."
    )
    views.output(labels, t, "rm_output")


STAGES: dict[str, Callable[[Labels, AttentionTrace, Ctx], None]] = {
    "Q, K, V": _qkv,
    "Scores": _scores,
    "Scaling": _scaling,
    "Mask": _mask,
    "Softmax": _softmax,
    "Output": _output,
}


def open_in_walkthrough(run: Run, layer: int, head: int) -> None:
    """Load this head's Q, K, V as the app's scenario and go to the walkthrough."""
    label = f"Open layer {layer + 1}, head {head + 1} in the walkthrough"
    if not st.button(label, key="rm_open", type="primary"):
        st.caption(
            "Makes this head's Q, K and V (d_k = 32) the app's scenario, in direct mode: every "
            "walkthrough page, presentation mode and the share link then show its real numbers."
        )
        return
    try:
        scenario = head_scenario(run, layer, head)
    except InputError as exc:
        st.warning(md_escape(exc.message))
        return
    state.replace_scenario(scenario)  # undoable, like every load
    query = picked_token(run)
    views.start_scores_at(WALKTHROUGH_PAGE, state.labels(), state.get_trace(), query)
    state.notice(
        f"Layer {layer + 1}, head {head + 1} of the real model is now your scenario (direct "
        f"mode, d_k = {state.get_trace().d_k}), shown from “{run.labels[query]}”, the token you "
        "picked. Undo in the sidebar brings back the one it replaced."
    )
    st.switch_page(BY_KEY[WALKTHROUGH_PAGE].path, query_params=state.share_query())


def picked_token(run: Run) -> int:
    """The token picked in "From one token" (its label is in the session and the link), or
    the page's default one ("it")."""
    label = st.session_state.get(keys.RM_TOKEN)
    words = [run.labels[i] for i in data.word_tokens(run)]
    return run.labels.index(label) if label in words else data.default_query(run)
