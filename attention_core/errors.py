"""The one exception type the core raises for bad input, and the message it carries.

The core has no language: a message is a ``Text``, an English template marked for the
catalogue (``i18n.N_``, or ``i18n.Nn_`` for a count) with its values already formatted (numbers,
positions, names), which the UI translates and fills in where it shows it
(``attention_ui.i18n.said``). ``InputError.message`` is the English rendering (logs, tests).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Union

# (template, plural template or None, n) -> the template to fill, in some language
Lookup = Callable[[str, str | None, int], str]
Value = Union[str, int, "Text"]  # a value to fill in: formatted text, a count, or a Text


def english(template: str, plural: str | None, n: int) -> str:
    """The English template itself: the plural one for any count but 1."""
    return template if plural is None or n == 1 else plural


@dataclass(frozen=True)
class Text:
    """A message for a person: ``template`` (English, with ``{name}`` fields) and the values
    of its fields; a ``plural`` template too when it counts ``n`` things. A value may be a
    Text itself (a cell's own message inside "row 2, column 3: ..."), rendered alike."""

    template: str
    params: Mapping[str, Value] = field(default_factory=dict)
    plural: str | None = None
    n: int = 0

    def render(self, lookup: Lookup = english) -> str:
        """The message with its values, its templates looked up by ``lookup`` (English by
        default; the UI passes its catalogue's)."""
        values = {k: v.render(lookup) if isinstance(v, Text) else v for k, v in self.params.items()}
        template = lookup(self.template, self.plural, self.n)
        return template.format(**values) if values else template  # no fields: text as it is

    def with_params(self, **params: Value) -> Text:
        return Text(self.template, {**self.params, **params}, self.plural, self.n)

    def __str__(self) -> str:
        return self.render()


class InputError(ValueError):
    """Input a learner can fix: the message says what is wrong, in plain words.

    ``message``: an ``N_``-marked English template (or a ``Text``), its fields filled from
    ``params``; ``text`` keeps both for the UI to translate, ``message`` is the English.
    ``where`` names the input that caused it (``"K"``, ``"tokens"``, ``"mask"``...),
    so the app can show the message next to that input.
    """

    def __init__(self, message: str | Text, where: str = "", **params: Value) -> None:
        text = message if isinstance(message, Text) else Text(message)
        self.text = text.with_params(**params) if params else text
        self.message = self.text.render()
        super().__init__(self.message)
        self.where = where

    @property
    def template(self) -> str:
        return self.text.template

    @property
    def params(self) -> Mapping[str, Value]:
        return self.text.params
