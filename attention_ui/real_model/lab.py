"""The real-model page: a trained model's 72 heads on the learner's sentence.

The model (all-MiniLM-L6-v2 in NumPy, ``attention_core.pretrained``) is loaded once per
server process; runs are kept in a small cache shared by all sessions, keyed by the text
(a Run is immutable, and 2-50 MB, so it is never pickled: st.cache_resource, not
cache_data). Both live in ``frame/models``, which the Decoder lab shares.

Each picker sits in a fragment with the part of the page it changes: picking a token
redraws only "From one token" and the comparison; picking a head redraws only
"One head, every stage" (see ``real_model_head``). The gallery is drawn on full reruns,
that is when the sentence changes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import InputError
from attention_core.pretrained import (
    HeadChange,
    Model,
    Run,
    attention_to,
    compare_runs,
    top_targets,
)
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys, look, models, state
from attention_ui.frame.widgets import choose_section, static_table
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.real_model import data
from attention_ui.real_model import figures as mf
from attention_ui.views.cache import lazy
from attention_ui.views.chart import plot

DEFAULT_TEXT = "The animal didn't cross the street because it was too tired"
MAX_CHARS = 3000  # well past 128 tokens (the model's limit), short enough for a link
CLEAR = 0.5  # "looks mostly at": half of the row's attention


# ---- the model and its runs, cached per server process (frame/models) ----------------------
@st.cache_resource(max_entries=2, show_spinner=False)
def padded_run(folder: str, text: str, extra: int, _model: Model) -> Run:
    """The text run as part of a batch: ``extra`` [PAD] tokens after it, masked out."""
    tokenized = _model.tokenize(text)
    return _model.run_tokens(tokenized.padded(len(tokenized.tokens) + extra, _model.pad_id))


def encode(model: Model, text: str) -> Run:
    return models.encode(model, text)


def model_or_message() -> Model | None:
    """The model, or None after saying exactly what to run to get it."""
    return models.loaded(models.encoder, _("The model"), _("this page"))


# ---- the sentence and its tokens -----------------------------------------------------------
def intro() -> None:
    st.markdown(
        _(
            "The other pages use small hand-made numbers. Here a **trained** model reads your "
            "sentence: all-MiniLM-L6-v2, a BERT encoder with **6 layers of 12 heads** (72 in "
            "all), each head a scaled dot-product attention with d_k = 32. It runs right here, "
            "in NumPy, through the same `attention()` function as the walkthrough, so every "
            "number below can be followed stage by stage."
        )
    )


def sentence(model: Model) -> Run | None:
    """The text box and the tokens; None (with a message) when there is nothing to run."""
    text = st.text_input(
        _("Your sentence"), value=DEFAULT_TEXT, max_chars=MAX_CHARS, key=keys.RM_TEXT,
        bind="query-params", help=_("Press Enter to run the model on it."),
    )  # fmt: skip
    try:
        run = encode(model, text)
    except InputError as exc:
        st.info(_("{problem}. The model's heads appear here once it has text.").format(
            problem=md_escape(tr(exc))))  # fmt: skip
        return None
    show_tokens(run)
    return run


def show_tokens(run: Run) -> None:
    st.markdown(_("**The tokens, as the model sees them**"))
    st.markdown(data.tokens_markdown(run))
    punct, pieces = (", ".join(f"“{md_escape(w)}”" for w in ws) for ws in data.split_words(run))
    n = len(run.tokens)
    st.caption(
        ngettext("{n} token.", "{n} tokens.", n).format(n=n) + " "
        + _("**[CLS]** and **[SEP]** are added by the model at the start and the end. Pieces "
            "of one typed word are joined by ·.") + " "
        + (_("The text is first cut at spaces and at every punctuation mark ({punct} here)")
           .format(punct=punct) if punct else
           _("The text is first cut at spaces and at every punctuation mark"))
        + (_("; then WordPiece cuts a word it does not know whole into pieces marked ## "
             "({pieces} here).").format(pieces=pieces) if pieces else
           _("; then WordPiece cuts a word it does not know whole into pieces marked ## "
             "(none here)."))
    )  # fmt: skip
    if run.unknown_text:
        unknown = ", ".join(f"“{md_escape(t)}”" for t in run.unknown_text)
        st.warning(
            _("The vocabulary has no piece for {unknown}: the model reads it as **\\[UNK\\]** "
              "(unknown), shown struck through above, and knows nothing more about it.").format(
                  unknown=unknown)
        )  # fmt: skip
    if run.truncated is not None:
        st.warning(md_escape(tr(run.truncated.text)))
    # Lazy: the interactive table is sent and drawn only while it is open (a sentence
    # change or an opening of the page drew its grid for nobody).
    box = st.expander(_("Every token, one per row"), key=keys.RM_TOKEN_TABLE, on_change="rerun")
    if box.open is not False:
        with box:
            st.dataframe(data.token_table(run), width="content")


# ---- the gallery ------------------------------------------------------------------------------
def gallery(run: Run) -> None:
    st.header(_("All 72 heads at once"))
    st.markdown(
        _(
            "Each small map is one head's attention weights for your sentence: a row per token "
            "asking (query), a column per token asked (key), from dark (no weight) to yellow "
            "(all of the row's weight). The label under a map is computed from its weights: "
            "**previous / next token** (a diagonal next to the main one), **[CLS]/[SEP] sink** "
            "(bright first or last column), **same word** (pieces of a word look at each "
            "other), **broad** (spread out). No label: no single clear pattern."
        )
    )
    names = [[p.name for p in layer] for layer in run.patterns()]
    n = run.n_valid
    weights = run.weights[:, :, :n, :n]  # (layers, heads, n, n)
    phone = look.phone()
    title = _("Attention weights of every head (L = layer, H = head)")
    plot(lazy(mf.gallery, weights, names, title, phone), key="rm_gallery",
         alt=mf.gallery_alternative(names, n, title))  # fmt: skip
    labelled = sum(bool(x) for row in names for x in row)
    short = " " + _("On this screen: **prev**/**next** token, **sink**, same **word**, **broad**.")
    st.caption(ngettext("{n} of 72 heads has a clear pattern on this sentence.",
                        "{n} of 72 heads have a clear pattern on this sentence.",
                        labelled).format(n=labelled)
               + (short if phone else ""))  # fmt: skip


# ---- from one token ----------------------------------------------------------------------------
def token_options(run: Run) -> list[str]:
    return [run.labels[i] for i in data.word_tokens(run)]


def pick_token(run: Run) -> int:
    """The token picker (bound to the URL); returns the token's index in the run."""
    options = token_options(run)
    default = options.index(run.labels[data.default_query(run)])
    label = st.selectbox(_("Token (the query)"), options, index=default, key=keys.RM_TOKEN,
                         bind="query-params")  # fmt: skip
    return run.labels.index(label)


TOKEN_TABS = (N_("Weight on one key"), N_("Strongest key per head"),
              N_("Two sentences side by side"))  # fmt: skip


def token_sections(model: Model, run: Run) -> None:
    """ "From one token" and the two-sentence comparison, one view at a time in one fragment:
    picking a token reruns only this section and draws only the chosen view."""
    st.header(_("From one token: where does it look?"))  # outside: a pick does not resend it
    _token_sections(model, run)


@guard.fragment
def _token_sections(model: Model, run: Run) -> None:
    query = pick_token(run)
    draws = dict(zip(TOKEN_TABS, (lambda: from_one_token(run, query),
                                  lambda: strongest_keys(run, query),
                                  lambda: compare(model, run, query)), strict=True))  # fmt: skip
    draws[choose_section(_("View"), TOKEN_TABS, keys.RM_TOKEN_TAB, format_func=_)]()


def pick_target(run: Run, query: int) -> int:
    labels = run.labels
    options = labels[: run.n_valid]
    if st.session_state.get(keys.RM_TARGET) not in options:
        st.session_state[keys.RM_TARGET] = labels[data.default_target(run, query)]
    return labels.index(st.selectbox(_("Key it might look at"), options, key=keys.RM_TARGET))


def from_one_token(run: Run, query: int) -> None:
    target = pick_target(run, query)
    lq, lt = run.labels[query], run.labels[target]
    on_target = attention_to(run, query, target)  # (layers, heads)
    best = np.unravel_index(np.argmax(on_target), on_target.shape)
    title = _("Weight from “{q}” to “{k}” in every head").format(q=lq, k=lt)
    plot(lazy(mf.head_grid, on_target, title, pick=best, phone=look.phone()),
         key="rm_on_target")  # fmt: skip
    strong = int((on_target >= CLEAR).sum())
    st.markdown(
        _("“{q}” puts at least half of its attention on “{k}” in **{strong} of 72** heads; "
          "most in **layer {layer}, head {head}** ({weight}, outlined). In most other heads it "
          "looks elsewhere.").format(
              q=md_escape(lq), k=md_escape(lt), strong=strong, layer=best[0] + 1,
              head=best[1] + 1, weight=f"{on_target[best]:.2f}")
    )  # fmt: skip
    focus = top_targets(run, query)
    names = [[p.name for p in layer] for layer in run.patterns()]
    st.markdown(_("**The heads ranked by the weight from “{q}” to “{k}”**").format(
        q=md_escape(lq), k=md_escape(lt)))  # fmt: skip
    table(data.focus_table(run, on_target, focus, names, target))


def strongest_keys(run: Run, query: int) -> None:
    skip = st.toggle(_("Ignore [CLS] and [SEP] when finding each head's strongest key"),
                     key=keys.RM_SKIP_SPECIAL)  # fmt: skip
    focus = top_targets(run, query, skip_special=skip)
    title = _("The key “{q}” attends to most, in every head").format(q=run.labels[query])
    figure = mf.targets_grid(focus.weight, data.target_labels(run, focus), title, look.phone())
    plot(figure, key="rm_targets")
    st.caption(
        _("Each cell: the key with the largest weight in that head's row for this token, and "
          "that weight. Many heads park their attention on [CLS] or [SEP] (see below).")
        + (" " + _("On a phone the cells are blank: tap one to see them.") if look.phone() else "")
    )  # fmt: skip


def table(frame: pd.DataFrame) -> None:
    """A small ranking, numbers to 3 decimals (``widgets.static_table``: escaped)."""
    static_table(frame, digits=3, hide_index=True)


# ---- two sentences ---------------------------------------------------------------------------
def compare(model: Model, run: Run, query: int) -> None:
    st.markdown(
        _(
            "Change one word and see which heads change where the token looks. In the lesson's "
            "pair, “tired” fits the animal and “wide” fits the street: a head that resolves "
            "“it” should move its attention when the word changes."
        )
    )
    text_b = st.text_input(_("Second sentence"), max_chars=MAX_CHARS, key=second_box(run.text),
                           bind="query-params")  # fmt: skip
    if text_b == run.text:
        st.caption(_("The second sentence is your sentence as it is: change one word of it."))
    try:
        run_b = encode(model, text_b)
        changes = compare_runs(run, run_b, query)
    except InputError as exc:
        st.info(md_escape(tr(exc)))
        return
    lq = run.labels[query]
    grid = data.change_grid(changes, run.n_layers, run.n_heads)
    top = changes[0]
    title = _("How much the attention of “{q}” changes, per head").format(q=lq)
    plot(mf.head_grid(grid, title, _("change"), pick=(top.layer, top.head),
                      phone=look.phone()), key="rm_change")  # fmt: skip
    st.caption(
        _("Change = total variation distance between the token's two rows of weights, with the "
          "keys of the two sentences lined up word by word: 0 is the same attention, 1 none "
          "in common.")
    )  # fmt: skip
    table(data.change_table(changes, run, run_b))
    _top_change(run, run_b, query, top)


def second_box(text: str) -> str:
    """The second sentence's key, its box seeded with ``text`` with one word changed
    (``data.second_sentence``): until the learner edits it, it follows the first sentence;
    a link's ?rm_text_b= comes first."""
    ss, auto = st.session_state, data.second_sentence(text)
    if keys.RM_TEXT_B not in ss:
        ss[keys.RM_TEXT_B] = state.url_value(keys.RM_TEXT_B) or auto
    elif ss[keys.RM_TEXT_B] == ss.get(keys.RM_TEXT_B_AUTO):
        ss[keys.RM_TEXT_B] = auto
    ss[keys.RM_TEXT_B_AUTO] = auto
    return keys.RM_TEXT_B


def _top_change(run: Run, run_b: Run, query: int, top: HeadChange) -> None:
    labels, first, second = data.aligned_rows(run, run_b, query, top.layer, top.head)
    title = _("Layer {layer}, head {head}: where “{q}” looks in each sentence").format(
        layer=top.layer + 1, head=top.head + 1, q=run.labels[query])  # fmt: skip
    plot(mf.compare_bars(labels, first, second, title, look.phone()), key="rm_change_bars")


# ---- what it means ------------------------------------------------------------------------------
def explanation() -> None:
    st.header(_("What this shows"))
    st.markdown(
        _(
            "**Heads specialise during training.** Nobody told any head what to do. Training "
            "on a lot of text made some heads track position (each token looks at the one "
            "before or after it), some join the pieces of a split word, some spread their "
            "attention over the whole sentence, and a few follow meaning, like a pronoun "
            "looking at what it stands for. The labels in the gallery are measured from the "
            "weights on *your* sentence, so they can change with the sentence."
        )
        + "\n\n"
        + _(
            "**Why so much attention goes to [CLS] and [SEP].** Softmax makes every row sum to "
            "1: a head *must* put its attention somewhere, even when nothing in the sentence is "
            "relevant to what it looks for. Many trained heads learn to park that weight on "
            '[CLS] or [SEP], which are present in every input, so they work as a "no-op": '
            "attending to them changes the token little (the usual explanation in studies of "
            "BERT's heads). That is why the strongest key is so often a special token; switch "
            "on *Ignore [CLS] and [SEP]* above to see the strongest real word."
        )
        + "\n\n"
        + _(
            '**The lesson\'s claim, checked.** The lesson says a trained model makes "it" '
            'attend to "animal". In this model that holds **in some heads, not all**: on the '
            "lesson's sentence two of the 72 heads (layer 4, head 2 and layer 6, head 12) send "
            'most of the attention of "it" to "animal", and changing "tired" to '
            '"wide" takes layer 4, head 2 away from "animal", while most heads look at '
            "[CLS] or [SEP], at neighbours or at nearby words. Meaning is spread over many heads "
            "and layers, and one head's weights are a clue, not the whole explanation."
        )
    )
