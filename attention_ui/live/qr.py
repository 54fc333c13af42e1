"""The join address as a QR code: SVG from segno (pure Python), sized for a lecture hall."""

from __future__ import annotations

import html

import segno

# A QR code scans from about ten times its width away: 420 px on a projector's 1080 lines
# fills roughly a fifth of a 3 m screen, about 0.6 m wide: readable from the back rows.
SIZE_PX = 420


def qr_img(text: str, alt: str) -> str:
    """An <img> of ``text`` as a QR code (SVG data URL, medium error correction).

    An image, not inline SVG: st.html keeps <img> with a data: URL and its ``alt`` text.
    """
    code = segno.make(text, error="m", micro=False)
    modules = code.symbol_size(scale=1, border=4)[0]
    scale = max(4, SIZE_PX // modules)
    url = code.svg_data_uri(scale=scale, border=4, dark="#000000", light="#FFFFFF")
    size = modules * scale
    return (
        f'<img class="al-qr" src="{url}" width="{size}" height="{size}" '
        f'alt="{html.escape(alt, quote=True)}">'
    )
