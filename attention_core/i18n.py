"""Texts of the core, marked for the app's catalogues and never translated here.

The core stays free of the UI and of any language. Its words are English, marked so that
``make i18n-extract`` finds them, and the UI translates them where it shows them:

- ``N_("...")``: a fixed text (a slip's short name, a table of titles), returned as is.
- ``Text("... {name} ...", name=...)``: a text to translate, with named parameters. A
  parameter is a ``str`` shown as is (a number the core formatted, so every language shows
  the same digits; a token the learner typed; a LaTeX matrix) or itself a ``Text`` or
  ``Plural`` to translate. A template with parameters is a ``str.format`` template (a
  literal brace is doubled); one without is shown as written, LaTeX braces and all.
- ``Plural("{n} decimal", "{n} decimals", n, ...)``: a text whose form follows a count, by
  each language's own rule (``{n}`` is the count).
- ``Message``: a few such pieces, sentences said one after another (the checker's feedback).

``english()`` renders any of them in English without a catalogue (logs, CSV files, tests).
Verdicts and slip ids are never texts: an answer is checked, and a class's tally counted,
alike in every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Union

Param = Union[str, "Text", "Plural"]


def N_(message: str) -> str:  # noqa: N802 (gettext's name for the marker)
    """``message`` itself; only marks it for extraction."""
    return message


def _freeze(params: dict[str, Param | int]) -> tuple[tuple[str, Param], ...]:
    """The parameters in a fixed order; a whole number (a row, a count) as its digits, the
    same in every language. Anything else must come formatted (a float's digits are the
    core's choice, never the language's)."""
    frozen: dict[str, Param] = {}
    for name, value in params.items():
        if isinstance(value, Integral) and not isinstance(value, bool):  # NumPy's too
            value = str(int(value))
        if not isinstance(value, str | Text | Plural):
            raise TypeError(f"parameter {name!r} must be formatted by the core: {value!r}")
        frozen[name] = value
    return tuple(sorted(frozen.items()))


@dataclass(frozen=True, init=False)
class Text:
    """An English template to translate and its named parameters (see the module)."""

    template: str
    params: tuple[tuple[str, Param], ...]

    def __init__(self, template: str, /, **params: Param | int) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "params", _freeze(params))

    def with_params(self, **params: Param | int) -> Text:
        """The same template with more (or other) parameters."""
        return Text(self.template, **{**dict(self.params), **params})

    def english(self) -> str:
        if not self.params:
            return self.template
        return self.template.format(**{k: english(v) for k, v in self.params})

    def __str__(self) -> str:
        return self.english()


@dataclass(frozen=True, init=False)
class Plural:
    """A text in a singular and a plural form; ``{n}`` in either is the count ``n``."""

    singular: str
    plural: str
    n: int
    params: tuple[tuple[str, Param], ...]

    def __init__(self, singular: str, plural: str, n: int, /, **params: Param | int) -> None:
        object.__setattr__(self, "singular", singular)
        object.__setattr__(self, "plural", plural)
        object.__setattr__(self, "n", int(n))
        object.__setattr__(self, "params", _freeze(params))

    def fields(self) -> dict[str, Param]:
        """The parameters, with ``n`` the count as digits."""
        return {"n": str(self.n), **dict(self.params)}

    def english(self) -> str:
        form = self.singular if self.n == 1 else self.plural
        return form.format(**{k: english(v) for k, v in self.fields().items()})

    def __str__(self) -> str:
        return self.english()


Piece = Text | Plural
Message = tuple[Piece, ...]  # sentences said one after another


def english(said: str | Piece | Sequence[Piece] | None) -> str:
    """``said`` in English: a piece's template filled in, a message's pieces joined by a
    space; a plain string is already final (a number, or text a learner typed)."""
    if said is None:
        return ""
    if isinstance(said, str):
        return said
    if isinstance(said, Text | Plural):
        return said.english()
    return " ".join(english(piece) for piece in said)


def pieces(said: str | Piece | Sequence[Piece] | None) -> list[Piece]:
    """Every piece in ``said``, its parameters' pieces included (what a catalogue must
    hold for ``said`` to be shown in a language)."""
    if said is None or isinstance(said, str):
        return []
    if isinstance(said, Text | Plural):
        return [said, *(p for _, v in said.params for p in pieces(v))]
    return [p for piece in said for p in pieces(piece)]
