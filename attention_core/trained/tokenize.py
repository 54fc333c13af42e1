"""Tokenizer glue both models share: reading ``tokenizer.json``, checking a typed text,
and saying where a long text was cut.

How a text becomes tokens stays with each model: MiniLM's WordPiece adds [CLS] and [SEP]
and drops spaces (``pretrained/tokenize.py``); SmolLM2's byte-level BPE keeps them inside
its tokens and adds nothing (``decoder/tokenize.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

from attention_core.errors import InputError
from attention_core.i18n import Text, english
from attention_core.trained.files import ModelFolder, missing_package

PREVIEW_CHARS = 40


@dataclass(frozen=True)
class TextCut:
    """The text made ``n_tokens`` tokens, more than the ``n_kept`` the model read.

    ``cut_char``: index in the text of the first character left out; ``dropped_preview``:
    the start of what was left out. Each model words its own ``TEMPLATE`` (marked with
    ``N_``); ``text`` is it with the cut's values, ``message`` its English.
    """

    n_tokens: int
    n_kept: int
    cut_char: int
    dropped_preview: str

    TEMPLATE: ClassVar[str] = ""  # each model's cut words its own

    @property
    def n_dropped(self) -> int:
        return self.n_tokens - self.n_kept

    @property
    def text(self) -> Text:
        """The learner's message: the model's template with its values (a character counted
        from 1, as people do), shown in the learner's language by the app."""
        return Text(self.TEMPLATE, n_tokens=str(self.n_tokens), n_kept=str(self.n_kept),
                    char=str(self.cut_char + 1), preview=self.dropped_preview,
                    n_dropped=str(self.n_dropped))  # fmt: skip

    @property
    def message(self) -> str:
        return english(self.text)

    @classmethod
    def at(cls, text: str, n_tokens: int, n_kept: int, cut_char: int) -> Self:
        """The cut of ``text`` at character ``cut_char``, with a preview of what it left out."""
        return cls(n_tokens, n_kept, cut_char, preview(text[cut_char:]))


def read_tokenizer(model: ModelFolder, folder: Path, name: str = "tokenizer.json") -> Any:
    """The ``tokenizers.Tokenizer`` in ``folder / name``, imported only now, so the core
    imports without the package. Raises ModelMissing for the package, and the model's own
    error (``model.unreadable``) for a file that cannot be read."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise missing_package("tokenizers") from None
    try:
        return Tokenizer.from_file(str(folder / name))
    except Exception as exc:  # the Rust side raises plain Exception on a bad file
        raise model.unreadable(folder, name, exc) from None


def checked_text(text: object, *, empty: str, too_long: str, max_chars: int, **params: str) -> str:
    """``text`` when it is a str with something besides spaces and at most ``max_chars``
    characters; else InputError: ``empty`` for a blank one, and for a long one the template
    ``too_long`` with its ``{n}`` characters, the ``{max}`` read and ``params`` (both
    templates marked ``N_``)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError(empty, where="text")
    if len(text) > max_chars:
        raise InputError(too_long, where="text", n=f"{len(text):,}", max=f"{max_chars:,}", **params)
    return text


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the last one an ellipsis when it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def preview(rest: str) -> str:
    """The start of what a cut left out: white space folded, at most PREVIEW_CHARS."""
    return shorten(" ".join(rest.split()), PREVIEW_CHARS)
