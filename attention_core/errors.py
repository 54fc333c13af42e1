"""The one exception type the core raises for bad input."""

from __future__ import annotations


class InputError(ValueError):
    """Input a learner can fix: the message says what is wrong, in plain words.

    ``where`` names the input that caused it (``"K"``, ``"tokens"``, ``"mask"``...),
    so the app can show the message next to that input.

    The core has no language: a message is an English ``template`` (marked with ``N_`` for
    the catalogues) and its named ``params``, each already a string (a number formatted by
    the core, a token the learner typed); ``message`` is the template filled in, in English.
    The app shows it in the learner's language (``_(template).format(**params)``).
    """

    def __init__(self, message: str, where: str = "", **params: str) -> None:
        self.template = message
        self.params = params
        self.message = message.format(**params) if params else message
        super().__init__(self.message)
        self.where = where
