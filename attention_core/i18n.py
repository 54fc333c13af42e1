"""``N_``: marks a text of the core for the app's catalogues, without translating it.

The core stays free of the UI and of any language: its exercise statements, hints, named
slips and solutions are English strings marked with ``N_`` (``make i18n-extract`` finds
them), and the UI translates them where it shows them. Verdicts and slip ids are never
translated, so an answer is checked, and a class's tally counted, alike in every language.

A message with values (an ``InputError``) is a ``Text``: its template marked with ``N_`` (or
``Nn_`` when it counts), its values formatted here, and the UI translates it and fills them
in where it shows it (``attention_ui.i18n.said``).
"""

from __future__ import annotations

from attention_core.errors import Text, Value


def N_(message: str) -> str:  # noqa: N802 (gettext's name for the marker)
    """``message`` itself; only marks it for extraction."""
    return message


def Nn_(singular: str, plural: str, n: int, **params: Value) -> Text:  # noqa: N802
    """Mark a counted message for the catalogue (gettext's ngettext, without translating):
    ``{n}`` is filled with ``n`` unless ``params`` says otherwise."""
    return Text(singular, {"n": n, **params}, plural, n)
