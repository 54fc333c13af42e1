"""Navigation in a real browser: deep links on a fresh server, the sidebar, share links."""

from __future__ import annotations

import os
import re
from urllib.parse import urlparse

import numpy as np
import pytest
from helpers import ConsoleLog, shot, wait_idle
from page_objects import AppPage, PresentationPage, ScoresPage, StartPage, page_for
from playwright.sync_api import Page, expect

from attention_core import PRESETS, Scenario, default_scenario
from attention_ui.frame.pages import ALL_PAGES, BY_KEY, PageSpec

SECTIONS = list(dict.fromkeys(p.section for p in ALL_PAGES if p.section))  # headers, in order
TITLES = [p.title for p in ALL_PAGES]
# Deep links as the first request of a freshly started server: one page per section by
# default (≈2.5–5 s each: server start + a cold browser context); E2E_FRESH_ALL=1 does all.
FRESH_KEYS = (
    [p.key for p in ALL_PAGES]
    if os.environ.get("E2E_FRESH_ALL") == "1"
    else ["softmax", "scaling-lab", "exercises"]
)


def assert_page_ok(app: AppPage, title: str) -> None:
    assert app.h1 == title
    assert app.exceptions().count() == 0, app.exceptions().first.inner_text()
    assert app.not_found().count() == 0


def assert_sidebar_nav(app: AppPage, key: str) -> None:
    if not BY_KEY[key].sidebar:  # a projector's page draws no sidebar at all (PageSpec)
        assert app.sidebar.sections() == [] and app.sidebar.links() == []
        app.sidebar.expect_hidden()
        return
    sections = app.sidebar.sections()
    for section in ("Walkthrough", "Labs", "Practice"):
        assert section in sections, f"section {section!r} missing from the sidebar: {sections}"
    assert sections == SECTIONS
    assert app.sidebar.links() == TITLES
    app.sidebar.expect_visible()
    for title in TITLES:
        expect(app.sidebar.link(title)).to_be_visible()


def check_deep_link(page: Page, base: str, spec: PageSpec) -> None:
    app = page_for(spec.key, page, base).open()
    assert_page_ok(app, spec.title)
    assert_sidebar_nav(app, spec.key)
    if spec.key == "start":  # the default page is served at "/"; its link carries ?s=
        start_href = re.compile(r"^\.?/?\?s=v1\.")  # "./?s=...": relative to the page's address
        expect(app.sidebar.link(spec.title)).to_have_attribute("href", start_href)
    expect(page).to_have_url(re.compile(rf"^{re.escape(base + app.path)}(\?|$)"))
    app.wait_for_share_url()
    assert app.scenario() == default_scenario()


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


def assert_scores_shown(scores: ScoresPage, s: Scenario) -> None:
    """The Scores heatmap prints Q Kᵀ of ``s`` as the core computes it (2 decimals)."""
    t = s.trace()
    shown = scores.chart.numbers(n_rows=len(s.queries))
    np.testing.assert_allclose(shown, t.Q @ t.K.T, atol=0.005)


def test_sidebar_navigation(page: Page, console_errors) -> None:
    start = StartPage(page).open()
    for key in ("scores", "scaling-lab", "exercises", "inputs", "present"):
        title = BY_KEY[key].title
        wait_idle(page)  # the page drawn, as a person sees it before the next link (under
        # CI's load a click during the Scaling lab's first build of its chart waited > 5 s)
        start.sidebar.link(title).click()
        expect(start.heading()).to_have_text(title)
        expect(page).to_have_url(re.compile(rf"{re.escape(page_for(key, page).path)}(\?|$)"))
        assert start.exceptions().count() == 0
        assert start.not_found().count() == 0
        if key == "scores":  # the page a menu link opened shows the session's numbers
            assert_scores_shown(ScoresPage(page), default_scenario())
    # The presentation hides the sidebar; its exit link must bring it back on Start.
    present = PresentationPage(page)
    present.sidebar.expect_hidden()
    present.exit()
    expect(start.heading()).to_have_text(BY_KEY["start"].title)
    start.sidebar.expect_visible()
    expect(start.sidebar.link(BY_KEY["scores"].title)).to_be_visible()
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
    inputs = page_for("inputs", page).open(f"?s={shared.to_url()}")
    assert shared.name in inputs.sidebar.scenario_label()
    inputs.sidebar.link(BY_KEY["scores"].title).click()
    scores = page_for("scores", page)
    expect(scores.heading()).to_have_text(BY_KEY["scores"].title)
    scores.wait_for_share_url()
    link = page.url
    assert urlparse(link).path == "/scores"
    assert scores.scenario() == shared

    other_page = new_context().new_page()  # a different browser session: only the URL
    console_errors.watch(other_page)
    other = page_for("scores", other_page).open_link(link)
    assert_page_ok(other, BY_KEY["scores"].title)
    assert shared.name in other.sidebar.scenario_label()
    other.wait_for_share_url()
    assert other.scenario() == shared
    assert other.alerts("could not be read").count() == 0
    assert_scores_shown(ScoresPage(other_page), shared)  # the same numbers, not the default
    console_errors.assert_clean("share link")


def test_malformed_share_link_warns_and_uses_default(page: Page, console_errors) -> None:
    start = StartPage(page).open("?s=v1.garbage")
    assert_page_ok(start, BY_KEY["start"].title)
    expect(start.alerts("could not be read")).to_have_count(1)
    default = default_scenario()
    assert (default.name or "your own") in start.sidebar.scenario_label()
    start.wait_for_share_url()
    assert start.scenario() == default
    shot(page, "malformed-link")
    console_errors.assert_clean("malformed link")
