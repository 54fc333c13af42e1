"""The multi-head lab: the learner's own scenario split into heads, each head followed.

Every number comes from ``attention_core.heads.multi_head_trace`` (that is,
``multi_head_attention``); each head is drawn with the walkthrough's own stage views.
The head count is a scenario setting (it travels in ``?s=``); the picked head is in
``?head=`` and only the open stage tab of that head is drawn.
"""

from __future__ import annotations

from collections.abc import Callable

import plotly.graph_objects as go
import streamlit as st

from attention_core import PRESETS, AttentionTrace, Scenario, shapes
from attention_core.heads import head_projections, head_scenario, multi_head_trace
from attention_core.multihead import MultiHeadTrace, combine_heads, multi_head_attention
from attention_ui.draw.text import md_escape, shape
from attention_ui.frame import guard, keys, look, state
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.sidebar import load_example, shown_name
from attention_ui.frame.widgets import choose_section, show_code, stale_notice
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.multi_head import controls
from attention_ui.multi_head import figures as mf
from attention_ui.stages.data import Labels
from attention_ui.views import stage_views as views
from attention_ui.views.cache import lazy, resolve
from attention_ui.views.chart import plot

EXAMPLE = "two_heads"
OPEN_IN = "scores"  # the walkthrough page an opened head lands on


def intro() -> None:
    st.markdown(
        _(
            "One attention step compares every query with every key **once**, so each token "
            "ends up with one mix of the others. A Transformer runs several of these side by "
            "side: **heads**. Each head gets a narrow slice of the projections, so it computes "
            "its own scores, its own softmax and its own mix. One head can learn to look at the "
            "word just before; another can look for the noun a pronoun refers to. Their "
            "outputs are then laid side by side and W_O blends them back into one vector per "
            "token, as wide as the embedding."
        )
    )


def convention() -> None:
    st.markdown(
        _(
            "**The convention used here** (the paper's): W_Q, W_K and W_V are (d_model, "
            "n_heads·d_head). Head h uses their columns h·d_head to (h+1)·d_head, counting from "
            "0. W_O is (n_heads·d_head, d_model). There are no biases. This is PyTorch's "
            "`nn.MultiheadAttention(bias=False)` with its weights transposed: PyTorch stores "
            "them as (out_features, in_features)."
        )
    )


# ---- getting a scenario ready for heads -----------------------------------------------------
def missing(s: Scenario) -> list[str]:
    """What the scenario lacks before it can be split into heads, and what the fix does."""
    d = shapes.dims(s)
    needs = []
    if s.mode != "embeddings":
        needs.append(_from_direct(s, d))
    elif d["d_v"] != d["d_k"]:
        needs.append(
            _(
                "**d_v = d_k.** Each head takes slices of one width from W_Q, W_K and W_V; here "
                "W_Q has {d_k} columns and W_V has {d_v}. The fix makes d_v = {d_k} (W_V keeps "
                "the columns it has and gains or loses some)."
            ).format(d_k=d["d_k"], d_v=d["d_v"])
        )
    if s.W_o is None:
        needs.append(
            _(
                "**An output projection W_O** (d_v × d_model): it maps the heads' concatenation "
                "back to the embedding width. The fix adds the identity when d_v = d_model "
                "(then the output is the concatenation itself), or seeded random numbers."
            )
        )
    return needs


def _from_direct(s: Scenario, d: dict[str, int]) -> str:
    """The fix's words for Q, K and V typed directly (``shapes.embeddings_of``)."""
    words = [
        _(
            "**Embeddings that give your Q, K and V.** Heads split the projections W_Q, W_K "
            "and W_V, and Q, K and V typed directly have none. The fix writes Q, K and V side "
            "by side as the embeddings, X = [Q | K | V], and makes W_Q, W_K and W_V pick them "
            "out, so X W_Q is your Q, X W_K your K and X W_V your V."
        )
    ]
    k, v = d["d_k"], d["d_v"]
    if v < k:
        words.append(ngettext(
            "V gains {n} column of zeros so that d_v = d_k = {k}: the output gains as many "
            "columns of zeros.",
            "V gains {n} columns of zeros so that d_v = d_k = {k}: the output gains as many "
            "columns of zeros.", k - v).format(n=k - v, k=k))  # fmt: skip
    elif v > k:
        words.append(ngettext(
            "Q and K gain {n} column of zeros so that d_k = d_v = {v}: the raw scores Q Kᵀ "
            "stay as they are, and the scaling divides them by √{v} instead of √{k}.",
            "Q and K gain {n} columns of zeros so that d_k = d_v = {v}: the raw scores Q Kᵀ "
            "stay as they are, and the scaling divides them by √{v} instead of √{k}.",
            v - k).format(n=v - k, v=v, k=k))  # fmt: skip
    if s.query_tokens is not None:
        asked = ", ".join(md_escape(q) for q in s.queries)
        words.append(
            _(
                "Your queries ({asked}) are not among the tokens, and heads here are "
                "self-attention, where every token asks: each token asks with its own key "
                "(Q = K), and your query rows are gone."
            ).format(asked=asked)
        )
    return " ".join(words)


def _not_ready(s: Scenario) -> None:
    """What this page needs, and the one click that gives it: the page's first view of the
    default example (which has d_v = 4 and d_k = 3, and no W_O)."""
    st.subheader(_("First, one click gets your scenario ready for heads"))
    st.markdown(
        _(
            "Heads split W_Q, W_K and W_V into slices, and an output projection W_O joins their "
            "results again. Your scenario, **{name}**, needs {needs} first: the button adds "
            "them and keeps your tokens and numbers (Undo brings back your scenario as it is). "
            "Or start from the example made for this page, where two heads look for different "
            "things."
        ).format(name=md_escape(shown_name(s.name)), needs=_fix_summary(s))
    )
    row = st.container(horizontal=True)
    with row:
        controls.heads_fix_button(_("Make it ready for heads"))
    row.button(_("Load the example: {title}").format(title=_(PRESETS[EXAMPLE].title)),
               key="mh_load_example",
               on_click=load_example, args=(EXAMPLE,))  # fmt: skip
    with st.expander(_("What the one click changes"), expanded=True):
        for need in missing(s):
            st.markdown(f"- {need}")
    if s.mode == "embeddings":  # the projections as they are, before any split
        # Also loads the browser's Plotly code before the click: the first chart of a page
        # waits for it (seconds on a busy machine; bench/pages/browser_mh.py, issue 21).
        Ws = {n: getattr(s, f"W_{n.lower()}") for n in "QKV"}
        chart(resolve(lazy(mf.split_figure, Ws, 1, look.phone(), _("Your projections today"))),
              "mh_before_split")  # fmt: skip


def _fix_summary(s: Scenario) -> str:
    """The fix in a few words, for the sentence above the button."""
    parts = [_("embeddings made from your Q, K and V")] if s.mode != "embeddings" else []
    if s.mode == "embeddings" and shapes.dims(s)["d_v"] != shapes.dims(s)["d_k"]:
        parts.append("d_v = d_k")
    if s.W_o is None:
        parts.append(_("an output projection W_O"))
    if len(parts) < 2:
        return "".join(parts)
    return _("{some} and {last}").format(some=", ".join(parts[:-1]), last=parts[-1])


# ---- the heads ------------------------------------------------------------------------------
def heads() -> None:
    """Head count, how the projections split, every head's weights, one head in full, W_O."""
    stale_notice(("n_heads", "W_o"))
    s = state.get_scenario()
    if not shapes.heads_ready(s):
        _not_ready(s)
        return
    _draft_error()
    mh, labels = state.per_scenario("multi_head_trace", lambda: multi_head_trace(s)), state.labels()
    # Shared by sessions and kept across scenarios: switching back to a head count, or a
    # class on one example, reuses the finished figures (figure_cache).
    # One figure per section under one key: a head count change updates each in place
    # (Plotly.react) instead of remounting a chart per head (issue 21's browser profile).
    figures = resolve(lazy(overview_figures, s, mh, labels, look.phone()))
    st.header(_("Split the projections into heads"))
    controls.head_count_control()
    st.caption(split_caption(mh))
    chart(figures["split"], "mh_split")
    small_multiples(mh, figures["small"])
    head_detail(s, mh, labels)
    after_heads(mh, figures)


def split_caption(mh: MultiHeadTrace) -> str:
    """How the columns are shared out, in words that fit the head count."""
    width = mh.Q.shape[1]
    if mh.n_heads == 1:
        more = (
            _("Choose more heads above to share the columns out.")
            if width > 1
            else _("A width of 1 cannot be split: make d_k larger on the Inputs page.")
        )
        return _("One head takes all {width} columns of each projection: nothing is split. "
                 "{more}").format(width=width, more=more)  # fmt: skip
    return ngettext(
        "{n} head of d_head = {d_head}: the {width} columns of each projection are shared "
        "out in order. Same colour, same head: column h2·1 is head 2's first column.",
        "{n} heads of d_head = {d_head}: the {width} columns of each projection are shared "
        "out in order. Same colour, same head: column h2·1 is head 2's first column.",
        mh.n_heads,
    ).format(n=mh.n_heads, d_head=mh.d_head, width=width)


def overview_figures(
    s: Scenario, mh: MultiHeadTrace, labels: Labels, phone: bool
) -> dict[str, go.Figure]:
    """The figures that depend on the scenario only: built once per scenario (they are most of
    the page's cost; the picked head's stage view is drawn fresh)."""
    q, k = labels.queries, labels.keys
    Ws = {n: getattr(s, f"W_{n.lower()}") for n in "QKV"}
    return {
        "split": mf.split_figure(Ws, mh.n_heads, phone),
        "small": mf.heads_figure(
            [h.weights for h in mh.heads], [h.mask for h in mh.heads], q, k, mh.d_head, phone
        ),
        "output": mf.output_figure(mh.concat, mh.W_o, mh.output, q, mh.n_heads, phone),
        "residual": mf.residual_figure(s.X, mh.output, q, phone),
    }


def chart(figure: go.Figure, key: str) -> None:
    """One section's figure, with the text alternative and Numbers table of all its panels."""
    plot(figure, key=key, alt=mf.alternative_of(figure))


def _draft_error() -> None:
    err = state.draft_error()
    if err is not None and err.where in ("n_heads", "W_o"):  # this page's own inputs
        st.error(md_escape(tr(err)))  # in the learner's language (was the English)


def small_multiples(mh: MultiHeadTrace, small: go.Figure) -> None:
    """Each head's attention weights, side by side on the same axes and the same 0..1 scale."""
    st.header(_("Every head's attention weights"))
    st.caption(
        _("Rows are queries, columns keys, as on the Softmax page. One colour scale for all: "
          "dark purple is weight 0, yellow is weight 1.") + " "
        + (_("Different bright cells mean the heads look at different tokens.")
           if mh.n_heads > 1 else _("With more heads, each gets a map of its own here."))
    )  # fmt: skip
    chart(small, "mh_small")


# ---- one head, stage by stage ---------------------------------------------------------------
# The walkthrough's stage views, drawn for one head; the projections also get X and the
# head's slices of W_q, W_k, W_v. A note says what is particular to a head at that stage.
# The stages' names are the options' values (the session's key holds them); choose_section
# shows them translated.
TRACE_VIEWS: dict[str, Callable[[Labels, AttentionTrace, str], None]] = {
    N_("Scores"): views.scores,
    N_("Scaling"): views.scaling,
    N_("Mask"): views.mask,
    N_("Softmax"): views.softmax_view,
    N_("Output"): views.output,
}
STAGE_TABS = (N_("Projections"), *TRACE_VIEWS)


def _scaling_note(mh: MultiHeadTrace, h: int) -> str:
    if mh.n_heads == 1:
        return _("With one head, d_head = d_k = {d_head}: the walkthrough's own scaling.").format(
            d_head=mh.d_head
        )
    return _(
        "A head scales by its own d_head = {d_head}, not by the full width {width}: its "
        "queries and keys have {d_head} numbers each."
    ).format(d_head=mh.d_head, width=mh.Q.shape[1])


def _output_note(mh: MultiHeadTrace, h: int) -> str:
    return _(
        "This head's output has d_head = {d_head} columns: it fills columns {first} to {last} "
        "of the concatenation below."
    ).format(d_head=mh.d_head, first=h * mh.d_head + 1, last=(h + 1) * mh.d_head)


NOTES: dict[str, Callable[[MultiHeadTrace, int], str]] = {
    "Scaling": _scaling_note,
    "Mask": lambda mh, h: _("Every head uses the same mask (set on the Mask page)."),
    "Output": _output_note,
}


def stage_view(stage: str, labels: Labels, s: Scenario, mh: MultiHeadTrace, h: int) -> None:
    """Head ``h``'s view of one stage, its widgets keyed by the stage (the same for every head)."""
    # One key for every head: picking another head updates the same charts in place
    # (Plotly.react) instead of mounting new ones; the picked pair carries over (same tokens).
    key = f"mh_one_{stage.lower()}"
    if stage in NOTES:
        st.caption(NOTES[stage](mh, h))
    if stage == "Projections":
        views.projections(labels, mh.heads[h], key, X=s.X, W=head_projections(s, mh, h))
    else:
        TRACE_VIEWS[stage](labels, mh.heads[h], key)


@guard.fragment
def head_detail(s: Scenario, mh: MultiHeadTrace, labels: Labels) -> None:
    """One head through every stage; picking a head or a tab reruns only this part."""
    st.header(_("One head, stage by stage"))
    heads = list(range(1, mh.n_heads + 1))
    if st.session_state.get(keys.HEAD, 1) not in heads:  # fewer heads than before
        st.session_state[keys.HEAD] = 1
    pick = st.segmented_control(_("Head"), heads, key=keys.HEAD, required=True, default=1,
                                bind="query-params", persist_state="session")  # fmt: skip
    h = int(pick or 1) - 1
    st.caption(
        _("Head {h} works on columns {first} to {last} of Q, K and V: Q, K ({qk}) and V ({v}). "
          "These are the walkthrough's own views, drawn for this head.").format(
              h=h + 1, first=h * mh.d_head + 1, last=(h + 1) * mh.d_head,
              qk=shape(mh.heads[h].Q), v=shape(mh.heads[h].V))
    )  # fmt: skip
    # A row of options over one panel, not st.tabs: only the chosen stage is drawn, and a
    # redraw in a tab's panel cost more (widgets.choose_section).
    stage = choose_section(_("Stage"), STAGE_TABS, keys.HEAD_STAGE, default="Scores", format_func=_)
    with st.container(key=f"{keys.HEAD_STAGE}_panel"):
        stage_view(stage, labels, s, mh, h)
    if st.button(_("Open head {h} in the walkthrough").format(h=h + 1), key="mh_open",
                 help=_("Loads this head's Q, K and V as a direct-mode scenario")):  # fmt: skip
        _open_in_walkthrough(s, mh, h)


def _open_in_walkthrough(s: Scenario, mh: MultiHeadTrace, h: int) -> None:
    title = shown_name(s.name) if s.name else _("your scenario")
    name = _("{title}: head {h} of {n}").format(title=title, h=h + 1, n=mh.n_heads)
    state.replace_scenario(head_scenario(s, mh, h, name))  # undoable, like every load
    state.notice(
        _("Head {h}'s Q, K and V are now your scenario (direct mode, d_k = {d_k}). Back, or "
          "Undo in the sidebar, returns to the multi-head scenario.").format(
              h=h + 1, d_k=mh.d_head)
    )  # fmt: skip
    st.switch_page(BY_KEY[OPEN_IN].path, query_params=state.share_query())


# ---- after the heads ------------------------------------------------------------------------
def after_heads(mh: MultiHeadTrace, figures: dict[str, go.Figure]) -> None:
    """The concatenation, W_O and the output; then the residual X + output."""
    st.header(_("Concatenate, then W_O"))
    st.markdown(
        ngettext(
            "The heads' outputs ({n} block of {d_head} columns) are laid side by side: the "
            "concatenation is {concat}. W_O ({w_o}) mixes them back to d_model = {d_model} "
            "numbers per token: ({concat}) · ({w_o}) → ({out}).",
            "The heads' outputs ({n} blocks of {d_head} columns) are laid side by side: the "
            "concatenation is {concat}. W_O ({w_o}) mixes them back to d_model = {d_model} "
            "numbers per token: ({concat}) · ({w_o}) → ({out}).", mh.n_heads,
        ).format(n=mh.n_heads, d_head=mh.d_head, concat=shape(mh.concat), w_o=shape(mh.W_o),
                 d_model=mh.output.shape[1], out=shape(mh.output))
        + " "
        + (_("Without W_O each head would only ever write into its own columns; with it, any "
             "head can change any feature of the token.") if mh.n_heads > 1 else
           _("With one head the concatenation is that head's output, and W_O maps it back."))
    )  # fmt: skip
    # Lazy: drawn only while open, so a head count change redraws the heads, not these six
    # matrices too (issue 21: the page drew about 11 charts per change).
    box = st.expander(_("Show Concat × W_O = Output, and the residual X + output"),
                      key=keys.HEAD_AFTER, on_change="rerun")  # fmt: skip
    if box.open is False:
        return
    with box:
        chart(figures["output"], "mh_out")
        st.subheader(_("The residual view: X + output"))
        chart(figures["residual"], "mh_res")
        st.caption(
            _(
                "In a Transformer the block's output is added to its input: each token keeps its "
                "embedding and adds what its heads gathered. The next layer reads X + output."
            )
        )


# ---- the example and the code ---------------------------------------------------------------
def example() -> None:
    # Lazy, like the Numbers expanders: a closed expander's text is otherwise sent, and laid
    # out by the browser, on every rerun (a head count change among them).
    box = st.expander(_("The example: {title}").format(title=_(PRESETS[EXAMPLE].title)),
                      key="mh_example_box",
                      on_change="rerun")  # fmt: skip
    if box.open is False:
        return
    with box:
        st.markdown(
            _(
                "The sentence is *the cat sat and it purred*. Each embedding has four numbers: "
                "two meaning features (is it an animal, is it a pronoun) and the token's "
                "position, written as a clock hand that turns 45° per token (the cosine and the "
                "sine of its angle)."
            )
            + "\n\n"
            + _(
                "**Head 1 finds the previous word.** Its slice of W_K copies each key's clock "
                "hand; its slice of W_Q copies the query's hand turned back by 45°. Two hands "
                "pointing the same way give the largest dot product, so each query matches the "
                "token one step before it. The first token has nothing before it and keeps to "
                "itself."
            )
            + "\n\n"
            + _(
                '**Head 2 links "it" to "cat".** Its slice of W_Q turns the pronoun '
                "feature into a question, and its slice of W_K turns the animal feature into the "
                'answer. Only "it" asks, and only "cat" answers, so the "it" row puts all '
                'its weight on "cat". Every other query asks nothing: all its scores are 0 and '
                "its weight spreads evenly."
            )
            + "\n\n"
            + _(
                "**W_O** writes head 2's finding into the animal feature: after the residual, "
                '"it" is marked as an animal. Head 1\'s position goes, halved, into the position '
                "features."
            )
        )
        st.button(_("Load this example"), key="mh_load_example_2", on_click=load_example,
                  args=(EXAMPLE,))  # fmt: skip


def code() -> None:
    convention()
    show_code(multi_head_attention, combine_heads, key="mh_code")
