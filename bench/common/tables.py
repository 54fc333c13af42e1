"""The tables the benches print: Markdown, one row per interaction, samples as ratios."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence


def markdown(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown table: the header, its rule and the rows."""
    lines = [_row(header), "|" + "---|" * len(header), *(_row(r) for r in rows)]
    return "\n".join(lines)


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def median_min(samples: Sequence[float]) -> str:
    """'median (min)' in whole milliseconds."""
    return f"{statistics.median(samples):.0f} ({min(samples):.0f})"


def versus(samples: Sequence[float], ref: float) -> str:
    """'median (min), **ratio x**' against a floor's median ``ref``."""
    return f"{median_min(samples)}, **{statistics.median(samples) / ref:.2f}x**"
