"""Text to WordPiece tokens, with what a page needs to explain them.

The tokenizer is the model's own ``tokenizer.json`` read by the ``tokenizers`` package. That
file pads every text to 128 tokens; padding is turned off here (a run has exactly its own
tokens). Truncation is done here too, so the run can say how long the full text was and
where it was cut.

A *word* here is what the learner typed between spaces: "didn't" is one word of three
tokens (``didn ' t``), "tokenization" one word of two (``token ##ization``). The tokenizer's
own notion (punctuation splits words) is finer than what a reader sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.trained.tokenize import TextCut, checked_text

MAX_MODEL_TOKENS = 128  # the length the model was tuned at (tokenizer.json truncates here)
MAX_TEXT_CHARS = 100_000  # far more than 128 tokens' worth; keeps a pasted book fast
UNK = "[UNK]"
CLS, SEP, PAD = "[CLS]", "[SEP]", "[PAD]"


class Truncation(TextCut):
    """The text made more than ``MAX_MODEL_TOKENS`` tokens and was cut.

    ``n_tokens``: tokens of the whole text ([CLS] and [SEP] included); ``n_kept``: how many
    the model read; ``cut_char``: index in the text of the first character left out;
    ``dropped_preview``: the start of what was left out.
    """

    TEMPLATE = N_(
        "This text makes {n_tokens} tokens, but the model reads at most {n_kept}: it was cut "
        "at character {char}, before \u201c{preview}\u201d, and the last {n_dropped} tokens "
        "were left out."
    )


@dataclass(frozen=True)
class Tokenized:
    """One text as the model sees it. Every per-token tuple has one entry per token.

    ``offsets[i]``: (start, end) characters of the text token i came from ((0, 0) for
    [CLS], [SEP] and [PAD]); ``words[i]``: index of the space-separated word it belongs to,
    None for special tokens; ``word_spans[w]``: (start, end) characters of word w.
    """

    text: str
    tokens: tuple[str, ...]
    ids: NDArray[np.intp]  # (n,)
    offsets: tuple[tuple[int, int], ...]
    words: tuple[int | None, ...]
    word_spans: tuple[tuple[int, int], ...]
    special: tuple[bool, ...]
    unknown: tuple[bool, ...]
    n_valid: int  # real tokens; the rest (if any) is padding
    truncated: Truncation | None

    @property
    def unknown_text(self) -> tuple[str, ...]:
        """The pieces of the text that became [UNK], in order."""
        return tuple(
            self.text[a:b] for (a, b), u in zip(self.offsets, self.unknown, strict=True) if u
        )

    def word_text(self, i: int) -> str | None:
        """The whole word token ``i`` came from ("didn't" for ``t``); None for specials."""
        w = self.words[i]
        return None if w is None else self.text[slice(*self.word_spans[w])]

    def padded(self, n: int, pad_id: int) -> Tokenized:
        """The same tokens followed by [PAD] up to length ``n`` (for a batch)."""
        extra = n - len(self.tokens)
        if extra <= 0:
            return self
        return Tokenized(
            text=self.text,
            tokens=self.tokens + (PAD,) * extra,
            ids=np.concatenate([self.ids, np.full(extra, pad_id, dtype=np.intp)]),
            offsets=self.offsets + ((0, 0),) * extra,
            words=self.words + (None,) * extra,
            word_spans=self.word_spans,
            special=self.special + (True,) * extra,
            unknown=self.unknown + (False,) * extra,
            n_valid=self.n_valid,
            truncated=self.truncated,
        )


def check_text(text: object) -> str:
    return checked_text(
        text,
        empty=N_("type a sentence for the model to read"),
        too_long=N_(
            "this text has {n} characters; at most {max} are read (the model itself reads "
            "only the first {tokens} tokens)"
        ),
        max_chars=MAX_TEXT_CHARS,
        tokens=str(MAX_MODEL_TOKENS),
    )


def tokenize(tokenizer: Any, text: str, max_tokens: int = MAX_MODEL_TOKENS) -> Tokenized:
    """Tokenize ``text`` with a ``tokenizers.Tokenizer`` (padding and truncation off)."""
    text = check_text(text)
    enc = tokenizer.encode(text)  # [CLS] ... [SEP], the whole text
    tokens, ids, offsets = list(enc.tokens), list(enc.ids), [tuple(o) for o in enc.offsets]
    special = [bool(s) for s in enc.special_tokens_mask]
    if not any(not s for s in special):
        raise InputError(
            N_("this text has nothing the model can read (only spaces or control characters)"),
            where="text",
        )
    truncated = None
    if len(tokens) > max_tokens:  # keep [CLS] + the first max_tokens - 2 + the final [SEP]
        truncated = Truncation.at(text, len(tokens), max_tokens, offsets[max_tokens - 1][0])
        keep = [*range(max_tokens - 1), len(tokens) - 1]
        tokens, ids, offsets, special = (
            [seq[i] for i in keep] for seq in (tokens, ids, offsets, special)
        )
    words, spans = group_words(text, offsets, special)
    return Tokenized(
        text=text,
        tokens=tuple(tokens),
        ids=np.asarray(ids, dtype=np.intp),
        offsets=tuple(offsets),
        words=words,
        word_spans=spans,
        special=tuple(special),
        unknown=tuple(t == UNK for t in tokens),
        n_valid=len(tokens),
        truncated=truncated,
    )


def group_words(
    text: str, offsets: list[tuple[int, int]], special: list[bool]
) -> tuple[tuple[int | None, ...], tuple[tuple[int, int], ...]]:
    """Word index per token (tokens with no space between them share a word), and spans."""
    words: list[int | None] = []
    spans: list[tuple[int, int]] = []
    prev_end: int | None = None
    for (start, end), is_special in zip(offsets, special, strict=True):
        if is_special:
            words.append(None)
            continue
        if prev_end is None or _has_space(text[prev_end:start]):
            spans.append((start, end))
        else:
            spans[-1] = (spans[-1][0], end)
        words.append(len(spans) - 1)
        prev_end = end
    return tuple(words), tuple(spans)


def _has_space(gap: str) -> bool:
    return any(ch.isspace() for ch in gap)
