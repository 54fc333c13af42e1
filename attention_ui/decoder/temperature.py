"""Temperature and sampling on the Decoder lab: the next token's distribution at the
learner's temperature with its top-k and top-p cut-offs, its entropy, and *Append* and
*Generate N tokens* drawing with those settings and a seed.

Every setting is a widget bound to the URL (``keys.PAGE_PARAMS``: a link, and a live
class, carry them), so a link reproduces the draws: the core's draws are the same on every
machine (attention_core.decoder.sampling). In a fragment: a setting reruns only this part.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import streamlit as st

from attention_core.decoder import MAX_TEMPERATURE, Decoder, DecoderRun
from attention_core.decoder.model import MAX_NEW_TOKENS
from attention_ui.decoder import data
from attention_ui.decoder import generation_figures as gf
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys, look
from attention_ui.frame.widgets import bad_link_value, decimal_in, whole_number_in
from attention_ui.i18n import _, ngettext
from attention_ui.views.cache import lazy
from attention_ui.views.chart import plot

SHOWN = 12  # tokens on the chart
MAX_TOP_K = 50
MAX_SEED = 1_000_000


def section(decoder: Decoder, run: DecoderRun) -> None:
    st.header(_("Temperature and sampling"))  # outside the fragment: a setting does not resend it
    _section(decoder, run)


@guard.fragment
def _section(decoder: Decoder, run: DecoderRun) -> None:
    if keys.DEC_DRAWN in st.session_state and guard.own_fragment_run():
        st.rerun(scope="app")  # Append or Generate changed the prompt: the whole page follows
    settings = _settings()
    dist = run.distribution(*settings[:3])
    chart, numbers = st.columns([3, 1])
    with chart:
        _chart(decoder, run, settings, dist.ids.shape[0])
    with numbers:
        st.metric(
            _("Entropy"),
            _("{h} nats").format(h=f"{dist.entropy:.2f}"),
            help=_(
                "−Σ p log p over the kept tokens: 0 when one token is certain, "
                "ln {vocab} ≈ {most} when all are equally likely."
            ).format(vocab="49,152", most=f"{math.log(run.config.vocab):.1f}"),
        )
        st.metric(_("Tokens kept"), f"{dist.ids.shape[0]:,}")
    st.caption(
        _(
            "The Scaling lab's lesson, on the model's own scores: dividing the logits by a "
            "small T saturates the softmax exactly as scores not divided by √d_k do; a large "
            "T flattens it. T = 0 keeps only the likeliest token (greedy)."
        )
    )
    _draw_buttons(decoder, run, settings)


def _settings() -> tuple[float, int | None, float | None, int]:
    """The four settings (bound to the URL): T, top-k (None: off), top-p (None: off), seed."""
    left, mid, right, last = st.columns(4)
    t = _setting(left.slider, _("Temperature T"), (0.0, MAX_TEMPERATURE, 0.0, 0.1),
                 keys.DEC_TEMP, _("0 = greedy: always the likeliest token."))  # fmt: skip
    top_k = _setting(mid.number_input, _("top-k (0 = off)"), (0, MAX_TOP_K, 0, 1), keys.DEC_TOP_K,
                     _("Keep only the k likeliest tokens, then renormalise."))  # fmt: skip
    top_p = _setting(right.slider, _("top-p (1 = off)"), (0.05, 1.0, 1.0, 0.05), keys.DEC_TOP_P,
                     _("Keep the fewest likeliest tokens whose probabilities add up to p, then "
                       "renormalise."))  # fmt: skip
    seed = _setting(last.number_input, _("Seed"), (0, MAX_SEED, 0, 1), keys.DEC_SEED,
                    _("The same seed draws the same tokens, on every machine."))  # fmt: skip
    return (
        round(float(t), 2),
        int(top_k) or None,
        None if top_p >= 1.0 else float(top_p),
        int(seed),
    )


def _setting(make: Callable[..., Any], label: str, span: tuple, key: str,
             help_text: str | None = None) -> Any:  # fmt: skip
    """One setting bound to the URL: ``make`` (a slider or number input) with ``span`` =
    (lowest, highest, default, step); a link's value it cannot take is said first
    (bad_link_value), whole numbers when the step is whole."""
    low, high, _default, step = span
    bad_link_value(key, *(whole_number_in(low, high) if isinstance(step, int)
                          else decimal_in(low, high)))  # fmt: skip
    return make(label, *span, key=key, bind="query-params", help=help_text)


def _chart(decoder: Decoder, run: DecoderRun, settings: tuple, kept: int) -> None:
    t, top_k, top_p, _seed = settings
    own = run.distribution(1.0)
    at_t = run.distribution(t)  # before the cut-offs, to draw them
    ids = (own if t == 0 else at_t).ids[:SHOWN]
    tokens = [data.visible(decoder.decode([i])) for i in ids]
    title = _("The next token at T = {t}").format(t=f"{t:g}")
    plot(
        lazy(
            gf.sampling_bars,
            tokens,
            data.probabilities_of(ids, at_t),
            data.probabilities_of(ids, own),
            kept,
            title,
            look.phone(),
        ),
        key="dec_sampling",
    )
    cut = [name for name, on in (("top-k", top_k), ("top-p", top_p)) if on]
    if cut and kept < SHOWN:
        st.caption(
            ngettext(
                "{cut}: {n} token is kept; its probability is divided by their sum.",
                "{cut}: {n} tokens are kept; each probability is divided by their sum.",
                kept,
            ).format(cut=" + ".join(cut), n=kept)
        )


def _draw_buttons(decoder: Decoder, run: DecoderRun, settings: tuple) -> None:
    drawn = run.first_draw(*settings)  # what Append adds: the draw generate() makes first
    token = data.visible(decoder.decode([drawn]))
    st.button(
        _("Append “{token}” and predict again").format(token=md_escape(token)),
        key="dec_append",
        on_click=_append_text,
        args=(run.text + decoder.decode([drawn]), [drawn]),
    )
    left, right = st.columns([1, 2], vertical_alignment="bottom")
    n = _setting(left.number_input, _("N"), (1, MAX_NEW_TOKENS, 8, 1), keys.DEC_N)
    right.button(
        _("Generate {n} tokens").format(n=int(n)),
        key="dec_generate",
        on_click=_generate,
        args=(decoder, run.text, int(n), settings),
    )
    said = st.session_state.pop(keys.DEC_DRAWN, None)
    if said:
        st.caption(
            _("Drawn: {tokens}").format(
                tokens=" · ".join(md_escape(data.visible(decoder.decode([i]))) for i in said)
            )
        )
    if settings[0] == 0:
        st.caption(_("With T = 0 every draw is the likeliest token: the seed does not matter."))


@guard.callback
def _append_text(text: str, drawn: list[int]) -> None:
    st.session_state[keys.DEC_TEXT] = text
    st.session_state[keys.DEC_DRAWN] = drawn


@guard.callback
def _generate(decoder: Decoder, text: str, n: int, settings: tuple) -> None:
    """The decoder's loop: draw ``n`` tokens with the settings (each against the KV cache),
    append them to the prompt."""
    new = decoder.generate(text, n, *settings)
    _append_text(text + decoder.decode(new), new)
