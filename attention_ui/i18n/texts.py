"""The core's texts in the learner's language: the one place that translates them.

The core (``attention_core.i18n``) says what to tell a learner as ``Text`` and ``Plural``
pieces, English templates with named parameters whose numbers it formatted itself; a
``Message`` is a few such pieces, said one after another. ``tr`` looks each template up with
``_``/``ngettext`` in this run's language, fills in the parameters (translating those that
are texts too) and joins a message's sentences as the language does (no space in Chinese).
A plain string is final: a number, a matrix, a token the learner typed. The core's input
errors (``InputError``) carry a ``Text`` too, shown the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from attention_core.errors import InputError
from attention_core.i18n import Param, Piece, Plural, Text
from attention_ui.i18n import _, ngettext


def tr(said: Param | Sequence[Piece] | InputError | None) -> str:
    """``said`` in this run's language (English where the catalogue has no entry); an
    ``InputError`` says its ``text``."""
    if said is None:
        return ""
    if isinstance(said, InputError):
        said = said.text
    if isinstance(said, str):
        return said
    if isinstance(said, Text):
        template = _(said.template)
        return template.format(**_filled(said.params)) if said.params else template
    if isinstance(said, Plural):
        form = ngettext(said.singular, said.plural, said.n)
        return form.format(**_filled(tuple(said.fields().items())))
    out = ""
    for piece in said:
        # Translators: two sentences of the checker's feedback, one after the other.
        out = tr(piece) if not out else _("{sentence} {next}").format(sentence=out, next=tr(piece))
    return out


def _filled(params: tuple[tuple[str, Param], ...]) -> dict[str, str]:
    return {name: tr(value) for name, value in params}
