"""Navigation in a real browser: deep links on a fresh server, the sidebar, share links."""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qs, urlparse

import pytest
from helpers import (
    ALERT,
    EXCEPTION,
    MAIN,
    SIDEBAR,
    ConsoleLog,
    goto,
    h1_text,
    nav_link,
    shot,
    sidebar_links,
    sidebar_sections,
)
from playwright.sync_api import Page, expect

from attention_core import PRESETS, Scenario, default_scenario
from attention_ui.pages import ALL_PAGES, BY_KEY, PageSpec

SECTIONS = list(dict.fromkeys(p.section for p in ALL_PAGES if p.section))  # headers, in order
TITLES = [p.title for p in ALL_PAGES]
# Pages that hide the sidebar on purpose (app_pages/practice/present.py: a projector view).
# There the nav must still be built (in the DOM) but hidden.
NO_SIDEBAR = {"present"}
# Deep links as the first request of a freshly started server: one page per section by
# default (≈2.5–5 s each: server start + a cold browser context); E2E_FRESH_ALL=1 does all.
FRESH_KEYS = (
    [p.key for p in ALL_PAGES]
    if os.environ.get("E2E_FRESH_ALL") == "1"
    else ["softmax", "scaling-lab", "exercises"]
)


def page_url(key: str) -> str:
    """The path a learner types for a page: the default page (Start) lives at "/"."""
    return "/" if key == "start" else f"/{key}"


def url_scenario(url: str) -> Scenario:
    """Decode the ``?s=`` parameter of ``url`` (fails the test if it is missing)."""
    values = parse_qs(urlparse(url).query).get("s")
    assert values, f"no ?s= in {url}"
    return Scenario.from_url(values[0])


INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def scenario_label(page: Page) -> str:
    """The sidebar's "Scenario: <name>" line, without the invisible characters (word
    joiners) that md_escape puts into user text."""
    label = page.locator(SIDEBAR).get_by_text(re.compile(r"^\s*Scenario:")).first
    return (label.text_content() or "").translate(INVISIBLE)


def wait_for_share_url(page: Page) -> None:
    """sync_url() writes ?s= at the end of the script run; wait until the address bar has it."""
    page.wait_for_url(re.compile(r"[?&]s=v1\."), timeout=10_000)


def assert_page_ok(page: Page, title: str) -> None:
    assert h1_text(page) == title
    assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()
    assert page.get_by_text("Page not found").count() == 0


def assert_sidebar_nav(page: Page, key: str) -> None:
    sections = sidebar_sections(page)
    for section in ("Walkthrough", "Labs", "Practice"):
        assert section in sections, f"section {section!r} missing from the sidebar: {sections}"
    assert sections == SECTIONS
    assert sidebar_links(page) == TITLES
    if key in NO_SIDEBAR:
        expect(page.locator(SIDEBAR)).to_be_hidden()
        return
    expect(page.locator(SIDEBAR)).to_be_visible()
    for title in TITLES:
        expect(nav_link(page, title)).to_be_visible()


def check_deep_link(page: Page, base: str, spec: PageSpec) -> None:
    goto(page, base + page_url(spec.key))
    assert_page_ok(page, spec.title)
    assert_sidebar_nav(page, spec.key)
    if spec.key == "start":  # the default page is served at "/"; its link carries ?s=
        expect(nav_link(page, spec.title)).to_have_attribute("href", re.compile(r"^/?\?s=v1\."))
    expect(page).to_have_url(re.compile(rf"^{re.escape(base + page_url(spec.key))}(\?|$)"))
    wait_for_share_url(page)
    assert url_scenario(page.url) == default_scenario()


@pytest.mark.parametrize("key", FRESH_KEYS)
def test_deep_link_on_fresh_server(key: str, fresh_server, page: Page, console_errors) -> None:
    """The very first request a new server gets is a deep link (the app_pages/ regression:
    with a pages/ folder, Streamlit 1.67 would run it without app.py)."""
    server = fresh_server()
    check_deep_link(page, server.url, BY_KEY[key])
    console_errors.assert_clean(f"{key} (fresh server)")


@pytest.mark.parametrize("spec", ALL_PAGES, ids=[p.key for p in ALL_PAGES])
def test_deep_link(spec: PageSpec, app_server: str, shared_context) -> None:
    """Every page opened by its URL in a new tab: title, sidebar, share link, screenshot.
    Start is opened at "/"."""
    page = shared_context.new_page()
    console = ConsoleLog()
    console.watch(page)
    try:
        check_deep_link(page, app_server, spec)
        shot(page, f"page-{spec.key}")
        console.assert_clean(spec.key)
    finally:
        page.close()


def test_sidebar_navigation(page: Page, console_errors) -> None:
    goto(page, "/")
    for key in ("scores", "scaling-lab", "exercises", "inputs", "present"):
        title = BY_KEY[key].title
        nav_link(page, title).click()
        expect(page.locator(f"{MAIN} h1").first).to_have_text(title)
        expect(page).to_have_url(re.compile(rf"{re.escape(page_url(key))}(\?|$)"))
        assert page.locator(EXCEPTION).count() == 0
        assert page.get_by_text("Page not found").count() == 0
    # The presentation hides the sidebar; its exit link must bring it back on Start.
    expect(page.locator(SIDEBAR)).to_be_hidden()
    page.get_by_role("link", name="Exit presentation").click()
    expect(page.locator(f"{MAIN} h1").first).to_have_text(BY_KEY["start"].title)
    expect(page.locator(SIDEBAR)).to_be_visible()
    expect(nav_link(page, BY_KEY["scores"].title)).to_be_visible()
    console_errors.assert_clean("sidebar navigation")


def _shareable_preset() -> Scenario:
    """A named preset that differs from the default scenario."""
    default = default_scenario()
    for preset in PRESETS.values():
        scenario = preset.build()
        if scenario != default and scenario.name:
            return scenario
    pytest.fail("every preset equals the default scenario: nothing to share")


def test_share_link_reopens_scenario_in_new_context(page: Page, new_context, console_errors):
    shared = _shareable_preset()
    # Arrive with a non-default scenario, then move on: sync_url must keep it in the URL.
    goto(page, f"/inputs?s={shared.to_url()}")
    assert shared.name in scenario_label(page)
    nav_link(page, BY_KEY["scores"].title).click()
    expect(page.locator(f"{MAIN} h1").first).to_have_text(BY_KEY["scores"].title)
    wait_for_share_url(page)
    link = page.url
    assert urlparse(link).path == "/scores"
    assert url_scenario(link) == shared

    other = new_context().new_page()  # a different browser session: nothing shared but the URL
    console_errors.watch(other)
    goto(other, link)
    assert_page_ok(other, BY_KEY["scores"].title)
    assert shared.name in scenario_label(other)
    wait_for_share_url(other)
    assert url_scenario(other.url) == shared
    assert other.locator(ALERT).filter(has_text="could not be read").count() == 0
    console_errors.assert_clean("share link")


def test_malformed_share_link_warns_and_uses_default(page: Page, console_errors) -> None:
    goto(page, "/?s=v1.garbage")
    assert_page_ok(page, BY_KEY["start"].title)
    warning = page.locator(ALERT).filter(has_text="could not be read")
    expect(warning).to_have_count(1)
    default = default_scenario()
    assert (default.name or "your own") in scenario_label(page)
    wait_for_share_url(page)
    assert url_scenario(page.url) == default
    shot(page, "malformed-link")
    console_errors.assert_clean("malformed link")
