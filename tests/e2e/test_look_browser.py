"""Light and dark themes, a projector and a phone in a real browser, with screenshots.

Screenshots land in test-artifacts/ (look-<theme>-<page>.png, phone-<page>.png,
projector-<step>.png). Small local locators only.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from helpers import EXCEPTION, MAIN, PLOTLY, REPO_ROOT, SIDEBAR, goto, shot, wait_idle
from playwright.sync_api import Browser, BrowserContext, Page

from attention_core import PRESETS
from attention_ui.draw import figures as fig
from attention_ui.frame.guard import NOTICE
from attention_ui.frame.pages import ALL_PAGES, BY_KEY

CAUSAL = PRESETS["cat_mat"].build().replace(mask_kind="causal").to_url()
PHONE = {"width": 390, "height": 844}
NAV = ".st-key-nav a"  # the app's menu (attention_ui.frame.menu)
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Mobile Safari/537.36"
)


def rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def title_fill(page: Page) -> str:
    """The colour Plotly drew the first chart's title in."""
    return page.locator(f"{PLOTLY} .gtitle").first.evaluate("e => getComputedStyle(e).fill")


def app_background(page: Page) -> str:
    return page.locator("[data-testid='stApp']").evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_app_and_its_figures_follow_the_system_theme(
    browser: Browser, browser_context_args: dict, scheme: str
) -> None:
    context = browser.new_context(**browser_context_args, color_scheme=scheme)
    page = context.new_page()
    try:
        goto(page, f"/softmax?s={CAUSAL}")  # the first run of a fresh session
        dark_page = app_background(page) != "rgb(255, 255, 255)"
        assert dark_page == (scheme == "dark")
        assert title_fill(page) == rgb(fig.PALETTES[scheme].ink)
        shot(page, f"look-{scheme}-softmax")
        for key in ("scores", "mask", "output", "start"):
            goto(page, f"/{'' if key == 'start' else key}?s={CAUSAL}")
            shot(page, f"look-{scheme}-{key}")
        for step in (3, 5):
            goto(page, f"/present?step={step}&s={CAUSAL}")
            assert title_fill(page) == rgb(fig.PALETTES[scheme].ink)
            shot(page, f"look-{scheme}-present-{step}", full=False)
    finally:
        context.close()


def phone_context(browser: Browser, browser_context_args: dict) -> BrowserContext:
    return browser.new_context(
        **{**browser_context_args, "viewport": PHONE},
        user_agent=PHONE_AGENT,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )


def test_the_phone_menu_closes_after_a_tap(browser: Browser, browser_context_args: dict) -> None:
    context = phone_context(browser, browser_context_args)
    page = context.new_page()
    try:
        goto(page, "/")
        sidebar = page.locator(SIDEBAR)
        assert sidebar.get_attribute("data-collapsed") == "true"
        page.locator("[data-testid='stExpandSidebarButton']").click()
        page.wait_for_selector(f"{SIDEBAR}[data-collapsed='false']")
        sidebar.locator(NAV).filter(has_text="3. Scores").click()
        page.wait_for_url("**/scores?s=*")
        wait_idle(page)
        assert sidebar.get_attribute("data-collapsed") == "true", "the menu still covers the page"
        assert page.locator(f"{MAIN} h1").first.inner_text() == "3. Scores"
    finally:
        context.close()


@pytest.fixture(scope="module")
def phone(browser: Browser, browser_context_args: dict) -> Iterator[BrowserContext]:
    """One phone for the module's page checks: after the first page, each page's files come
    from its HTTP cache. Each page is still opened in a new tab, a new Streamlit session
    (nothing in it opens the sidebar: test_the_phone_menu_closes_after_a_tap has its own)."""
    context = phone_context(browser, browser_context_args)
    try:
        yield context
    finally:
        context.close()


@pytest.mark.parametrize("key", [p.key for p in ALL_PAGES])
def test_every_page_on_a_phone(phone: BrowserContext, key: str) -> None:
    page = phone.new_page()
    try:
        goto(page, f"/{'' if key == 'start' else key}?s={CAUSAL}")
        sidebar = page.locator(SIDEBAR)
        if BY_KEY[key].sidebar:
            assert sidebar.get_attribute("data-collapsed") == "true", "the sidebar covers the page"
        else:  # presentation mode draws none (PageSpec.sidebar)
            page.locator(MAIN).wait_for()
            assert sidebar.count() == 0
        main = page.locator(MAIN)
        overflow = main.evaluate("e => e.scrollWidth - e.clientWidth")
        assert overflow <= 1, f"the page scrolls sideways by {overflow} px"
        shot(page, f"phone-{key}")
    finally:
        page.close()


def test_the_real_model_page_on_a_phone(browser: Browser, browser_context_args: dict) -> None:
    """Issue 10 at 390×844: the gallery's pattern names do not run into each other (the
    gallery scrolls sideways in its frame), and the 6×12 grids fit the screen with their
    values on tap instead of numbers that do not fit their cells."""
    pytest.importorskip("tokenizers")
    if not (REPO_ROOT / ".model").exists():
        pytest.skip("model not fetched: make model")
    context = phone_context(browser, browser_context_args)
    page = context.new_page()
    try:
        goto(page, "/real-model")
        gallery, grid = page.locator(".st-key-rm_gallery"), page.locator(".st-key-rm_on_target")
        grid.locator(".main-svg").first.wait_for(timeout=60_000)
        assert page.locator(EXCEPTION).count() == 0
        assert page.get_by_text(NOTICE[2:30]).count() == 0, "the page failed on a phone"
        names = gallery.locator(".annotation-text").evaluate_all(
            "es => es.map(e => { const r = e.getBoundingClientRect();"
            " return [r.left, r.right, Math.round(r.top)]; })"
        )
        assert len(names) > 10
        rows = sorted(names, key=lambda r: (r[2], r[0]))  # by line, then left to right
        for a, b in itertools.pairwise(rows):
            assert a[2] != b[2] or a[1] <= b[0], f"pattern names overlap: {a} {b}"
        assert grid.locator(".heatmap-label").count() == 0, "numbers printed in 24 px cells"
        assert grid.bounding_box()["width"] <= PHONE["width"] - 32
        overflow = page.locator(MAIN).evaluate("e => e.scrollWidth - e.clientWidth")
        assert overflow <= 1, f"the page scrolls sideways by {overflow} px"
        gallery.scroll_into_view_if_needed()
        shot(page, "phone-real-model-gallery", full=False)
        grid.scroll_into_view_if_needed()
        shot(page, "phone-real-model-grid", full=False)
    finally:
        context.close()


def test_a_phone_grid_says_tap_and_where_its_numbers_are(phone: BrowserContext) -> None:
    """The caption above a score grid follows the grid the phone gets. The multi-head lab's
    head 1 (scores up to −18.00) is too narrow to print its numbers on a phone, so it says
    to tap a cell and where every score is; the walkthrough's grid prints its numbers and
    says "Tap" where a desktop says "Click"."""
    page = phone.new_page()
    try:
        goto(page, f"/multi-head?s={PRESETS['two_heads'].build().to_url()}")
        panel = page.locator(".st-key-mh_stage_panel")
        panel.locator(PLOTLY).first.wait_for(timeout=30_000)
        assert panel.locator(".heatmap-label").count() == 0, "numbers printed that do not fit"
        assert panel.get_by_text("Not every number fits its cell on this screen").count() == 1
        assert panel.get_by_text("Click a cell").count() == 0
        goto(page, f"/scores?s={CAUSAL}")
        main = page.locator(MAIN)
        main.locator(".heatmap-label").first.wait_for(timeout=30_000)
        assert main.get_by_text("Tap a cell to see how its number is made").count() == 1
        assert main.get_by_text("Click a cell").count() == 0
        shot(page, "phone-scores-caption", full=False)
    finally:
        page.close()
