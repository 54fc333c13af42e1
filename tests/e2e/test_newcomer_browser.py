"""Issue 34: what a newcomer hit outside the live class, in Chromium on a phone (390 × 844)
and a desktop. One browser context a screen size for the module (the shared server).

Screenshots land in test-artifacts/newcomer-*.png."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers import MAIN, goto, shot, wait_idle
from playwright.sync_api import Browser, BrowserContext, Page

from attention_core import PRESETS

PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Mobile Safari/537.36"
)
DIRECT = PRESETS["cat_mat"].build()


@pytest.fixture(scope="module")
def phone(browser: Browser, app_server: str) -> Iterator[BrowserContext]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=app_server, user_agent=PHONE_AGENT,
        is_mobile=True, has_touch=True,
    )  # fmt: skip
    yield context
    context.close()


def boxes_overlap(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])  # fmt: skip


TEXT_BOXES = """e => { const r = document.createRange(); r.selectNodeContents(e);
  return [...r.getClientRects()].map(b => ({x: b.x, y: b.y, width: b.width, height: b.height}));
}"""  # the boxes of a paragraph's lines of text, not of its whole width


def test_the_softmax_step_table_fits_a_phone(phone: BrowserContext) -> None:
    """It scrolled sideways and hid its "weight" column."""
    page = phone.new_page()
    try:
        goto(page, "/softmax")
        table = page.locator(f"{MAIN} [data-testid='stTable']").first
        table.scroll_into_view_if_needed()
        inner = table.locator("> div").first
        wide, room = inner.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert wide <= room + 1, f"the table is {wide} px in {room} px: it scrolls sideways"
        weight = table.locator("th", has_text="weight")
        assert weight.count() == 1 and weight.bounding_box()["x"] + 10 < 390
        shot(page, "newcomer-phone-softmax")
    finally:
        page.close()


def test_the_grid_toolbar_leaves_the_caption_readable_on_a_phone(phone: BrowserContext) -> None:
    """The editor's toolbar covered "Q (6 × 3) ... (d_k ...)" on Inputs, in direct mode."""
    page = phone.new_page()
    try:
        s = DIRECT.replace(mode="direct", Q=DIRECT.trace().Q, K=DIRECT.trace().K,
                           V=DIRECT.trace().V)  # fmt: skip
        goto(page, f"/inputs?s={s.to_url()}")
        grid = page.locator(f"{MAIN} [class*='st-key-grid_Q_']")
        grid.scroll_into_view_if_needed()
        grid.locator("[data-testid='stDataFrame']").first.tap()
        page.wait_for_timeout(300)
        toolbar = grid.locator("[data-testid='stElementToolbar']").first
        caption = page.locator(f"{MAIN} p", has_text="Q (6 × 3)").first
        assert toolbar.is_visible()
        lines = caption.evaluate(TEXT_BOXES)
        assert lines and not any(boxes_overlap(toolbar.bounding_box(), b) for b in lines), lines
        shot(page, "newcomer-phone-inputs")
    finally:
        page.close()


def test_append_on_the_decoder_logs_no_streamlit_warning(page: Page, streamlit_server) -> None:
    """Append set the prompt box that was also given a default: Streamlit logged "The widget
    with key "dec_text" was created with a default value but also had its value set via the
    Session State API" (once per process)."""
    goto(page, "/decoder")
    box = page.locator(f"{MAIN} .st-key-dec_text input")
    before = box.input_value()
    page.locator(f"{MAIN} .st-key-dec_append button").click()
    page.wait_for_function(
        "([sel, old]) => document.querySelector(sel).value !== old",
        arg=[f"{MAIN} .st-key-dec_text input", before],
    )
    wait_idle(page)
    assert box.input_value().startswith(before) and len(box.input_value()) > len(before)
    assert '"dec_text" was created with a default value' not in streamlit_server.output()
    shot(page, "newcomer-decoder-append", full=False)
