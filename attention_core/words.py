"""Counting words: the one place that writes '1 query' and '2 queries' (core and UI alike)."""

from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """``one`` for 1, else ``many`` (by default ``one`` + 's')."""
    return one if n == 1 else (many or one + "s")


def count(n: int, one: str, many: str | None = None) -> str:
    """'1 number', '3 numbers', '2 queries' (with ``many='queries'``)."""
    return f"{n} {plural(n, one, many)}"
