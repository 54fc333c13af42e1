"""Text the app writes: escaping learner text, shapes, counts and numbers (no Streamlit).

One home for each: every page, view and figure formats through these.
"""

from __future__ import annotations

import re

import numpy as np

from attention_core import Scenario
from attention_core.words import count  # noqa: F401  # the UI counts with the core's words
from attention_ui.i18n import _

# ':' too: Streamlit turns :smile: and :material/icon: into emoji and icons.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")
# Bare URLs, www. names and e-mail addresses become links even when escaped; an invisible
# word joiner inside '://', before an '@' between words and after 'www' stops that.
_AUTOLINK = re.compile(r"(?i)(?<=[a-z0-9])(?=://)|(?<=\w)(?=@\w)|(?<=\bwww)(?=\.)")


def md_escape(text: str) -> str:
    """User text made inert for st.markdown: no formatting, links, HTML or LaTeX."""
    text = _AUTOLINK.sub("\u2060", text)
    return _MD_SPECIAL.sub(r"\\\1", text)


def sentence(text: str) -> str:
    """``text`` closing a sentence: a full stop, unless it ends with . ? or ! already (a
    title such as "... or hunt?" was followed by "?. Undo")."""
    return text if text.rstrip().endswith((".", "?", "!")) else f"{text}."


def titled(title: str, rest: str) -> str:
    """``title: rest``, or ``title rest`` when the title ends with its own . ? or ! ("Why
    not remove the scaling?: What goes wrong?" doubled its punctuation). The colon is the
    language's own (French puts a non-breaking space before it, Chinese a full-width one):
    a translatable pattern, like the question mark a French title brings with its space."""
    if title.rstrip().endswith((".", "?", "!", "？", "！", "。")):
        return _("{title} {text}").format(title=title, text=rest)
    return _("{title}: {text}").format(title=title, text=rest)


def shape(M: np.ndarray) -> str:
    """'6 × 3' for a (6, 3) array."""
    return " × ".join(str(s) for s in np.shape(M))


def minus(text: str) -> str:
    """A typographic minus sign (−) for a hyphen-minus, as the rest of the app prints."""
    return text.replace("-", "−")


def num(x: float, digits: int = 3) -> str:
    """A short number for prose and formulas: ``digits`` significant digits, −∞ for masked."""
    if not np.isfinite(x):
        return "−∞" if x < 0 else ("∞" if x > 0 else "nan")
    return minus(f"{x:.{digits}g}") if abs(x) < 1e4 else minus(f"{x:.3e}")


BIG = 1e6  # from here on, a number's digits are written as a power of ten


def fixed(x: float, decimals: int = 4) -> str:
    """``x`` with ``decimals`` decimals, or as 1.3700e+30 from ``BIG`` on: the one way a cell
    writes a number. Fixed decimals of 1.37e30 are 36 characters, which a table's cell cut
    to ".37e+30"-like tails; ∞ and −∞ as the app writes them."""
    if not np.isfinite(x):
        return "−∞" if x < 0 else ("∞" if x > 0 else "nan")
    return minus(f"{x:.{decimals}e}" if abs(x) >= BIG else f"{x:.{decimals}f}")


def vec(v: np.ndarray, decimals: int = 4) -> str:
    """'[0.1000, −2.0000]': a vector for a table cell."""
    return "[" + ", ".join(fixed(x, decimals) for x in v) + "]"


def vector_columns(n: int, prefix: str = "d") -> list[str]:
    """Column labels d1..dn (1-based, as a learner counts)."""
    return [f"{prefix}{m + 1}" for m in range(n)]


# ---- a scenario's name ---------------------------------------------------------------------
EDITED = " (edited)"
NAME_CHARS = 60  # a scenario's name, cut to fit the sidebar


def edited_name(draft: Scenario, previous: Scenario | None) -> str:
    """The name of an edited scenario: its tokens once they change (a share link must not
    promise "the cat sat on the mat" for other words), else the old name marked edited."""
    if previous is not None and (draft.tokens, draft.queries) != (
        previous.tokens,
        previous.queries,
    ):
        words = " ".join(draft.tokens if draft.query_tokens is None else draft.queries)
        return words if len(words) <= NAME_CHARS else words[: NAME_CHARS - 1] + "…"
    if draft.name and not draft.name.endswith(EDITED):
        return draft.name + EDITED
    return draft.name
