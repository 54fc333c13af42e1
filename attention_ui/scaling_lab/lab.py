"""The scaling lab: sweep d_k and watch softmax saturate when 1/sqrt(d_k) is removed.

The d_k slider and the seed live in a fragment (moving them reruns only the lab) and in
the URL (``?lab_dk=256&lab_seed=3``, via bind="query-params").
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import attention, saturation_sweep
from attention_core.saturation import DK_POWERS, sample_scores, softmax_stats
from attention_ui.draw.describe import Alternative
from attention_ui.draw.figures import heatmap, weights_heatmap
from attention_ui.draw.text import count
from attention_ui.frame import guard, keys, look, state
from attention_ui.frame.widgets import bad_link_value, show_code, stale_notice
from attention_ui.live.views import follow_here
from attention_ui.scaling_lab import figures as sf
from attention_ui.views.cache import lazy, resolve
from attention_ui.views.chart import described_by, numbers_of_parts, plot

N_KEYS = 8
N_SAMPLES = 2000
HEADINGS = {False: "Without scaling: softmax(q·k)", True: "With scaling: softmax(q·k / √d_k)"}


def intro() -> None:
    st.markdown(
        f"""
    A score is a dot product, a sum of `d_k` products of query and key components, so longer
    vectors give bigger scores. To see that effect and nothing else, this lab draws **random**
    queries and keys whose components are standard normal numbers: {N_SAMPLES} queries, each
    compared with {N_KEYS} keys. Move the `d_k` slider and compare the two columns: the left
    one feeds the raw scores to softmax, the right one divides them by √d_k first.
    """
    )


@st.cache_data(show_spinner=False, max_entries=64)
def sweep_for(seed: int) -> pd.DataFrame:
    """The whole sweep over d_k = 1..1024 for one seed (computed once per seed)."""
    return saturation_sweep(DK_POWERS, n_keys=N_KEYS, n_samples=N_SAMPLES, seed=seed)


@guard.fragment
def lab() -> None:
    follow_here()  # a live class: the teacher's next d_k reruns only this (PageSpec.watches)
    bad_link_value(keys.LAB_DK, lambda v: v in {str(d) for d in DK_POWERS},
                   "a power of two from 1 to 1024")  # fmt: skip
    bad_link_value(keys.LAB_SEED, lambda v: v.isdigit() and int(v) <= 1_000_000,
                   "a whole number from 0 to 1,000,000")  # fmt: skip
    slider_col, seed_col = st.columns([5, 1])
    d_k = slider_col.select_slider(
        "d_k, the length of each query and key (powers of two)",
        options=list(DK_POWERS), value=64, key=keys.LAB_DK,
        bind="query-params", persist_state="session",
    )  # fmt: skip
    seed = seed_col.number_input(
        "Random seed", min_value=0, max_value=1_000_000, value=0, step=1, key=keys.LAB_SEED,
        bind="query-params", persist_state="session",
        help="Another seed draws other random queries and keys; the pattern stays the same.",
    )  # fmt: skip
    sweep = sweep_for(int(seed))
    raw = sample_scores([d_k], N_KEYS, N_SAMPLES, int(seed))[0]  # (S, n_keys)
    for col, scaled in zip(st.columns(2, gap="large"), (False, True), strict=True):
        logits = raw / np.sqrt(d_k) if scaled else raw  # (S, n_keys)
        row = sweep[(sweep["d_k"] == d_k) & (sweep["scaled"] == scaled)].iloc[0]
        with col:
            st.subheader(HEADINGS[scaled])
            panel(resolve(lazy(sf.column_figures, logits, d_k, scaled)), f"lab_column_{scaled}",
                  ("hist", "bars"))  # fmt: skip
            st.caption(f"Averages over all {N_SAMPLES} random queries at d_k = {d_k}:")
            with st.container(horizontal=True, gap="medium"):  # wraps on narrow screens
                st.metric("score std", f"{row.score_std:.2f}", width="content",
                          help=f"Theory: {sf.theory_std(d_k, scaled):.2f}")  # fmt: skip
                st.metric("max weight", f"{row.max_weight:.3f}", width="content",
                          help=f"1/{N_KEYS} = {1 / N_KEYS:.3f} is uniform; "
                          "1 is one-hot")  # fmt: skip
                st.metric("entropy", f"{row.entropy:.3f}", width="content",
                          help=f"In nats: ln {N_KEYS} = {np.log(N_KEYS):.3f} is uniform; "
                          "0 is one-hot")  # fmt: skip
                st.metric("grad norm", f"{row.grad_norm:.3f}", width="content",
                          help="Frobenius norm of the softmax Jacobian diag(w) − w wᵀ; "
                          "0 means the weights no longer respond to the scores")  # fmt: skip
    st.subheader("Across d_k")
    st.caption(
        "Dashed vermillion: without scaling. Solid blue: with 1/√d_k. "
        "The big markers and the dotted line are the d_k on the slider."
    )
    panel(resolve(lazy(sf.sweep_figures, sweep, d_k, look.phone())), "lab_curves",
          tuple(sf.METRICS))  # fmt: skip


def panel(figures: dict, key: str, parts: tuple[str, ...]) -> None:
    """A combined figure (``figures["panel"]``) as one chart, named by its parts' text
    alternatives, with the parts' numbers in one lazy expander."""
    described = [described_by(figures[name]) for name in parts]
    text = " ".join(d.text for d in described)
    title = "; ".join(d.name for d in described)
    plot(figures["panel"], key=key, alt=Alternative(title, text, None), table=False)
    numbers_of_parts(described, key)


def apply_to_my_scenario() -> None:
    """The learner's own scores and weights with the factor switched off and on."""
    st.header("Apply to my scenario")
    stale_notice()
    scenario, trace = state.get_scenario(), state.get_trace()
    ql, kl = scenario.query_labels, scenario.key_labels
    st.markdown(
        f"Your queries and keys have d_k = {trace.d_k}, so scaling multiplies your scores by "
        f"1/√{trace.d_k} = {1 / np.sqrt(trace.d_k):.3f}. Here are your own scores and softmax "
        "weights with the factor switched off and on."
    )
    for col, scaled in zip(st.columns(2, gap="large"), (False, True), strict=True):
        t = attention(trace.Q, trace.K, trace.V, mask=trace.mask, scaled=scaled)
        mine = softmax_stats(t.masked_scores)
        with col:
            st.subheader(HEADINGS[scaled].replace("q·k", "QKᵀ"))
            plot(lazy(heatmap, t.masked_scores, ql, kl, f"Scores × {t.scale:.3g}",
                         mask=t.mask), key=f"lab_my_scores_{scaled}")  # fmt: skip
            plot(lazy(weights_heatmap, t.weights, ql, kl, "Weights", mask=t.mask),
                 key=f"lab_my_weights_{scaled}")  # fmt: skip
            st.caption(
                f"Averaged over your {count(len(ql), 'query', 'queries')}: largest weight "
                f"{mine['max_weight'].mean():.3f}, entropy {mine['entropy'].mean():.3f} nats, "
                f"gradient norm {mine['grad_norm'].mean():.3f}."
            )
    st.caption(
        f"With d_k = {trace.d_k}, scaling divides your scores by only {np.sqrt(trace.d_k):.2f}. "
        "Real models use longer vectors (d_k = 64 per head in the original Transformer, a factor "
        "of 8), where the difference is the one the lab above shows."
    )


def explanation() -> None:
    """Why the charts look as they do, ending in 'what if we remove the scaling?'."""
    st.header("Why the charts look like this")
    st.markdown(
        """
    **The spread grows like √d_k.** Each product q_m·k_m has mean 0 and variance 1, and the
    `d_k` products are independent, so their sum has variance `d_k`: a standard deviation of
    √d_k, about 8 at d_k = 64 and 22.6 at d_k = 512. The left histogram widens with the slider
    and follows the dashed N(0, d_k) curve. Dividing by √d_k puts the variance back to 1, so the
    right histogram does not move.

    **Softmax reacts to differences, not sizes.** A key that scores 3 more than another gets
    e³ ≈ 20 times its weight; a key that scores 30 more gets e³⁰ ≈ 10¹³ times. Once the scores
    are spread over tens of units, the exponential of the top score swamps the rest: the left
    bar chart shows one bar close to 1 and the others close to 0. The curves say the same on
    average: without scaling the largest weight climbs towards 1 and the entropy drops towards
    0 (a one-hot choice), while with scaling both stay flat.

    **The gradient fades with saturation.** How much the weights move when a score moves is
    the softmax Jacobian diag(w) − w wᵀ. Its entries are w_i(1 − w_i) and −w_i·w_j, and when one
    weight is 1 and the others are 0 every one of them is close to 0. That is the falling
    dashed line in the gradient-norm chart; the solid line stays level.
    """
    )
    st.subheader("What if we remove the scaling?")
    st.markdown(
        """
    Then the model lives in the left column. With d_k = 64, the head size of the original
    Transformer, the raw scores already have a spread of about 8: the average largest weight
    is near 0.88 instead of 0.36, and the gradient through softmax is about 2.4 times weaker
    (0.15 against 0.37). Move the slider to larger d_k and it keeps fading. Tiny gradients mean
    that the query and key projections hardly change from one training step to the next:
    the attention pattern freezes wherever it started, it cannot learn to spread attention
    over several keys, and training stalls. This is the vanishing-gradient problem, and the
    1/√d_k factor avoids it at the cost of one multiplication.
    """
    )
    with st.expander("How the random scores are drawn (exactly, without drawing every component)"):
        st.markdown(
            """
    For a fixed query q, each score q·k is a sum of independent normal numbers, so it is
    normal with mean 0 and variance |q|², and the keys' scores are independent of each other.
    They depend on q only through its length, and |q|² is a sum of d_k squared standard
    normals: a chi-square variable with d_k degrees of freedom. So the lab draws one length
    |q| = √χ²(d_k) per query and multiplies it by standard normal numbers, one per key. The
    result has exactly the distribution of real dot products, and the cost does not grow
    with d_k.
    """
        )
    show_code(sample_scores, saturation_sweep, key="lab_code")
