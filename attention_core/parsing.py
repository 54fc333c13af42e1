"""Turn what people type into tokens and matrices. Never evaluates the text."""

from __future__ import annotations

import re

import numpy as np

from attention_core.errors import InputError
from attention_core.types import FloatArray
from attention_core.words import count

MAX_TOKENS = 64
MAX_DIM = 512
MAX_TOKEN_CHARS = 40
MAX_TEXT_CHARS = 2_000_000

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+")
_CELL_SPLIT = re.compile(r"\s*,\s*|\s+")
# Minus-like characters people paste from papers, slides and word processors.
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\ufe63": "-", "\uff0d": "-"})


def parse_tokens(text: str) -> list[str]:
    """Split on whitespace and commas; keep duplicates and order.

    >>> parse_tokens("The animal,  was hungry")
    ['The', 'animal', 'was', 'hungry']
    """
    tokens = [t for t in re.split(r"[\s,]+", text or "") if t]
    if not tokens:
        raise InputError("type at least one token (words separated by spaces)", where="tokens")
    if len(tokens) > MAX_TOKENS:
        raise InputError(
            f"{len(tokens)} tokens is more than the {MAX_TOKENS} this app can show; "
            "use a shorter sentence",
            where="tokens",
        )
    long = next((t for t in tokens if len(t) > MAX_TOKEN_CHARS), None)
    if long is not None:
        raise InputError(
            f"the token '{long[:20]}...' is longer than {MAX_TOKEN_CHARS} characters",
            where="tokens",
        )
    return tokens


def label_tokens(tokens: list[str] | tuple[str, ...]) -> list[str]:
    """Labels that tell repeated tokens apart.

    ['the', 'cat', 'the'] -> ['the (1)', 'cat', 'the (2)']. Charts merge equal
    category labels, so every label must be unique.
    """
    counts: dict[str, int] = {}
    for t in tokens:
        counts[t] = counts.get(t, 0) + 1
    seen: dict[str, int] = {}
    labels = []
    for t in tokens:
        if counts[t] == 1:
            labels.append(t)
            continue
        seen[t] = seen.get(t, 0) + 1
        labels.append(f"{t} ({seen[t]})")
    return _dedupe(labels)


def _dedupe(labels: list[str]) -> list[str]:
    """Break the rare clash left over, e.g. tokens 'a (1)' and a repeated 'a'."""
    out: list[str] = []
    for label in labels:
        candidate = label
        while candidate in out:
            candidate += "'"
        out.append(candidate)
    return out


def parse_matrix(text: str, name: str = "") -> FloatArray:
    """Parse a typed or pasted matrix into a (rows, cols) float64 array.

    Rows: newlines or ';' (or inner brackets, as in ``[[1, 2], [3, 4]]``).
    Numbers: commas or spaces; scientific notation and unicode minus accepted.
    """
    text = (text or "").translate(_MINUS)
    what = name or "the matrix"
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(
            f"{what} is too long: at most {MAX_TEXT_CHARS:,} characters are allowed", where=name
        )
    rows = _split_rows(text, name)
    if not rows:
        raise InputError(f"{what} is empty: type at least one row of numbers", where=name)
    if len(rows) > MAX_DIM:
        raise InputError(f"{what} has {len(rows)} rows; at most {MAX_DIM} are allowed", where=name)
    values = [_parse_row(row, r, name) for r, row in enumerate(rows, start=1)]
    width = len(values[0])
    for r, row_values in enumerate(values, start=1):
        if len(row_values) != width:
            raise InputError(
                f"{_prefix(name)}row {r} has {count(len(row_values), 'number')} but row 1 "
                f"has {count(width, 'number')}: every row needs the same number of columns",
                where=name,
            )
    if width > MAX_DIM:
        raise InputError(f"{what} has {width} columns; at most {MAX_DIM} are allowed", where=name)
    return np.array(values, dtype=np.float64)


def _split_rows(text: str, name: str) -> list[str]:
    """Row texts, brackets removed. Blank rows (a trailing newline) are skipped."""
    if "[" in text or "]" in text:
        return _bracket_rows(text, name)
    return [row for row in re.split(r"[\n;]", text) if row.strip()]


def _bracket_rows(text: str, name: str) -> list[str]:
    inner = re.findall(r"\[([^\[\]]*)\]", text)
    rest = re.sub(r"\[[^\[\]]*\]", "", text)
    if not _balanced(text) or re.search(r"[^\s\[\],;]", rest):
        raise InputError(
            f"{_prefix(name)}the brackets do not match up; "
            "write rows like [1, 2] or [[1, 2], [3, 4]]",
            where=name,
        )
    return [row for group in inner for row in group.split(";") if row.strip()]


def _balanced(text: str) -> bool:
    """Every ']' closes an earlier '[' and every '[' is closed (so '][1, 2][' is not)."""
    depth = 0
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _parse_row(row: str, r: int, name: str) -> list[float]:
    cells = _CELL_SPLIT.split(row.strip().strip(",").strip())  # '1, 2 ,' and ', 1' are fine
    numbers = []
    for c, cell in enumerate(cells, start=1):
        try:
            numbers.append(parse_number(cell))
        except InputError as exc:
            sep = " " if exc.message == EMPTY else ": "
            message = f"{_prefix(name)}row {r}, column {c}{sep}{exc.message}"
            raise InputError(message, where=name) from None
    return numbers


EMPTY = "is empty"


def parse_number(text: object) -> float:
    """One number as a learner types it: '1e-3', '−2' (unicode minus), '+.5'. Never eval.

    Raises InputError whose message says what is wrong with the text, without a location
    ("'x1' is not a number"); callers add the row and column.
    """
    cell = str(text).translate(_MINUS).strip()
    if cell == "":
        raise InputError(EMPTY)
    if _DECIMAL_COMMA.fullmatch(cell):  # "1,5": a decimal comma, as much of Europe writes
        raise InputError(f"'{cell[:20]}' is not a number: write the decimal with a point, "
                         f"{cell.replace(',', '.')}")  # fmt: skip
    if not _NUMBER.fullmatch(cell):
        raise InputError(f"'{cell[:20]}' is not a number")
    value = float(cell)
    if not np.isfinite(value):
        raise InputError(f"'{cell[:20]}' is too large")
    return value


def _prefix(name: str) -> str:
    return f"{name}: " if name else ""


def format_matrix(M: FloatArray, digits: int = 6) -> str:
    """The text form parse_matrix reads back: one row a line, numbers by ', '."""
    return "\n".join(", ".join(f"{x:.{digits}g}" for x in row) for row in np.atleast_2d(M))
