"""WCAG 2.2 AA in a real browser (issue 20): axe-core on every page, reflow, targets, touch.

- axe-core 4.12 (tests/e2e/a11y.py) with the WCAG 2.0/2.1/2.2 A and AA rules on every page
  (attention_ui.frame.pages), light and dark at 1400x1000 and light on a phone at 390x844:
  no serious or critical violation. One browser context per theme and size, so every page
  after the first loads from its HTTP cache; the three and the 320 px reflow context walk
  the pages side by side, in one walk (the ``walk`` fixture) that the tests read.
- Reflow (1.4.10) at 320 px: no page scrolls sideways (a grid, a chart or a formula may
  scroll inside itself).
- Target size (2.5.8) on a phone: the menu's links, the steppers, Previous/Next, the
  options of a radio group and the score cells are at least 24 x 24 px.
- Touch: tapping a score cell picks it, as a click does (look.FRAME's script).

The keyboard walk is in test_keyboard_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from a11y import AXE_VERSION, Violation, audit, blocking, finish_audit, start_audit
from helpers import MAIN, goto, shot, wait_idle
from page_objects import ConsolePage, PhonePage, ProjectorPage, ScoresPage
from playwright.sync_api import Browser, BrowserContext, Page, expect

from attention_core import PRESETS
from attention_ui.frame.pages import ALL_PAGES

CAUSAL = PRESETS["cat_mat"].build().replace(mask_kind="causal").to_url()  # masked cells too
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Mobile Safari/537.36"
)
PHONE = {"viewport": {"width": 390, "height": 844}, "user_agent": PHONE_AGENT,
         "is_mobile": True, "has_touch": True, "device_scale_factor": 2}  # fmt: skip
CONFIGS = {
    "light-1400": {"color_scheme": "light"},
    "dark-1400": {"color_scheme": "dark"},
    "light-phone": {"color_scheme": "light", **PHONE},
}
MIN_TARGET = 24  # px, WCAG 2.5.8 Target Size (Minimum)


def url(key: str) -> str:
    return f"/{'' if key == 'start' else key}?s={CAUSAL}"


def open_context(browser: Browser, browser_context_args: dict, **options) -> BrowserContext:
    return browser.new_context(**{**browser_context_args, **options})


REFLOW = "light-320"  # a desktop browser zoomed to 400 % (1280 / 4): WCAG's reflow width
WALKED = {**CONFIGS, REFLOW: {"viewport": {"width": 320, "height": 720}}}


def every_page(pages: dict[str, Page]) -> Iterator[str]:
    """Open each page in turn in every one of ``pages`` at once (one session each): the
    first by its address, the others by the menu (a rerun, not a page load: about a second
    each instead of three). The clicks go out to every session before the first wait, so
    the sessions rerun side by side. The menu's link is clicked by script, so it works
    while a phone's sidebar is closed."""
    for n, spec in enumerate(ALL_PAGES):
        for page in pages.values():
            if n == 0 or not ALL_PAGES[n - 1].sidebar:  # presentation mode has no menu
                page.goto(url(spec.key), timeout=60_000)
            else:
                page.evaluate(
                    "(t) => [...document.querySelectorAll('.st-key-nav a')]"
                    ".find(a => a.textContent.trim() === t).click()",
                    spec.title,
                )
        for page in pages.values():
            expect(page.locator(f"{MAIN} h1").first).to_have_text(spec.title, timeout=60_000)
            wait_idle(page, timeout=60_000)
        yield spec.key


def page_overflow(page: Page) -> float:
    """How far the page itself scrolls sideways, px (the document or the main area)."""
    return page.evaluate(
        """(sel) => Math.max(document.scrollingElement.scrollWidth - window.innerWidth,
               ...[...document.querySelectorAll(sel)].map(e => e.scrollWidth - e.clientWidth))""",
        MAIN,
    )


@dataclass
class Walk:
    """What one walk through every page found, in each configuration at once."""

    scanned: dict[str, list[str]] = field(default_factory=dict)  # configuration -> page keys
    found: dict[str, dict[str, list[Violation]]] = field(default_factory=dict)  # blocking ones
    overflow: dict[str, float] = field(default_factory=dict)  # page key -> px, at 320 px


@pytest.fixture(scope="module")
def walk(browser: Browser, browser_context_args: dict) -> Iterator[Walk]:
    """Every page in the three axe configurations and at 320 px, walked side by side (one
    context each); axe runs in the three configurations' pages at the same time."""
    contexts = {name: open_context(browser, browser_context_args, **options)
                for name, options in WALKED.items()}  # fmt: skip
    pages = {name: context.new_page() for name, context in contexts.items()}
    audited = {name: pages[name] for name in CONFIGS}
    result = Walk({name: [] for name in CONFIGS}, {name: {} for name in CONFIGS})
    try:
        for key in every_page(pages):
            for page in audited.values():
                start_audit(page)
            result.overflow[key] = over = page_overflow(pages[REFLOW])
            if over > 1:
                shot(pages[REFLOW], f"reflow-320-{key}")
            for config, page in audited.items():
                bad = blocking(finish_audit(page))
                result.scanned[config].append(key)
                if bad:
                    result.found[config][key] = bad
                    shot(page, f"axe-{config}-{key}")
        yield result
    finally:
        for context in contexts.values():
            context.close()


EVERY_KEY = [spec.key for spec in ALL_PAGES]


@pytest.mark.parametrize("config", list(CONFIGS))
def test_axe_finds_no_serious_or_critical_violation_on_any_page(walk: Walk, config: str) -> None:
    assert walk.scanned[config] == EVERY_KEY
    found = walk.found[config]
    report = "\n".join(f"{k}:\n" + "\n".join(map(str, v)) for k, v in found.items())
    assert not found, f"axe-core {AXE_VERSION}, {config}:\n{report}"


def test_no_page_scrolls_sideways_at_320_px(walk: Walk) -> None:
    """A desktop browser zoomed to 400 % (1280 / 4): WCAG's reflow width."""
    assert list(walk.overflow) == EVERY_KEY
    wide = {key: over for key, over in walk.overflow.items() if over > 1}
    assert not wide, f"pages that scroll sideways at 320 px (px): {wide}"


def boxes(page: Page, selector: str) -> list[tuple[float, float, str]]:
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].map(e => {
               const r = e.getBoundingClientRect();
               return [r.width, r.height, (e.textContent || e.getAttribute('aria-label') || '')
                       .trim().slice(0, 30)]; })""",
        selector,
    )


def small(found: list[tuple[float, float, str]]) -> list[tuple[float, float, str]]:
    return [b for b in found if b[0] < MIN_TARGET or b[1] < MIN_TARGET]


def test_tap_targets_on_a_phone_are_at_least_24_px(
    browser: Browser, browser_context_args: dict
) -> None:
    context = open_context(browser, browser_context_args, **CONFIGS["light-phone"])
    page = context.new_page()
    try:
        goto(page, url("inputs"))
        steppers = boxes(page, "[data-testid='stNumberInputStepUp'], "
                               "[data-testid='stNumberInputStepDown']")  # fmt: skip
        options = boxes(page, "[data-testid='stRadio'] [role='radiogroup'] label")
        links = boxes(page, f"{MAIN} [data-testid='stPageLink'] a")
        assert len(steppers) >= 6 and len(options) >= 2 and len(links) >= 2
        goto(page, url("scores"))
        page.locator("[data-testid='stExpandSidebarButton']").tap()
        page.wait_for_selector("[data-testid='stSidebar'][data-collapsed='false']")
        page.wait_for_timeout(400)  # the sidebar slides in
        menu = boxes(page, ".st-key-nav a")
        assert len(menu) == len(ALL_PAGES)
        page.locator("[data-testid='stSidebarCollapseButton'] button").tap()
        cells = ScoresPage(page).chart.root.locator(".nsewdrag").first.bounding_box()
        assert cells is not None
        n = 6  # cat_mat: 6 x 6 scores
        cell = (cells["width"] / n, cells["height"] / n, "a score cell")
        for what, found in [("steppers", steppers), ("radio options", options),
                            ("Previous/Next", links), ("menu links", menu),
                            ("score cells", [cell])]:  # fmt: skip
            assert not small(found), f"{what} under {MIN_TARGET} px: {small(found)}"
    finally:
        context.close()


def test_a_tap_on_a_score_cell_picks_it(browser: Browser, browser_context_args: dict) -> None:
    context = open_context(browser, browser_context_args, **CONFIGS["light-phone"])
    page = context.new_page()
    try:
        scores = ScoresPage(page).open(f"?s={CAUSAL}")
        chart = scores.chart
        labels = chart.root.locator(".heatmap-label")
        labels.first.wait_for()
        assert scores.picked_query() != "on" or scores.picked_key() != "the (1)"
        # the cell (on, the (1)): row 3, column 0; tap where its number is printed
        target = labels.nth(3 * 6 + 0)
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(page.locator(".st-key-scores_pick_q input")).to_have_value("on", timeout=15_000)
        expect(page.locator(".st-key-scores_pick_k input")).to_have_value("the (1)")
        wait_idle(page)
        shot(page, "touch-picked-cell", full=False)
    finally:
        context.close()


# ---- a live class's screens ------------------------------------------------------------------
def assert_clean(page: Page, where: str) -> None:
    wait_idle(page)
    bad = blocking(audit(page))
    if bad:
        shot(page, f"axe-live-{where}", full=False)
    assert not bad, f"axe-core {AXE_VERSION}, {where}:\n" + "\n".join(map(str, bad))


def test_a_live_class_screens_pass_axe(live_server, browser: Browser) -> None:
    """The join box and its error on a phone, the projector's join screen with its QR code,
    the teacher's console (with the control link shown), the follower's bar (following and
    exploring) and the pause notice."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    teacher = context.new_page()
    student = browser.new_context(**PHONE).new_page()
    phone = PhonePage(student, live_server.url)
    try:
        goto(student, live_server.url + "/")
        phone.type_code("ZZZZZ")
        expect(phone.alerts().first).to_be_visible()
        assert_clean(student, "join box with its error, phone")

        projector = ProjectorPage(teacher, live_server.url)
        projector.open()
        projector.press_go_live()
        expect(projector.join_screen.qr()).to_be_visible(timeout=10_000)
        code = projector.join_screen.code()
        assert_clean(teacher, "projector's join screen and QR code")
        # the teacher's browser: its cookie makes it the teacher's
        console = ConsolePage(context.new_page(), live_server.url)
        console.open()
        console.show_join_link()
        expect(console.join_qr()).to_be_visible(timeout=10_000)
        assert_clean(console.page, "teacher's console with the control link")

        goto(student, f"{live_server.url}/?join={code}")
        expect(phone.explore_button()).to_be_visible(timeout=15_000)
        assert_clean(student, "follower bar, phone")
        console.pause()
        expect(phone.pause_notice()).to_be_visible(timeout=10_000)
        assert_clean(student, "pause notice, phone")
        console.resume()
        expect(phone.pause_notice()).to_be_hidden(timeout=10_000)
        phone.explore_button().tap()
        expect(phone.back_button()).to_be_visible()
        assert_clean(student, "exploring bar, phone")
    finally:
        context.close()
        student.context.close()
