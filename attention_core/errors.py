"""The one exception type the core raises for bad input."""

from __future__ import annotations


class InputError(ValueError):
    """Input a learner can fix: the message says what is wrong, in plain words.

    ``where`` names the input that caused it (``"K"``, ``"tokens"``, ``"mask"``...),
    so the app can show the message next to that input.
    """

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where
