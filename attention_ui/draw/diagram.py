"""The Start page's recipe diagram (assets/pipeline.svg) drawn for the page's theme (no Streamlit).

An SVG shown as an image cannot see the page's colours, so its ink is ``currentColor`` set
on its root: this fills in the theme's text colour there. The boxes are translucent tints,
readable on a white page and on a near-black one.
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

from attention_ui import i18n
from attention_ui.draw.figures import Palette
from attention_ui.i18n import N_, _

PIPELINE = Path(__file__).resolve().parents[2] / "assets" / "pipeline.svg"
_ROOT_COLOUR = re.compile(r'(<svg\b[^>]*?\scolor=")[^"]*(")')


@functools.cache
def _source() -> str:
    return PIPELINE.read_text(encoding="utf-8")


# The diagram's words (its text nodes, exactly as in the file), in the session's language;
# the mathematics in them (Q Kᵀ, × 1/√dₖ, V) stays.
WORDS = (
    N_("Scaled dot-product attention: MatMul, Scale, Mask (optional), SoftMax, MatMul"),
    N_("Scale"), N_("Mask (optional)"), N_("SoftMax (each row)"), N_("weights"), N_("output"),
)  # fmt: skip


def pipeline_svg(palette: Palette) -> str:
    """The diagram's SVG text with its ink in ``palette.ink`` and its words in this run's
    language (cached per palette and language: a fixed file)."""
    return _pipeline_svg(palette, i18n.language())


@functools.cache
def _pipeline_svg(palette: Palette, language: str) -> str:
    svg, n = _ROOT_COLOUR.subn(rf"\g<1>{palette.ink}\g<2>", _source(), count=1)
    assert n == 1, "assets/pipeline.svg: its <svg> root must set color= (the ink)"
    for word in WORDS:  # whole text nodes, or a word before the mathematics ("Scale  × ...")
        shown = html.escape(_(word), quote=False)
        svg = svg.replace(f">{word}<", f">{shown}<").replace(f">{word}  ", f">{shown}  ")
        svg = svg.replace(f">MatMul  {word} ", f">MatMul  {shown} ")
    return svg
