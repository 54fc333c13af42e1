"""The Start page's recipe diagram (assets/pipeline.svg) drawn for the page's theme (no Streamlit).

An SVG shown as an image cannot see the page's colours, so its ink is ``currentColor`` set
on its root: this fills in the theme's text colour there. The boxes are translucent tints,
readable on a white page and on a near-black one.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from attention_ui.draw.figures import Palette

PIPELINE = Path(__file__).resolve().parents[2] / "assets" / "pipeline.svg"
_ROOT_COLOUR = re.compile(r'(<svg\b[^>]*?\scolor=")[^"]*(")')


@functools.cache
def _source() -> str:
    return PIPELINE.read_text(encoding="utf-8")


@functools.cache
def pipeline_svg(palette: Palette) -> str:
    """The diagram's SVG text with its ink in ``palette.ink`` (cached: a fixed file)."""
    svg, n = _ROOT_COLOUR.subn(rf"\g<1>{palette.ink}\g<2>", _source(), count=1)
    assert n == 1, "assets/pipeline.svg: its <svg> root must set color= (the ink)"
    return svg
