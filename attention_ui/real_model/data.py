"""The data step of the real-model page: tables and picks derived from a run (no Streamlit).

A run's tokens are shown with unique labels (``run.labels``: "the (1)", "the (2)"), the same
ones the pickers offer and the chart axes carry. Layers and heads are 1-based here, as the
page counts them; the core's indices are 0-based.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from attention_core.pretrained import HeadChange, Run, TokenFocus, align_tokens, ranked_heads
from attention_ui.draw.text import md_escape
from attention_ui.i18n import _

DEFAULT_QUERY = "it"  # the lesson's pronoun
DEFAULT_TARGET = "animal"  # what the lesson says "it" refers to
WORD_GAP = "\u2003"  # an em space between words; pieces of one word are joined by "·"
# The lesson's minimal pair: "tired" fits the animal, "wide" fits the street.
PAIR = {"tired": "wide", "wide": "tired"}
_PAIR_WORD = re.compile(r"\b(" + "|".join(PAIR) + r")\b", re.IGNORECASE)


def word_tokens(run: Run) -> list[int]:
    """Indices of the real tokens (not [CLS], [SEP] or [PAD])."""
    return [i for i in range(run.n_valid) if not run.special[i]]


def default_query(run: Run) -> int:
    """The lesson's "it" when the sentence has it, else its first word token."""
    words = word_tokens(run)
    found = [i for i in words if run.tokens[i].lower() == DEFAULT_QUERY]
    return found[0] if found else (words[0] if words else 0)


def default_target(run: Run, query: int) -> int:
    """ "animal" when the sentence has it, else the first word token that is not the query."""
    words = [i for i in word_tokens(run) if i != query]
    found = [i for i in words if run.tokens[i].lower() == DEFAULT_TARGET]
    return found[0] if found else (words[0] if words else query)


def second_sentence(text: str) -> str:
    """The comparison's first second sentence: ``text`` with one word changed.

    The lesson's pair swaps its last "tired" for "wide" (or back); a sentence without one of
    those words is offered as it is, for the learner to change one word of it.
    """
    found = list(_PAIR_WORD.finditer(text))
    if not found:
        return text
    word = found[-1]
    other = PAIR[word.group(0).lower()]
    other = other.capitalize() if word.group(0)[0].isupper() else other
    return text[: word.start()] + other + text[word.end() :]


def tokens_markdown(run: Run) -> str:
    """The tokens as the model sees them, escaped: pieces of one typed word joined by "·",
    [CLS]/[SEP] in bold, [UNK] struck through in bold (it stands for text the model lacks)."""
    parts: list[str] = []
    for i in range(len(run.tokens)):
        text = md_escape(run.tokens[i])
        if run.special[i]:
            text = f"**{text}**"
        elif run.unknown[i]:
            text = f"**~~{text}~~**"
        same_word = i > 0 and run.words[i] is not None and run.words[i] == run.words[i - 1]
        parts.append(("·" if same_word else WORD_GAP if parts else "") + text)
    return "".join(parts)


def token_table(run: Run) -> pd.DataFrame:
    """One row per token: its label, the word it came from, and what kind of token it is."""
    rows = []
    for i, label in enumerate(run.labels):
        word = run.word_text(i)
        rows.append({"#": i + 1, _("token"): label, _("from the text"): word or "",
                     _("kind"): _kind(run, i)})  # fmt: skip
    return pd.DataFrame(rows).set_index("#")


def _kind(run: Run, i: int) -> str:
    if run.special[i]:
        return _("padding") if i >= run.n_valid else _("special (added by the model)")
    if run.unknown[i]:
        return _("[UNK]: not in the vocabulary")
    pieces = [j for j, w in enumerate(run.words) if w == run.words[i]]
    if len(pieces) > 1:
        return _("piece {k} of {n} of one word").format(k=pieces.index(i) + 1, n=len(pieces))
    return _("whole word")


def split_words(run: Run) -> tuple[list[str], list[str]]:
    """The typed words the tokenizer split, by the step that split them.

    First the text is cut at spaces and at every punctuation mark ("didn't" -> didn ' t:
    each part starts a fresh token); then WordPiece cuts a word it does not know whole into
    pieces that continue it ("##"). Returns (cut at punctuation, cut by WordPiece), each in
    the order typed; a word can be in both.
    """
    tokens: dict[int, list[str]] = {}
    for i in word_tokens(run):
        tokens.setdefault(run.words[i], []).append(run.tokens[i])
    punct, pieces = [], []
    for word, toks in tokens.items():
        text = run.word_text(next(i for i in word_tokens(run) if run.words[i] == word)) or ""
        if any(not t.startswith("##") for t in toks[1:]):
            punct.append(text)
        if any(t.startswith("##") for t in toks):
            pieces.append(text)
    return punct, pieces


def focus_table(
    run: Run, on_target: np.ndarray, focus: TokenFocus, names: Sequence[Sequence[str]],
    target: int, top: int = 10,
) -> pd.DataFrame:  # fmt: skip
    """The ``top`` heads by weight from the query to ``target``, with each one's top key.

    on_target (n_layers, n_heads): attention_to(run, query, target); focus: top_targets;
    names: the patterns' English names (shown translated). Headers in the session's language.
    """
    labels = run.labels
    on = _("weight on “{k}”").format(k=labels[target])
    rows = [
        {_("layer"): layer + 1, _("head"): head + 1, on: weight,
         _("strongest key"): labels[focus.target[layer, head]],
         _("its weight"): float(focus.weight[layer, head]),
         _("pattern"): _(names[layer][head])}
        for layer, head, weight in ranked_heads(on_target)[:top]
    ]  # fmt: skip
    return pd.DataFrame(rows)


def change_table(changes: Sequence[HeadChange], run_a: Run, run_b: Run, top: int = 10
                 ) -> pd.DataFrame:  # fmt: skip
    """The ``top`` heads whose attention for the picked token changes most between runs
    (headers in the session's language)."""
    la, lb = run_a.labels, run_b.labels
    rows = [
        {_("layer"): c.layer + 1, _("head"): c.head + 1, _("change"): c.change,
         _("strongest key (first)"): la[c.top_a], _("strongest key (second)"): lb[c.top_b]}
        for c in changes[:top]
    ]  # fmt: skip
    return pd.DataFrame(rows)


def aligned_rows(
    run_a: Run, run_b: Run, query_a: int, layer: int, head: int
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The query's row in one head for both runs, on the first run's keys.

    Keys are lined up as compare_runs does (align_tokens); a key of the first sentence with
    no counterpart gets NaN for the second. Labels read "tired / wide" where they differ.
    """
    pairs = dict(align_tokens(run_a.tokens[: run_a.n_valid], run_b.tokens[: run_b.n_valid]))
    query_b = pairs[query_a]
    row_a = run_a.weights[layer, head, query_a, : run_a.n_valid]  # (n_a,)
    row_b = run_b.weights[layer, head, query_b]  # (n_b,)
    second = np.array([row_b[pairs[j]] if j in pairs else np.nan for j in range(row_a.size)])
    labels = [
        la if j not in pairs or run_b.tokens[pairs[j]] == run_a.tokens[j]
        else f"{la} / {run_b.labels[pairs[j]]}"
        for j, la in enumerate(run_a.labels[: run_a.n_valid])
    ]  # fmt: skip
    return labels, row_a, second


def change_grid(changes: Sequence[HeadChange], n_layers: int, n_heads: int) -> np.ndarray:
    """The changes back on the (n_layers, n_heads) grid."""
    grid = np.zeros((n_layers, n_heads))
    for c in changes:
        grid[c.layer, c.head] = c.change
    return grid


def target_labels(run: Run, focus: TokenFocus) -> list[list[str]]:
    """focus.target (n_layers, n_heads) as token labels."""
    labels = run.labels
    return [[labels[j] for j in row] for row in focus.target.tolist()]
