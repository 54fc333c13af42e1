"""CSV, written one way across the project: the csv module's (RFC 4180).

A field is quoted when it holds a comma, a quote, a CR or an LF, quotes inside are doubled,
and lines end in CRLF (a line ending only in LF would leave a field holding a lone CR
unquoted, and a spreadsheet would split the row there). The stage downloads, a learner's
progress and a class's results all go through ``csv_text``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

# A spreadsheet (Excel, LibreOffice's default import) reads a CSV without a byte order mark
# in the machine's legacy code page: a nickname "小明" or "Zoë" came out as mojibake. The
# mark tells it UTF-8; the csv module and pandas read it as such ("utf-8-sig").
BOM = "\ufeff"


def csv_text(rows: Iterable[Sequence[object]], *, bom: bool = False) -> str:
    """``rows`` (the header first) as CSV text; None is an empty field. ``bom``: begin with
    the UTF-8 byte order mark, for a file a spreadsheet opens."""
    buf = io.StringIO()
    if bom:
        buf.write(BOM)
    csv.writer(buf).writerows(rows)
    return buf.getvalue()
