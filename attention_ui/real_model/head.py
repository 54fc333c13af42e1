"""One head of the real model, every stage: the walkthrough's stage views on a real trace.

Layer and head are picked 1-based (as the page counts; the core is 0-based) and live in
the URL. The stages are a row of choices: only the chosen one is drawn, and the pickers and
stages sit in a fragment, so picking a head reruns and redraws only this section.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st

from attention_core import AttentionTrace, Scenario
from attention_core.pretrained import Model, Run, head_scenario
from attention_ui.frame import guard, keys, state
from attention_ui.i18n import N_, _
from attention_ui.real_model import data, lab
from attention_ui.stages.data import Labels
from attention_ui.views import stage_views as views
from attention_ui.views import trained_head

DEFAULT_LAYER, DEFAULT_HEAD = 4, 2  # 1-based: where "it" -> "animal" is strongest (lesson)
PAD_DEMO = 3  # [PAD] tokens added to show the padding mask


def qkv_note(layer: int) -> str:
    source = (_("the token embeddings") if layer == 0
              else _("layer {layer}'s output").format(layer=layer))  # fmt: skip
    return _(
        "In a trained model Q, K and V are not typed in: each comes from the hidden state "
        "entering layer {layer} ({source}, 384 numbers per token) through this layer's "
        "learned W_Q, W_K and W_V, plus a bias for each, and this head keeps its own 32 of "
        "the 384 columns. They are shown here as the head received them."
    ).format(layer=layer + 1, source=source)


def one_head(model: Model, run: Run) -> None:
    st.header(_("One head, every stage"))  # outside the fragment: a pick does not resend it
    _one_head(model, run)


@guard.fragment
def _one_head(model: Model, run: Run) -> None:
    layer, head = trained_head.pick_head(run.n_layers, run.n_heads, (DEFAULT_LAYER, DEFAULT_HEAD),
                                         keys.RM_LAYER, keys.RM_HEAD)  # fmt: skip
    pattern = run.pattern(layer, head)
    trained_head.pattern_caption(layer, head, pattern.name, pattern.scores, pattern.NAMES)
    trained_head.stage_tabs(STAGES, keys.RM_STAGE, Labels.plain(run.labels),
                            run.heads[layer][head], Ctx(model, run, layer, head),
                            lambda: picked_token(run), "rm")  # fmt: skip
    open_in_walkthrough(run, layer, head)


@dataclass(frozen=True)
class Ctx:
    """What a stage may need beyond the trace: the model, the run and which head."""

    model: Model
    run: Run
    layer: int
    head: int


def _qkv(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    views.projections(labels, t, "rm_proj", note=qkv_note(ctx.layer))


def _mask(labels: Labels, t: AttentionTrace, ctx: Ctx) -> None:
    st.markdown(
        _(
            "Run alone, a sentence has **no padding**, so nothing is masked: every token may "
            "attend to every token. In a batch, shorter sentences are filled up with [PAD] "
            "tokens that nobody may attend to. Below, your sentence is run with {n} [PAD] "
            "tokens after it, as it would be in a batch with a longer one."
        ).format(n=PAD_DEMO)
    )
    views.mask(labels, t, "rm_mask")
    padded = lab.padded_run(str(ctx.model.path), ctx.run.text, PAD_DEMO, ctx.model)
    t_pad = padded.heads[ctx.layer][ctx.head]
    views.mask(Labels.plain(padded.labels), t_pad, "rm_mask_pad")
    n = ctx.run.n_valid
    diff = float(np.max(np.abs(t_pad.weights[:n, :n] - t.weights)))
    st.caption(
        _(
            "The [PAD] columns get weight exactly 0 (largest: {largest}), and the real tokens' "
            "weights are unchanged (largest difference {diff})."
        ).format(largest=f"{t_pad.weights[:n, n:].max():.1e}", diff=f"{diff:.1e}")
    )


SHARED = trained_head.walkthrough_stages("rm")
STAGES: dict[str, Callable[[Labels, AttentionTrace, Ctx], None]] = {  # shown translated
    "Q, K, V": _qkv,
    N_("Scores"): SHARED["Scores"],
    N_("Scaling"): SHARED["Scaling"],
    N_("Mask"): _mask,
    N_("Softmax"): SHARED["Softmax"],
    N_("Output"): SHARED["Output"],
}


def open_in_walkthrough(run: Run, layer: int, head: int) -> None:
    """Load this head's Q, K, V as the app's scenario and go to the walkthrough."""

    def load(scenario: Scenario) -> None:
        state.replace_scenario(scenario)  # undoable, like every load
        query = picked_token(run)
        views.start_scores_at(trained_head.WALKTHROUGH_PAGE, state.labels(), state.get_trace(),
                              query)  # fmt: skip
        state.notice(
            _("Layer {layer}, head {head} of the real model is now your scenario (direct mode, "
              "d_k = {d_k}), shown from “{token}”, the token you picked. Undo in the sidebar "
              "brings back the one it replaced.").format(
                  layer=layer + 1, head=head + 1, d_k=state.get_trace().d_k,
                  token=run.labels[query])
        )  # fmt: skip

    title = _("MiniLM layer {layer}, head {head}").format(layer=layer + 1, head=head + 1)
    trained_head.open_in_walkthrough(
        layer, head, "rm_open",
        _("Makes this head's Q, K and V (d_k = 32) the app's scenario, in direct mode: every "
          "walkthrough page, presentation mode and the share link then show its real numbers."),
        lambda: head_scenario(run, layer, head, title), load,
    )  # fmt: skip


def picked_token(run: Run) -> int:
    """The token picked in "From one token" (its label is in the session and the link), or
    the page's default one ("it")."""
    label = st.session_state.get(keys.RM_TOKEN)
    words = [run.labels[i] for i in data.word_tokens(run)]
    return run.labels.index(label) if label in words else data.default_query(run)
