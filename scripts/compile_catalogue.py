"""Compile one language's catalogue (.po) into the .mo the app reads: `make i18n-compile`.

Babel's own ``pybabel compile`` checks every message that *looks* like a %-format string,
and the lessons' percentages do ("84 % of the attention" reads as ``% o``; the Spanish
"84 % de" as ``% d``): it rejects good translations. The app formats its messages with
``str.format`` only, so this checks what matters to it instead: every ``{placeholder}`` of a
translation exists in its msgid (an unknown one would raise KeyError on the page), and a
translation of a plural entry has the language's number of forms. Fuzzy entries are left
out, as pybabel does: a guess never reaches a learner.

    python scripts/compile_catalogue.py es    (attention_ui/i18n/locale/es/LC_MESSAGES/...)
    python scripts/compile_catalogue.py       (every language that has a .po: the Dockerfile)
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[1] / "attention_ui" / "i18n" / "locale"


def fields(text: str) -> set[str]:
    """The names of the ``{placeholders}`` in ``text`` (``{{`` is a literal brace)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(code: str) -> list[str]:
    """What is wrong with the catalogue of ``code`` (empty: it may be compiled)."""
    with (LOCALE / code / "LC_MESSAGES" / "messages.po").open("rb") as f:
        cat = read_po(f, locale=code)
    found = []
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if isinstance(m.id, tuple) and any(strings) and len(strings) != cat.num_plurals:
            found.append(f"{ids[0]!r}: {len(strings)} forms, {code} has {cat.num_plurals}")
        allowed = set().union(*(fields(i) for i in ids))
        for s in strings:
            extra = fields(s) - allowed if s else set()
            if extra:
                found.append(f"{ids[0][:60]!r}: unknown placeholder(s) {sorted(extra)}")
    return found


def compile_catalogue(code: str) -> None:
    po = LOCALE / code / "LC_MESSAGES" / "messages.po"
    if found := problems(code):
        sys.exit(f"{po}:\n  " + "\n  ".join(found))
    with po.open("rb") as f:
        cat = read_po(f, locale=code)
    with po.with_suffix(".mo").open("wb") as f:
        write_mo(f, cat)


if __name__ == "__main__":
    codes = sys.argv[1:] or sorted(p.parents[1].name for p in LOCALE.glob("*/LC_MESSAGES/*.po"))
    for code in codes:
        compile_catalogue(code)
