"""How wide text is drawn, estimated without a browser: a figure's margins and a title's
lines are sized from it (no Streamlit, no Plotly)."""

from __future__ import annotations

import html
import re
import unicodedata

CHAR = 0.62  # an average sans-serif character's width, in ems


def text_px(text: str, font: float) -> float:
    """The px ``text`` (Plotly text: an entity is one character) takes in ``font`` px type:
    a digit 0.56 em, a point or comma 0.28 em, any other character CHAR. Numbers need the
    digits' own width: at CHAR a phone's 6-column grid would hide "−0.91", which fits."""
    widths = {**dict.fromkeys("0123456789", 0.56), ".": 0.28, ",": 0.28}
    return font * sum(widths.get(c, 1.0 if _wide(c) else CHAR) for c in html.unescape(text))


def _wide(c: str) -> bool:
    """A character a whole em wide: Chinese, Japanese, full-width punctuation."""
    return unicodedata.east_asian_width(c) in ("W", "F")


def wrap_title(text: str, px: float, font: float) -> tuple[str, int]:
    """``text`` in lines (Plotly's ``<br>``) of at most ``px`` in ``font`` px type, and how
    many lines: a translated title can be longer than the English one its chart was sized
    for (German) and must not be cut at the chart's edge. Lines break at spaces, and between
    any two wide characters (Chinese has no spaces); a single word wider than ``px`` keeps
    its line."""
    if "<br>" in text or text_px(text, font) <= px:
        return text, text.count("<br>") + 1
    pieces = re.findall(r"[^\s]+\s*", text)
    pieces = [q for p in pieces for q in (list(p) if any(map(_wide, p)) else [p])]
    lines, line = [], ""
    for piece in pieces:
        if line and text_px((line + piece).rstrip(), font) > px:
            lines.append(line.rstrip())
            line = ""
        line += piece
    lines.append(line.rstrip())
    return "<br>".join(lines), len(lines)
