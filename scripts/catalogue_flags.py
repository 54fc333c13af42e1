"""Mark the catalogues' entries as what they are: str.format texts, never %-format ones.

    python scripts/catalogue_flags.py attention_ui/i18n/locale/messages.pot [more .po ...]

Babel flags every msgid holding a "%" as ``python-format`` ("84 % of the attention", "a %
sign"), and ``msgfmt -c`` then checks "% o" and "% d" in the translations as conversions
and rejects every catalogue. The app formats with ``str.format`` only (README,
"Languages"), so such an entry is ``no-python-format``; ``python-brace-format`` stays, and
msgfmt checks the {placeholders} with it. Run by ``make i18n-extract``, ``make
i18n-update`` and ``dev/i18n/fill_po.py``, after Babel has written the file.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_FLAGS = re.compile(r"^#,(.*)$", re.MULTILINE)


def _unflag(match: re.Match[str]) -> str:
    flags = [f.strip() for f in match.group(1).split(",")]
    if "python-format" not in flags:
        return match.group(0)
    flags = [f for f in flags if f != "python-format"]
    if "no-python-format" not in flags:
        flags.append("no-python-format")
    return "#, " + ", ".join(flags)


def fix(path: Path) -> int:
    """Rewrite one catalogue; the number of entries changed."""
    text = path.read_text(encoding="utf-8")
    fixed = _FLAGS.sub(_unflag, text)
    changed = sum(1 for a, b in zip(text.splitlines(), fixed.splitlines(), strict=True) if a != b)
    if fixed != text:
        path.write_text(fixed, encoding="utf-8")
    return changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        fix(Path(name))
