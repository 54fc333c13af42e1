"""The one exception type the core raises for bad input, and the message it carries.

The core has no language: the message is a ``Text`` (or a ``Plural`` when it counts), an
English template marked for the catalogue with its values already formatted (numbers,
positions, names), which the UI translates and fills in where it shows it
(``attention_ui.i18n.texts.tr``). ``InputError.message`` is the English (logs, tests).
"""

from __future__ import annotations

from attention_core.i18n import Param, Plural, Text, english


class InputError(ValueError):
    """Input a learner can fix: the message says what is wrong, in plain words.

    ``message``: an ``N_``-marked English template with ``params`` for its fields, or a
    ``Text``/``Plural`` made already; ``text`` keeps it for the UI to translate, and
    ``message`` is its English. ``where`` names the input that caused it (``"K"``,
    ``"tokens"``, ``"mask"``...), so the app can show the message next to that input.
    """

    def __init__(
        self, message: str | Text | Plural, where: str = "", **params: Param | int
    ) -> None:
        if isinstance(message, str):
            message = Text(message, **params)
        elif params:
            if not isinstance(message, Text):
                raise TypeError("a Plural carries its own parameters")
            message = message.with_params(**params)
        self.text: Text | Plural = message
        self.message = english(message)
        super().__init__(self.message)
        self.where = where
