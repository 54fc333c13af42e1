"""A prompt as the decoder reads it: byte-level BPE tokens, what each one stands for, and
where a long prompt was cut.

The tokenizer works on bytes: " capital" is one token (written "Ġcapital" in the
vocabulary, Ġ standing for the space), a rare word is several, every digit is one, and a
character outside the vocabulary's pieces (an emoji) is split into its UTF-8 bytes. A page
shows each token as the text it came from (``tokens``), with the word it belongs to: a
token that starts with a space (or the first token) starts a new word.

The app reads at most ``MAX_PROMPT_TOKENS`` (64) tokens: a longer prompt keeps its first
64, and ``Prompt.cut`` says where the rest began.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.trained.tokenize import TextCut, checked_text

MAX_PROMPT_TOKENS = 64  # the walkthrough's limit too: any head opens there
MAX_PROMPT_CHARS = 20_000  # far more than 64 tokens' worth; keeps a pasted book fast
VISIBLE = {" ": "␣", "\n": "⏎", "\t": "⇥"}  # how a whitespace-only token is labelled


class PromptCut(TextCut):
    """The prompt made more than ``n_kept`` tokens: the model read the first ``n_kept``.

    ``cut_char``: index in the prompt of the first character left out (the start of token
    ``n_kept + 1``); ``dropped_preview``: the start of what was left out.
    """

    TEMPLATE = N_(
        "This prompt makes {n_tokens} tokens, but the lab reads at most {n_kept}: it was cut "
        "at character {char}, before \u201c{preview}\u201d ({n_dropped} tokens left out). "
        "The next token is predicted for the part that was read."
    )


@dataclass(frozen=True)
class Prompt:
    """One prompt as the model reads it; each per-token tuple has one entry per token.

    ``pieces``: the vocabulary's own spelling ("Ġcapital"); ``tokens``: the text each token
    stands for (" capital"), or its bytes ("<F0 9F>") when it is part of one character;
    ``words[i]``: the index of the space-separated word token i belongs to (None for a
    special token); ``special``: control tokens such as <|im_start|>.
    """

    text: str
    ids: NDArray[np.intp]  # (n,)
    pieces: tuple[str, ...]
    tokens: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...]
    words: tuple[int | None, ...]
    special: tuple[bool, ...]
    cut: PromptCut | None

    @property
    def n(self) -> int:
        return len(self.pieces)

    @property
    def labels(self) -> list[str]:
        """Short unique labels for chart axes: the token's text without its leading space
        ("capital"), whitespace made visible ("␣"), repeats numbered ("the (2)")."""
        from attention_core.parsing import label_tokens

        return label_tokens([short_label(t) for t in self.tokens])


def short_label(token: str) -> str:
    """A token's text as an axis label: stripped, or its whitespace made visible."""
    stripped = token.strip()
    if stripped:
        return stripped
    return "".join(VISIBLE.get(ch, "␣") for ch in token) or "␣"


def check_prompt(text: object) -> str:
    return checked_text(
        text,
        empty=N_("type a prompt for the model to continue"),
        too_long=N_(
            "this prompt has {n} characters; at most {max} are read (the lab itself reads "
            "only the first {tokens} tokens)"
        ),
        max_chars=MAX_PROMPT_CHARS,
        tokens=str(MAX_PROMPT_TOKENS),
    )


def tokenize_prompt(
    tokenizer: Any, text: str, special_ids: Sequence[int], max_tokens: int = MAX_PROMPT_TOKENS
) -> Prompt:
    """Tokenize ``text`` (a ``tokenizers.Tokenizer``, no BOS added); cut at ``max_tokens``."""
    text = check_prompt(text)
    enc = tokenizer.encode(text)
    ids, pieces = list(enc.ids), list(enc.tokens)
    offsets = [tuple(o) for o in enc.offsets]
    specials = set(special_ids)
    special = [i in specials for i in ids]
    if all(special):
        names = ", ".join(dict.fromkeys(pieces))
        raise InputError(
            N_(
                "this prompt holds only special tokens ({names}), which mark a chat's turns; "
                "type some text for the model to continue"
            ),
            where="text",
            names=names,
        )
    cut = None
    if len(ids) > max_tokens:
        cut = PromptCut.at(text, len(ids), max_tokens, offsets[max_tokens][0])
        ids, pieces = ids[:max_tokens], pieces[:max_tokens]
        offsets, special = offsets[:max_tokens], special[:max_tokens]
    tokens = tuple(token_text(tokenizer, i) for i in ids)
    return Prompt(
        text=text,
        ids=np.asarray(ids, dtype=np.intp),
        pieces=tuple(pieces),
        tokens=tokens,
        offsets=tuple(offsets),
        words=group_words(tokens, special),
        special=tuple(special),
        cut=cut,
    )


def token_text(tokenizer: Any, token_id: int) -> str:
    """What one token stands for: its decoded text, or its bytes when it holds only part
    of a character (the decoder would print the replacement character)."""
    decoded = tokenizer.decode([token_id], skip_special_tokens=False)
    if "\ufffd" not in decoded:
        return decoded
    piece = tokenizer.id_to_token(token_id)
    raw = bytes(_BYTE_OF[ch] for ch in piece if ch in _BYTE_OF)
    return "<" + " ".join(f"{b:02X}" for b in raw) + ">"


def group_words(tokens: Sequence[str], special: Sequence[bool]) -> tuple[int | None, ...]:
    """Word index per token: a token that starts with whitespace starts a new word; so do
    the first token and the token after a special one."""
    words: list[int | None] = []
    current = -1
    fresh = True
    for token, is_special in zip(tokens, special, strict=True):
        if is_special:
            words.append(None)
            fresh = True
            continue
        if fresh or token[:1].isspace():
            current += 1
        words.append(current)
        fresh = token[-1:].isspace()  # a newline token ends its word
    return tuple(words)


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte-level alphabet: each byte 0..255 as one printable character."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
            *range(ord("®"), ord("ÿ") + 1)]  # fmt: skip
    chars, extra = {}, 0
    for b in range(256):
        if b in keep:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return chars


_BYTE_OF = {ch: b for b, ch in _bytes_to_unicode().items()}
