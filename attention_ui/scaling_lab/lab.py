"""The scaling lab: sweep d_k and watch softmax saturate when 1/sqrt(d_k) is removed.

The d_k slider and the seed live in a fragment (moving them reruns only the lab) and in
the URL (``?lab_dk=256&lab_seed=3``, via bind="query-params"). The charts are one figure
with Plotly's own d_k slider in it, which redraws them in the browser while it is dragged
(issue 43); the page's slider is the one the keyboard, the link and a live class use.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from attention_core import attention, saturation_sweep
from attention_core.saturation import DK_POWERS, sample_scores, softmax_stats
from attention_ui.draw.describe import Alternative
from attention_ui.draw.figures import heatmap, weights_heatmap
from attention_ui.frame import guard, keys, look, state
from attention_ui.frame.widgets import bad_link_value, show_code, stale_notice
from attention_ui.i18n import N_, _, ngettext
from attention_ui.live.phone import follow_here
from attention_ui.scaling_lab import figures as sf
from attention_ui.views.cache import lazy, resolve
from attention_ui.views.chart import described_by, numbers_of_parts, plot

N_KEYS = 8
N_SAMPLES = 2000
HEADINGS = {False: N_("Without scaling: softmax(q·k)"),
            True: N_("With scaling: softmax(q·k / √d_k)")}  # fmt: skip


def intro() -> None:
    st.markdown(
        _(
            "A score is a dot product, a sum of `d_k` products of query and key components, so "
            "longer vectors give bigger scores. To see that effect and nothing else, this lab "
            "draws **random** queries and keys whose components are standard normal numbers: "
            "{samples} queries, each compared with {keys} keys. Move the `d_k` slider and compare "
            "the two columns: the left one feeds the raw scores to softmax, the right one "
            "divides them by √d_k first."
        ).format(samples=N_SAMPLES, keys=N_KEYS)
    )


@st.cache_data(show_spinner=False, max_entries=64)
def sweep_for(seed: int) -> pd.DataFrame:
    """The whole sweep over d_k = 1..1024 for one seed (computed once per seed)."""
    return saturation_sweep(DK_POWERS, n_keys=N_KEYS, n_samples=N_SAMPLES, seed=seed)


@guard.fragment
def lab() -> None:
    follow_here()  # a live class: the teacher's next d_k reruns only this (PageSpec.watches)
    bad_link_value(keys.LAB_DK, lambda v: v in {str(d) for d in DK_POWERS},
                   _("a power of two from 1 to 1024"))  # fmt: skip
    bad_link_value(keys.LAB_SEED, lambda v: v.isdigit() and int(v) <= 1_000_000,
                   _("a whole number from 0 to 1,000,000"))  # fmt: skip
    slider_col, seed_col = st.columns([5, 1])
    d_k = slider_col.select_slider(
        _("d_k, the length of each query and key (powers of two)"),
        options=list(DK_POWERS), value=64, key=keys.LAB_DK,
        bind="query-params", persist_state="session",
    )  # fmt: skip
    seed = seed_col.number_input(
        _("Random seed"), min_value=0, max_value=1_000_000, value=0, step=1, key=keys.LAB_SEED,
        bind="query-params", persist_state="session",
        help=_("Another seed draws other random queries and keys; the pattern stays the same."),
    )  # fmt: skip
    sweep, scores = sweep_for(int(seed)), scores_for(int(seed))
    for col, scaled in zip(st.columns(2, gap="large"), (False, True), strict=True):
        row = sweep[(sweep["d_k"] == d_k) & (sweep["scaled"] == scaled)].iloc[0]
        with col:
            st.subheader(_(HEADINGS[scaled]))
            st.caption(_("Averages over all {n} random queries at d_k = {d_k}:").format(
                n=N_SAMPLES, d_k=d_k))  # fmt: skip
            with st.container(horizontal=True, gap="medium"):  # wraps on narrow screens
                theory = f"{sf.theory_std(d_k, scaled):.2f}"
                st.metric(_("score std"), f"{row.score_std:.2f}", width="content",
                          help=_("Theory: {std}").format(std=theory))  # fmt: skip
                st.metric(_("max weight"), f"{row.max_weight:.3f}", width="content",
                          help=_("1/{n} = {u} is uniform; 1 is one-hot").format(
                              n=N_KEYS, u=f"{1 / N_KEYS:.3f}"))  # fmt: skip
                st.metric(_("entropy"), f"{row.entropy:.3f}", width="content",
                          help=_("In nats: ln {n} = {u} is uniform; 0 is one-hot").format(
                              n=N_KEYS, u=f"{np.log(N_KEYS):.3f}"))  # fmt: skip
                st.metric(_("grad norm"), f"{row.grad_norm:.3f}", width="content",
                          help=_("Frobenius norm of the softmax Jacobian diag(w) − w wᵀ; 0 "
                                 "means the weights no longer respond to the scores"))  # fmt: skip
    st.caption(
        _("The slider over the charts moves them all as you drag it, in your browser. "
          "Vermillion: without scaling; blue: with 1/√d_k. The slider at the top of the lab "
          "sets the numbers above, the charts' first d_k and the page's link.")
    )  # fmt: skip
    st.caption(
        _("Dashed vermillion: without scaling. Solid blue: with 1/√d_k. "
          "The big markers and the dotted line are the d_k on the slider.")
    )  # fmt: skip
    # Every d_k's charts are one figure with a frame per d_k (built once per seed): the
    # slider in it redraws them while dragged, with no rerun (issue 43)
    charts = resolve(lazy(sf.lab_figures, DK_POWERS, scores, sweep, look.phone()))
    parts = resolve(lazy(sf.lab_parts, DK_POWERS, scores, sweep, d_k))
    panel(charts[str(d_k)], [parts[name] for name in sf.PARTS], "lab_charts")


@st.cache_data(show_spinner=False, max_entries=64)
def scores_for(seed: int) -> np.ndarray:
    """The raw scores of every d_k the slider offers: (len(DK_POWERS), N_SAMPLES, N_KEYS)."""
    return sample_scores(DK_POWERS, N_KEYS, N_SAMPLES, seed)


def panel(figure: go.Figure, parts: list[go.Figure], key: str) -> None:
    """A combined figure as one chart, named by its parts' text alternatives, with the
    parts' numbers in one lazy expander."""
    described = [described_by(part) for part in parts]
    text = " ".join(d.text for d in described)
    title = "; ".join(d.name for d in described)
    plot(figure, key=key, alt=Alternative(title, text, None), table=False)
    numbers_of_parts(described, key)


def apply_to_my_scenario() -> None:
    """The learner's own scores and weights with the factor switched off and on."""
    st.header(_("Apply to my scenario"))
    stale_notice()
    scenario, trace = state.get_scenario(), state.get_trace()
    ql, kl = scenario.query_labels, scenario.key_labels
    st.markdown(
        _("Your queries and keys have d_k = {d_k}, so scaling multiplies your scores by "
          "1/√{d_k} = {factor}. Here are your own scores and softmax weights with the factor "
          "switched off and on.").format(d_k=trace.d_k, factor=f"{1 / np.sqrt(trace.d_k):.3f}")
    )  # fmt: skip
    for col, scaled in zip(st.columns(2, gap="large"), (False, True), strict=True):
        t = attention(trace.Q, trace.K, trace.V, mask=trace.mask, scaled=scaled)
        mine = softmax_stats(t.masked_scores)
        with col:
            st.subheader(_(HEADINGS[scaled]).replace("q·k", "QKᵀ"))
            title = _("Scores × {scale}").format(scale=f"{t.scale:.3g}")
            plot(lazy(heatmap, t.masked_scores, ql, kl, title, mask=t.mask),
                 key=f"lab_my_scores_{scaled}")  # fmt: skip
            plot(lazy(weights_heatmap, t.weights, ql, kl, _("Weights"), mask=t.mask),
                 key=f"lab_my_weights_{scaled}")  # fmt: skip
            st.caption(
                ngettext("Averaged over your {n} query: largest weight {w}, entropy {h} nats, "
                         "gradient norm {g}.",
                         "Averaged over your {n} queries: largest weight {w}, entropy {h} nats, "
                         "gradient norm {g}.", len(ql)).format(
                    n=len(ql), w=f"{mine['max_weight'].mean():.3f}",
                    h=f"{mine['entropy'].mean():.3f}", g=f"{mine['grad_norm'].mean():.3f}")
            )  # fmt: skip
    st.caption(
        _("With d_k = {d_k}, scaling divides your scores by only {root}. Real models use longer "
          "vectors (d_k = 64 per head in the original Transformer, a factor of 8), where the "
          "difference is the one the lab above shows.").format(
            d_k=trace.d_k, root=f"{np.sqrt(trace.d_k):.2f}")
    )  # fmt: skip


def explanation() -> None:
    """Why the charts look as they do, ending in 'what if we remove the scaling?'."""
    st.header(_("Why the charts look like this"))
    st.markdown(
        _(
            "**The spread grows like √d_k.** Each product q_m·k_m has mean 0 and "
            "variance 1, and the `d_k` products are independent, so their sum has "
            "variance `d_k`: a standard deviation of √d_k, about 8 at d_k = 64 and "
            "22.6 at d_k = 512. The left histogram widens with the slider and follows "
            "the dashed N(0, d_k) curve. Dividing by √d_k puts the variance back to "
            "1, so the right histogram does not move.\n\n"
            "**Softmax reacts to differences, not sizes.** A key that scores 3 more "
            "than another gets e³ ≈ 20 times its weight; a key that scores 30 more "
            "gets e³⁰ ≈ 10¹³ times. Once the scores are spread over tens of units, "
            "the exponential of the top score swamps the rest: the left bar chart "
            "shows one bar close to 1 and the others close to 0. The curves say the "
            "same on average: without scaling the largest weight climbs towards 1 and "
            "the entropy drops towards 0 (a one-hot choice), while with scaling both "
            "stay flat.\n\n"
            "**The gradient fades with saturation.** How much the weights move when a "
            "score moves is the softmax Jacobian diag(w) − w wᵀ. Its entries are "
            "w_i(1 − w_i) and −w_i·w_j, and when one weight is 1 and the others are 0 "
            "every one of them is close to 0. That is the falling dashed line in the "
            "gradient-norm chart; the solid line stays level."
        )
    )
    st.subheader(_("What if we remove the scaling?"))
    st.markdown(
        _(
            "Then the model lives in the left column. With d_k = 64, the head size of "
            "the original Transformer, the raw scores already have a spread of about "
            "8: the average largest weight is near 0.88 instead of 0.36, and the "
            "gradient through softmax is about 2.4 times weaker (0.15 against 0.37). "
            "Move the slider to larger d_k and it keeps fading. Tiny gradients mean "
            "that the query and key projections hardly change from one training step "
            "to the next: the attention pattern freezes wherever it started, it "
            "cannot learn to spread attention over several keys, and training stalls. "
            "This is the vanishing-gradient problem, and the 1/√d_k factor avoids it "
            "at the cost of one multiplication."
        )
    )
    with st.expander(
        _("How the random scores are drawn (exactly, without drawing every component)")
    ):
        st.markdown(
            _(
                "For a fixed query q, each score q·k is a sum of independent normal "
                "numbers, so it is normal with mean 0 and variance |q|², and the "
                "keys' scores are independent of each other. They depend on q only "
                "through its length, and |q|² is a sum of d_k squared standard "
                "normals: a chi-square variable with d_k degrees of freedom. So the "
                "lab draws one length |q| = √χ²(d_k) per query and multiplies it by "
                "standard normal numbers, one per key. The result has exactly the "
                "distribution of real dot products, and the cost does not grow with "
                "d_k."
            )
        )
    show_code(sample_scores, saturation_sweep, key="lab_code")
