"""A language's own spacing, applied to its translations (a translator's helper, not the app).

French sets a non-breaking space before ``:``, ``;``, ``?`` and ``!`` (and the line never
breaks there: a phone's narrow column would otherwise start a line with the colon), and
inside « », also where a fragment starts with the sign. The
tables were written with plain spaces, some with non-breaking ones; ``fill_po`` applies this
to every French entry it writes, and ``python dev/i18n/typography.py`` rewrites the French
catalogue's other entries. Mathematics (``$...$``), code (``` `...` ```) and the
placeholders' insides are left as they are. tests/i18n/test_catalogues.py checks the result.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

LOCALE = Path(__file__).resolve().parents[2] / "attention_ui" / "i18n" / "locale"
NBSP = "\u00a0"
# Mathematics, code and placeholders: copied as they are.
KEEP = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|\{[^{}]*\}", re.S)
# A plain space between a word (or a closing mark) and : ; ? ! that ends a clause, or at
# the start of a fragment the code appends to a sentence (" ; chaque ligne a pour somme 1").
BEFORE = re.compile(r"(?:(?<=[^\s\u00a0\u202f])|^) ([:;?!])(?=\s|$|[*)\u00bb\"'])")
# Guillemets hold their words with a non-breaking space on the inside (« Pas à pas »).
OPEN, CLOSE = re.compile("\u00ab "), re.compile(" \u00bb")


def french(text: str) -> str:
    kept = [m.span() for m in KEEP.finditer(text)]

    def space(m: re.Match) -> str:
        inside = any(a <= m.start() < b for a, b in kept)
        return m.group() if inside else NBSP + m.group(1)

    text = BEFORE.sub(space, text)
    return CLOSE.sub(NBSP + "\u00bb", OPEN.sub("\u00ab" + NBSP, text))


RULES = {"fr": french}


def apply(code: str, value: str | tuple) -> str | tuple:
    """``value`` (a msgstr, or a plural entry's forms) with ``code``'s spacing."""
    rule = RULES.get(code)
    if rule is None:
        return value
    return tuple(rule(v) for v in value) if isinstance(value, tuple) else rule(value)


def main(code: str = "fr") -> None:
    path = LOCALE / code / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        cat = read_po(f, locale=code)
    changed = 0
    for m in cat:
        if m.id and m.string:
            new = apply(code, m.string)
            changed += new != m.string
            m.string = new
    with path.open("wb") as f:
        write_po(f, cat, width=76, omit_header=False)  # as pybabel update writes
    print(f"{code}: {changed} entries respaced")


if __name__ == "__main__":
    main(*sys.argv[1:])
