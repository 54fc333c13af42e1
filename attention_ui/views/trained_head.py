"""One head of a trained model, every stage: what the Real model and Decoder labs share.

Both labs show one head of their model as a row of stages (only the chosen one is drawn) in
a fragment, so a head pick reruns and redraws only that section; both pick the layer and
head 1-based (as the pages count; the core is 0-based) in the URL, and both offer to open
the head in the walkthrough. The stages that are the walkthrough's own (scores, scaling,
softmax, output) are drawn here for both; each lab adds the ones only its model has.
A section never imports another section, so this sits below them, among the views.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import streamlit as st

from attention_core import AttentionTrace, InputError, Scenario
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys, state
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import choose_section
from attention_ui.i18n import N_, _
from attention_ui.i18n.texts import tr
from attention_ui.stages.data import Labels
from attention_ui.views import stage_views as views

WALKTHROUGH_PAGE = "scores"  # the page a head opens on; its scores view is keyed "scores" too
Stage = Callable[[Labels, AttentionTrace, Any], None]


def pick_head(n_layers: int, n_heads: int, default: tuple[int, int],
              layer_key: str, head_key: str) -> tuple[int, int]:  # fmt: skip
    """Layer and head pickers, side by side (1-based on screen, bound to the URL); returns
    them 0-based. ``default``: 1-based."""
    left, right = st.columns(2)
    layer = left.selectbox(_("Layer"), range(1, n_layers + 1), index=default[0] - 1,
                           key=layer_key, bind="query-params")  # fmt: skip
    head = right.selectbox(_("Head"), range(1, n_heads + 1), index=default[1] - 1,
                           key=head_key, bind="query-params")  # fmt: skip
    return layer - 1, head - 1


def pattern_caption(layer: int, head: int, name: str, scores: Mapping[str, float],
                    names: Mapping[str, str], reads: str = "") -> None:  # fmt: skip
    """What the head was measured to do on this text (layer, head 0-based); ``name``: the
    pattern's English name, ``names``: each measure's (the model's pattern names, the core's:
    a phone's short names read "sig 0.10" in Spanish), all shown translated."""
    measured = ", ".join(f"{_(names.get(k, k))} {v:.2f}" for k, v in scores.items())
    said = _("Layer {layer}, head {head}{reads}: **{name}** (measured: {measured}).") if name \
        else _("Layer {layer}, head {head}{reads}: **no single clear pattern** (measured: "
               "{measured}).")  # fmt: skip
    st.caption(said.format(layer=layer + 1, head=head + 1, reads=reads, name=_(name),
                           measured=measured))  # fmt: skip


@guard.fragment
def stage_tabs(stages: Mapping[str, Stage], key: str, labels: Labels, trace: AttentionTrace,
               ctx: object, picked: Callable[[], int], prefix: str) -> None:  # fmt: skip
    """The stages as one row of choices over one panel (``widgets.choose_section``): only the
    chosen stage is computed, sent and drawn. In a fragment of their own: choosing a stage
    reruns the stages alone, not the head's pickers and captions around them.

    ``picked()``: the token picked above (in "From one token"), read at each run: the
    stages' own pickers start at it and follow it (``follow_token``)."""
    follow_token(prefix, labels, trace, picked())
    chosen = choose_section(_("Stage"), list(stages), key, format_func=_)  # names: msgids
    with st.container(key=f"{key}_panel"):
        stages[chosen](labels, trace, ctx)


def follow_token(prefix: str, labels: Labels, t: AttentionTrace, query: int) -> None:
    """The Scores, Softmax and Output stages' pickers (keyed ``<prefix>_...``) set to token
    ``query`` when it is newly picked: the Softmax stage's "Query row" started at [CLS]. A
    row picked there is kept until another token is picked above."""
    follows = st.session_state.setdefault(keys.FOLLOWED_TOKEN, {})
    label = labels.queries[query]
    if follows.get(prefix) == label:
        return
    follows[prefix] = label
    for stage in ("softmax", "output"):
        st.session_state[f"{prefix}_{stage}_row"] = label
    views.start_scores_at(f"{prefix}_scores", labels, t, query)


# ---- the walkthrough's own stages, on a trained head ------------------------------------
def walkthrough_stages(prefix: str) -> dict[str, Stage]:
    """Scores, Scaling, Softmax and Output as stages, keyed ``<prefix>_scores`` ...; the
    tab's context needs ``.run.n_heads`` (the heads the output is put beside)."""
    return {  # the names are English msgids, shown with _() (stage_tabs)
        N_("Scores"): lambda labels, t, ctx: scores(labels, t, prefix),
        N_("Scaling"): lambda labels, t, ctx: scaling(labels, t, prefix),
        N_("Softmax"): lambda labels, t, ctx: softmax(labels, t, prefix),
        N_("Output"): lambda labels, t, ctx: output(labels, t, prefix, ctx.run.n_heads),
    }


def scores(labels: Labels, t: AttentionTrace, prefix: str) -> None:
    views.scores(labels, t, f"{prefix}_scores")


def scaling(labels: Labels, t: AttentionTrace, prefix: str) -> None:
    factor = 1 / np.sqrt(t.d_k)
    st.caption(_("Each head has d_k = {d_k}, so every score is multiplied by 1/√{d_k} "
                 "= {factor}.").format(d_k=t.d_k, factor=f"{factor:.4g}"))  # fmt: skip
    views.scaling(labels, t, f"{prefix}_scaling")


def softmax(labels: Labels, t: AttentionTrace, prefix: str) -> None:
    views.softmax_view(labels, t, f"{prefix}_softmax")


def output(labels: Labels, t: AttentionTrace, prefix: str, n_heads: int) -> None:
    d_v = t.output.shape[1]
    st.caption(
        _(
            "Each of the {n} heads gives {d_v} numbers per token; the model puts the {n} side "
            "by side ({width}) and mixes them with its output matrix W_O before adding the "
            "result back to the token (the residual)."
        ).format(n=n_heads, d_v=d_v, width=n_heads * d_v)
    )
    views.output(labels, t, f"{prefix}_output")


# ---- the head in the walkthrough ------------------------------------------------------------
def open_in_walkthrough(layer: int, head: int, key: str, caption: str,
                        scenario: Callable[[], Scenario],
                        load: Callable[[Scenario], None]) -> None:  # fmt: skip
    """A button that makes this head's ``scenario()`` the app's (through ``load``) and goes
    to the walkthrough's Scores page; ``caption`` says what it does until it is pressed."""
    if not st.button(_("Open layer {layer}, head {head} in the walkthrough").format(
                     layer=layer + 1, head=head + 1), key=key, type="primary"):  # fmt: skip
        st.caption(caption)
        return
    try:
        loaded = scenario()
    except InputError as exc:
        st.warning(md_escape(tr(exc)))
        return
    load(loaded)
    st.switch_page(BY_KEY[WALKTHROUGH_PAGE].path, query_params=state.share_query())
