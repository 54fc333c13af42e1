"""Turn what people type into tokens and matrices. Never evaluates the text."""

from __future__ import annotations

import re

import numpy as np

from attention_core.errors import InputError
from attention_core.i18n import N_, Plural, Text
from attention_core.types import FloatArray

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
        raise InputError(N_("type at least one token (words separated by spaces)"), "tokens")
    if len(tokens) > MAX_TOKENS:
        raise InputError(
            N_("{n} tokens is more than the {most} this app can show; use a shorter sentence"),
            where="tokens", n=len(tokens), most=MAX_TOKENS,
        )  # fmt: skip
    long = next((t for t in tokens if len(t) > MAX_TOKEN_CHARS), None)
    if long is not None:
        raise InputError(
            N_("the token '{token}...' is longer than {most} characters"),
            where="tokens", token=long[:20], most=MAX_TOKEN_CHARS,
        )  # fmt: skip
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
    what: str | Text = name or Text(N_("the matrix"))
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(N_("{name} is too long: at most {most} characters are allowed"),
                         where=name, name=what, most=f"{MAX_TEXT_CHARS:,}")  # fmt: skip
    rows = _split_rows(text, name)
    if not rows:
        raise InputError(N_("{name} is empty: type at least one row of numbers"), where=name,
                         name=what)  # fmt: skip
    if len(rows) > MAX_DIM:
        raise InputError(N_("{name} has {n} rows; at most {most} are allowed"), where=name,
                         name=what, n=len(rows), most=MAX_DIM)  # fmt: skip
    values = [_parse_row(row, r, name) for r, row in enumerate(rows, start=1)]
    width = len(values[0])
    for r, row_values in enumerate(values, start=1):
        if len(row_values) != width:
            problem = Text(
                N_("row {row} has {numbers} but row 1 has {first}: every row needs the same "
                   "number of columns"),
                row=r, numbers=_numbers(len(row_values)), first=_numbers(width),
            )  # fmt: skip
            raise InputError(_named(name, problem), where=name)
    if width > MAX_DIM:
        raise InputError(N_("{name} has {n} columns; at most {most} are allowed"), where=name,
                         name=what, n=width, most=MAX_DIM)  # fmt: skip
    return np.array(values, dtype=np.float64)


def _numbers(n: int) -> Plural:
    return Plural("{n} number", "{n} numbers", n)


def _split_rows(text: str, name: str) -> list[str]:
    """Row texts, brackets removed. Blank rows (a trailing newline) are skipped."""
    if "[" in text or "]" in text:
        return _bracket_rows(text, name)
    return [row for row in re.split(r"[\n;]", text) if row.strip()]


def _bracket_rows(text: str, name: str) -> list[str]:
    inner = re.findall(r"\[([^\[\]]*)\]", text)
    rest = re.sub(r"\[[^\[\]]*\]", "", text)
    if not _balanced(text) or re.search(r"[^\s\[\],;]", rest):
        problem = Text(N_("the brackets do not match up; write rows like {one} or {two}"),
                       one="[1, 2]", two="[[1, 2], [3, 4]]")  # fmt: skip
        raise InputError(_named(name, problem), where=name)
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
            if exc.message == EMPTY:
                where = Text(N_("row {row}, column {col} is empty"), row=r, col=c)
            else:
                where = Text(N_("row {row}, column {col}: {problem}"),
                             row=r, col=c, problem=exc.text)  # fmt: skip
            raise InputError(_named(name, where), where=name) from None
    return numbers


EMPTY = N_("is empty")


def parse_number(text: object) -> float:
    """One number as a learner types it: '1e-3', '−2' (unicode minus), '+.5'. Never eval.

    Raises InputError whose message says what is wrong with the text, without a location
    ("'x1' is not a number"); callers add the row and column.
    """
    cell = str(text).translate(_MINUS).strip()
    if cell == "":
        raise InputError(EMPTY)
    if _DECIMAL_COMMA.fullmatch(cell):  # "1,5": a decimal comma, as much of Europe writes
        raise InputError(N_("'{text}' is not a number: write the decimal with a point, {fixed}"),
                         text=cell[:20], fixed=cell.replace(",", "."))  # fmt: skip
    if not _NUMBER.fullmatch(cell):
        raise InputError(N_("'{text}' is not a number"), text=cell[:20])
    value = float(cell)
    if not np.isfinite(value):
        raise InputError(N_("'{text}' is too large"), text=cell[:20])
    return value


def _named(name: str, problem: Text) -> Text:
    """``problem`` said of matrix ``name`` ("K: row 2, ..."), or as it is without a name."""
    return Text(N_("{name}: {problem}"), name=name, problem=problem) if name else problem


def format_matrix(M: FloatArray, digits: int = 6) -> str:
    """The text form parse_matrix reads back: one row a line, numbers by ', '."""
    return "\n".join(", ".join(f"{x:.{digits}g}" for x in row) for row in np.atleast_2d(M))
