"""Fill a language's .po from a table of translations (a translator's helper, not the app).

    python dev/i18n/fill_po.py es my_tables/es_frame.py my_tables/es_walkthrough.py

Each table is a Python file defining ``T = {msgid: msgstr}`` (a plural entry: its singular
msgid, and a tuple of the language's forms). Entries the table lacks stay untranslated; an
entry the template no longer has is reported, not written. The .po stays the source of truth
(``make i18n-update`` merges it with the code's msgids); this only writes msgstr fields.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import catalogue_flags  # scripts/: make i18n-update runs it too
from typography import apply  # beside this script

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "attention_ui" / "i18n" / "locale"


def main(code: str, *tables: str) -> None:
    path = LOCALE / code / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        cat = read_po(f, locale=code)
    T: dict = {}
    for table in tables:
        T.update(runpy.run_path(table)["T"])
    known = set()
    for m in cat:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        known.add(key)
        if key in T:
            value = T[key]
            if isinstance(m.id, tuple):
                value = value if isinstance(value, tuple) else (value,)
                m.string = apply(code, tuple(value))
            else:
                m.string = apply(code, value)
            m.flags.discard("fuzzy")
    for key in set(T) - known:
        print(f"not in the template: {key[:70]!r}", file=sys.stderr)
    with path.open("wb") as f:
        write_po(f, cat, width=76, omit_header=False)  # as pybabel update writes
    catalogue_flags.fix(path)  # Babel's python-format flags, as make i18n-update leaves them
    entries = [m for m in cat if m.id]
    done = sum(1 for m in entries if all(m.string if isinstance(m.string, tuple) else (m.string,)))
    print(f"{code}: {done} of {len(entries)} entries translated")


if __name__ == "__main__":
    main(sys.argv[1], *sys.argv[2:])
