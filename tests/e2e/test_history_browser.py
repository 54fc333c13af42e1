"""Back in a real browser: each visible edit is one history entry, and Back shows the one before.

Also the one-step undo of a load, from the sidebar. Small local locators only (the page
objects of tests/e2e live on another branch).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from helpers import SIDEBAR, goto, wait_idle
from playwright.sync_api import Page

from attention_core import PRESETS, Scenario

TOKENS = ".st-key-tokens_text input"


def url_tokens(page: Page) -> tuple[str, ...]:
    return Scenario.from_url(parse_qs(urlparse(page.url).query)["s"][0]).tokens


def type_tokens(page: Page, text: str) -> None:
    box = page.locator(TOKENS)
    box.fill(text)
    box.press("Enter")
    page.wait_for_function(
        "t => new URLSearchParams(location.search).get('s') && "
        "document.querySelector('.st-key-inputs_preview .xtick') && "
        "[...document.querySelectorAll('.st-key-inputs_preview .xtick text')]"
        ".some(e => e.textContent === t)",
        arg=text.split()[-1],
        timeout=15_000,
    )
    wait_idle(page)


def back(page: Page) -> None:
    page.go_back()
    wait_idle(page, settle_ms=400)


def test_three_edits_then_back_three_times_steps_through_them(page: Page, console_errors) -> None:
    start = PRESETS["quiz88"].build()
    goto(page, f"/inputs?s={start.to_url()}")
    length = page.evaluate("history.length")
    edits = ["one two", "one two three", "one two three four"]
    for n, text in enumerate(edits, start=1):
        type_tokens(page, text)
        assert page.evaluate("history.length") == length + n, "one entry per edit"
    for shown in [edits[1], edits[0], " ".join(start.tokens)]:
        back(page)
        assert page.locator(TOKENS).input_value() == shown
        assert url_tokens(page) == tuple(shown.split())
    assert page.locator(TOKENS).input_value() == " ".join(start.tokens)
    page.go_back()  # the fourth press leaves the page
    page.wait_for_url("about:blank")
    console_errors.assert_clean("back through edits")


def test_loading_an_example_over_my_edits_is_undone_from_the_sidebar(page: Page) -> None:
    goto(page, "/inputs")
    type_tokens(page, "my own words here")
    sidebar = page.locator(SIDEBAR)
    choice = sidebar.locator(".st-key-preset_choice input")
    choice.evaluate("e => e.scrollIntoView({block: 'center'})")  # room below for its list
    choice.click()
    page.get_by_role("option", name=PRESETS["paper_toy"].title).click()
    wait_idle(page)
    edited = page.evaluate("location.search")  # my own words are in the address already
    sidebar.locator(".st-key-preset_choice_load button").click()
    page.wait_for_function("(was) => location.search !== was", arg=edited)
    wait_idle(page)
    assert url_tokens(page) == PRESETS["paper_toy"].build().tokens
    sidebar.locator(".st-key-undo_replace").get_by_role("button").first.click()
    wait_idle(page, settle_ms=400)
    assert page.locator(TOKENS).input_value() == "my own words here"
    assert url_tokens(page) == ("my", "own", "words", "here")
