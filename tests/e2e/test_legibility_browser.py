"""What a class reads (issue 42, items 1-3): the presentation slides at steps 3-5, the Softmax
page and the Decoder lab's wide Q, at a phone's 390 x 844 (with a desktop's user agent, as a
tablet, a phone asking for the desktop site or a narrow window has, and with a phone's), at a
projector's 1024 x 768 and 1280 x 720, in English and Chinese.

Measured from the charts' own SVG text boxes: no two texts of a chart (cell numbers, key and
query labels, titles) overlap, and the page itself never scrolls sideways; a grid wider than
its page scrolls sideways in a box of its own instead of squeezing (views.chart.sideways).
Before, at 390 px with a desktop agent, the slides printed their numbers over each other
(163 overlapping pairs) and read "the (1)cat sat onthe (2)mat".
"""

from __future__ import annotations

import pytest
from helpers import CHART_OVERLAPS, goto, shot
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.e2e

PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0 Mobile Safari/537.36"
)
SCREENS = {
    "narrow": {"viewport": {"width": 390, "height": 844}},  # a desktop's user agent
    "phone": {"viewport": {"width": 390, "height": 844}, "user_agent": PHONE_UA},
    "1024": {"viewport": {"width": 1024, "height": 768}},
    "projector": {"viewport": {"width": 1280, "height": 720}},
}
PAGES = ("/present?step=3", "/present?step=4", "/present?step=5", "/softmax")


@pytest.fixture(scope="module")
def screens(browser: Browser):
    made = {name: browser.new_context(**kwargs) for name, kwargs in SCREENS.items()}
    yield made
    for context in made.values():
        context.close()


def measure(page: Page, url: str) -> dict:
    goto(page, url, timeout=90_000)
    return page.evaluate(CHART_OVERLAPS)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_chart_prints_its_texts_over_each_other(
    screens, app_server: str, screen: str, lang: str
) -> None:
    page = screens[screen].new_page()
    width = SCREENS[screen]["viewport"]["width"]
    try:
        for path in PAGES:
            sep = "&" if "?" in path else "?"
            found = measure(page, f"{app_server}{path}{sep}lang={lang}")
            where = f"{path} at {screen} in {lang}"
            assert found["charts"] >= 1, where
            assert not found["found"], (where, found["found"][:10], len(found["found"]))
            assert found["pageWidth"] <= width, (where, found["pageWidth"])
        shot(page, f"legible-slide5-{screen}-{lang}", full=False)
    finally:
        page.close()
