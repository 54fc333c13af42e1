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


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """``rows`` (the header first) as CSV text; None is an empty field."""
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    return buf.getvalue()
