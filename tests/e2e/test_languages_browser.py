"""Languages in a real browser (issue 36): Chromium at desktop and phone size.

- German from the browser's own language (a context with locale de-DE, no ?lang=): the
  Start page and the Softmax page in German, the page's lang attribute "de", axe-core
  (WCAG 2.2 A/AA) with no serious or critical violation, nothing wider than the window.
- Spanish and Chinese from the link (?lang=) on a phone (390 x 844): the Scores page's title,
  its chart's title inside the chart, no sideways scroll, lang "es" and "zh-Hans".
Screenshots of each go to test-artifacts/ (lang-*.png).
"""

from __future__ import annotations

import pytest
from a11y import AXE_VERSION, audit, blocking
from helpers import MAIN, goto, shot
from playwright.sync_api import Browser, Page, expect
from test_a11y_browser import PHONE, page_overflow

from attention_core import PRESETS

CAUSAL = PRESETS["cat_mat"].build().replace(mask_kind="causal").to_url()

# Each chart's title, and how far it reaches past its chart's right edge (px; <= 0 fits).
TITLES_JS = """() => [...document.querySelectorAll('.stPlotlyChart')].map(chart => {
  const svg = chart.querySelector('svg.main-svg'), title = chart.querySelector('.gtitle');
  if (!svg || !title) return null;
  const box = title.getBoundingClientRect(), outer = svg.getBoundingClientRect();
  return [title.textContent, box.right - outer.right, box.left - outer.left];
}).filter(Boolean)"""


def lang_of(page: Page) -> str:
    return page.evaluate("() => document.documentElement.lang")


def check_fits(page: Page, name: str) -> list[list]:
    titles = page.evaluate(TITLES_JS)
    assert titles, name
    assert [t for t in titles if t[1] > 1 or t[2] < -1] == [], (name, titles)
    assert page_overflow(page) <= 1, name
    return titles


def test_german_from_the_browsers_language_at_desktop_size(
    browser: Browser, browser_context_args: dict
) -> None:
    context = browser.new_context(**browser_context_args, locale="de-DE")
    page = context.new_page()
    try:
        goto(page, "/", timeout=60_000)
        expect(page.locator(f"{MAIN} h3").first).to_have_text("Die Intuition")
        assert lang_of(page) == "de"
        assert "lang=de" in page.url
        shot(page, "lang-de-desktop-start", full=False)
        found = blocking(audit(page))
        assert not found, f"axe-core {AXE_VERSION}:\n" + "\n".join(map(str, found))
        goto(page, f"/softmax?s={CAUSAL}&lang=de", timeout=60_000)
        expect(page.locator(f"{MAIN} h1").first).to_have_text("6. Softmax")
        titles = check_fits(page, "softmax")
        assert any("Attention-Gewichte" in t[0] for t in titles), titles
        shot(page, "lang-de-desktop-softmax")
        found = blocking(audit(page))
        assert not found, f"axe-core {AXE_VERSION}:\n" + "\n".join(map(str, found))
    finally:
        context.close()


@pytest.mark.parametrize(
    ("code", "html_lang", "h1", "chart"),
    [("es", "es", "3. Puntuaciones", "Puntuaciones brutas"),
     ("zh", "zh-Hans", "3. 分数", "原始分数")],
)  # fmt: skip
def test_a_phone_in_the_links_language(
    browser: Browser, browser_context_args: dict, code: str, html_lang: str, h1: str, chart: str
) -> None:
    context = browser.new_context(**{**browser_context_args, **PHONE})
    page = context.new_page()
    try:
        goto(page, f"/scores?s={CAUSAL}&lang={code}", timeout=60_000)
        expect(page.locator(f"{MAIN} h1").first).to_have_text(h1)
        assert lang_of(page) == html_lang
        titles = check_fits(page, f"scores-{code}")
        assert any(chart in t[0] for t in titles), titles
        shot(page, f"lang-{code}-phone-scores")
    finally:
        context.close()
