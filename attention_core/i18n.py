"""``N_``: marks a text of the core for the app's catalogues, without translating it.

The core stays free of the UI and of any language: its exercise statements, hints, named
slips and solutions are English strings marked with ``N_`` (``make i18n-extract`` finds
them), and the UI translates them where it shows them. Verdicts and slip ids are never
translated, so an answer is checked, and a class's tally counted, alike in every language.
"""


def N_(message: str) -> str:  # noqa: N802 (gettext's name for the marker)
    """``message`` itself; only marks it for extraction."""
    return message
