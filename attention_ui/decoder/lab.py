"""The Decoder lab: a trained language model (SmolLM2-135M) on the learner's prompt.

The decoder is memory-mapped on the lab's first use (``frame/models``: once per server
process, and the weights' pages are shared by every process on the machine); runs are kept
in a small cache shared by all sessions, keyed by the prompt. Pickers sit in fragments with
the part of the page they change: a token pick redraws only "From one token", a head pick
only "One head, every stage" (``head.py``). The gallery and the next tokens are drawn on
full reruns, that is when the prompt changes.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from attention_core import InputError
from attention_core.decoder import Decoder, DecoderRun
from attention_ui.decoder import data
from attention_ui.decoder import figures as df
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys, look, models
from attention_ui.frame.widgets import choose_section, static_table
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.views.cache import lazy
from attention_ui.views.chart import plot

DEFAULT_PROMPT = "The trophy did not fit in the suitcase because it was too"
MAX_CHARS = 3000  # well past 64 tokens (the lab's limit), short enough for a link
# The options' values (English, in the session); shown as "Layers 1–10" in its language.
GALLERY_TABS = (("Layers 1–10", 0), ("Layers 11–20", 10), ("Layers 21–30", 20))
TOKEN_TABS = (N_("Weight on one key"), N_("Strongest key per head"))


def decoder_or_message() -> Decoder | None:
    """The decoder (mapped on the lab's first use), or None after saying what to run."""
    return models.loaded(models.decoder, _("The decoder"), _("this lab"))


def intro() -> None:
    st.markdown(
        _(
            "The Real model lab shows an **encoder**: every token sees every other. Here is a "
            "**decoder**, the kind of model that writes text: SmolLM2-135M-Instruct, a trained "
            "language model with **30 layers of 9 heads** (270 in all). Three things make it "
            "differ from the walkthrough's attention:"
        )
        + "\n- "
        + _(
            "a **causal mask**: a token sees only itself and the tokens before it, because the "
            "model is trained to predict the next token;"
        )
        + "\n- "
        + _("**grouped queries**: the 9 query heads of a layer share 3 key/value heads;")
        + "\n- "
        + _("**RoPE**: queries and keys are turned by their position before they meet.")
        + "\n\n"
        + _("It runs here, in NumPy, every head through the walkthrough's `attention()`.")
    )


def prompt(decoder: Decoder) -> DecoderRun | None:
    """The prompt box, its tokens and what comes next; None (with a message) for bad input."""
    # The default only for a box that has no value yet: Append sets the box's value, and a
    # box given both logged Streamlit's "created with a default value but also had its value
    # set via the Session State API" warning.
    default = {} if keys.DEC_TEXT in st.session_state else {"value": DEFAULT_PROMPT}
    text = st.text_input(
        _("Your prompt"),
        **default,
        max_chars=MAX_CHARS,
        key=keys.DEC_TEXT,
        bind="query-params",
        help=_("Press Enter: the model predicts the token that comes next."),
    )
    try:
        run = models.run_decoder(decoder, text)
    except InputError as exc:
        st.info(
            _("{problem}. The model's heads appear here once it has text.").format(
                problem=md_escape(tr(exc))
            )
        )
        return None
    st.markdown(_("**The tokens, as the model reads them**"))
    st.markdown(data.tokens_markdown(run))
    st.caption(
        ngettext("{n} token.", "{n} tokens.", run.n).format(n=run.n)
        + " "
        + _(
            "Pieces of one word are joined by ·; a token usually carries the space before its "
            "word. Nothing is added at the start: the first token is the prompt's first word."
        )
    )
    if any(run.special):
        st.caption(
            _("Bold tokens are special: they mark the turns of a chat ({example}, ...).").format(
                example="<|im_start|>"
            )
        )
    if run.prompt.cut is not None:
        st.warning(md_escape(tr(run.prompt.cut.text)))
    return run


def next_tokens(run: DecoderRun) -> None:
    st.header(_("What comes next"))
    top = run.next_tokens
    tokens = [data.visible(t.text) for t in top]
    title = ngettext("The {n} likeliest next token", "The {n} likeliest next tokens",
                     len(top)).format(n=len(top))  # fmt: skip
    plot(lazy(df.next_tokens_bar, tokens, [t.p for t in top], title, look.phone()), key="dec_next")
    rest = 1.0 - sum(t.p for t in top)
    st.caption(
        _(
            "␣ is a space. The model's output is one probability for each of its {vocab} "
            "tokens; these {n} hold {share} of it. A chatbot picks one (here: the likeliest, "
            "“greedy”), appends it, and runs the model again."
        ).format(vocab="49,152", n=len(top), share=f"{1 - rest:.0%}")
    )


# ---- every head ----
def gallery(run: DecoderRun) -> None:
    st.header(_("All 270 heads at once"))
    codes, names = data.pattern_grid(run)
    phone = look.phone()
    plot(
        lazy(df.pattern_map, codes, names, _("What each head does on your prompt"), phone),
        key="dec_patterns",
    )
    counts = ", ".join(f"{_(name)}: {n}" for name, n in data.pattern_counts(run).items() if n)
    st.caption(
        _(
            "Labels computed from each head's weights ({counts}). **First-token sink**: the "
            "head puts most of its weight on the first token, whatever it is: softmax must "
            "send the weight somewhere, and the first token is the one every token sees. On "
            "this prompt {share} of the heads put more than half there."
        ).format(counts=counts, share=f"{data.sink_share(run):.0%}")
    )
    ranges = dict(GALLERY_TABS)
    shown = {name: _("Layers {first}–{last}").format(first=first + 1, last=first + 10)
             for name, first in GALLERY_TABS}  # fmt: skip
    title = choose_section(
        _("Layers"), list(ranges), keys.DEC_GALLERY_TAB, format_func=shown.__getitem__
    )
    first = ranges[title]
    part = run.weights[first : first + 10]  # (10, heads, n, n)
    short = data.head_names(names[first : first + 10], phone)
    heading = _("Attention weights, layers {first}–{last}").format(first=first + 1, last=first + 10)
    plot(lazy(df.gallery, part, short, first, heading, phone), key=f"dec_gallery_{first}")
    st.caption(
        _(
            "Each small map is one head: a row per token asking (query), a column per token "
            "asked (key), dark to yellow from no weight to all of it. Everything above the "
            "diagonal is dark: no token looks ahead."
        )
    )


# ---- from one token ----
def pick_token(run: DecoderRun) -> int:
    """The token picker (bound to the URL); returns the token's index in the run."""
    options = data.token_options(run)
    default = options.index(run.labels[data.default_query(run)])
    label = st.selectbox(
        _("Token (the query)"), options, index=default, key=keys.DEC_TOKEN, bind="query-params"
    )
    return run.labels.index(label)


def token_sections(run: DecoderRun) -> None:
    """ "From one token", one view at a time in one fragment: a pick reruns only this part."""
    st.header(_("From one token: where does it look?"))  # outside: a pick does not resend it
    _token_sections(run)


@guard.fragment
def _token_sections(run: DecoderRun) -> None:
    query = pick_token(run)
    draws = dict(zip(TOKEN_TABS, (lambda: on_one_key(run, query),
                                  lambda: strongest(run, query)), strict=True))  # fmt: skip
    draws[choose_section(_("View"), TOKEN_TABS, keys.DEC_TOKEN_TAB, format_func=_)]()


def pick_target(run: DecoderRun, query: int) -> int:
    options = run.labels[: query + 1]  # a causal head: only the query and what came before
    if st.session_state.get(keys.DEC_TARGET) not in options:
        st.session_state[keys.DEC_TARGET] = run.labels[data.default_target(run, query)]
    return run.labels.index(
        st.selectbox(_("Key it might look at (itself or earlier)"), options, key=keys.DEC_TARGET)
    )


def on_one_key(run: DecoderRun, query: int) -> None:
    target = pick_target(run, query)
    lq, lt = run.labels[query], run.labels[target]
    weight = data.on_key(run, query, target)  # (layers, heads)
    best = divmod(int(weight.argmax()), run.n_heads)
    plot(
        lazy(
            df.head_grid,
            weight,
            _("Weight from “{q}” to “{k}” in every head").format(q=lq, k=lt),
            pick=best,
            phone=look.phone(),
        ),
        key="dec_on_target",
    )
    strong = int((weight >= 0.5).sum())
    st.markdown(
        _(
            "“{q}” puts at least half of its attention on “{k}” in **{strong} of 270** heads; "
            "most in **layer {layer}, head {head}** ({weight}, outlined). The heads that put "
            "the most there, with their numbers (a cell shows its number on hover):"
        ).format(
            q=md_escape(lq),
            k=md_escape(lt),
            strong=strong,
            layer=best[0] + 1,
            head=best[1] + 1,
            weight=f"{weight[best]:.2f}",
        )
    )
    table(data.focus_table(run, query, target))


def strongest(run: DecoderRun, query: int) -> None:
    target, weight = data.strongest_keys(run, query)
    # One line a cell ("because 0.45"): 30 layers leave no room for two, and head_grid
    # escapes the text (a token is learner text), so markup such as <br> would print as is.
    text = [
        [f"{run.labels[j][:8]} {w:.2f}" for j, w in zip(row_t, row_w, strict=True)]
        for row_t, row_w in zip(target.tolist(), weight.tolist(), strict=True)
    ]
    title = _("The key “{q}” attends to most, in every head").format(q=run.labels[query])
    plot(lazy(df.head_grid, weight, title, text=text, phone=look.phone()), key="dec_targets")
    st.caption(_("Each cell: the key with the largest weight in that head's row, and the weight."))


def table(frame: pd.DataFrame) -> None:
    """A small ranking, numbers to 3 decimals (``widgets.static_table``: escaped)."""
    static_table(frame, digits=3, hide_index=True)


def explanation() -> None:
    st.header(_("What this shows"))
    st.markdown(
        _(
            "**Why the mask.** A decoder is trained to predict, at every position at once, the "
            "token that comes next. If a token could see the tokens after it, it would read "
            "the answer instead of predicting it. So every weight above the diagonal is exactly "
            "0, in every head: the mask stage puts −∞ there before the softmax."
        )
        + "\n\n"
        + _(
            "**Grouped queries.** Each layer computes 9 queries but only 3 keys and 3 values "
            "per token; query heads 1–3 read key/value head 1, 4–6 head 2, 7–9 head 3. The keys "
            'and values a model must keep while it writes (its "KV cache") shrink to a third, '
            "and the heads of a group still look at different places, because their queries "
            "differ."
        )
        + "\n\n"
        + _(
            "**RoPE.** Nothing tells this model where a token is, except that each query and "
            "key is turned by an angle that grows with its position (32 pairs of numbers, each "
            "at its own speed). A score then depends on how far apart the two tokens are, not "
            "on where they are."
        )
        + "\n\n"
        + _(
            "**Sinks.** In the later layers most heads park their weight on the first token. "
            "Softmax makes every row sum to 1, so a head with nothing to look for must still "
            "look somewhere: the first token is seen by every token and ends up as the model's "
            '"no-op".'
        )
    )
