"""What a new teacher hit (issue 22), in Chromium at desktop and phone sizes, with screenshots
in test-artifacts/ (teacher-*.png)."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from helpers import REPO_ROOT, goto, shot
from page_objects import (
    MultiHeadPage,
    RealModelPage,
    ScoresPage,
    SoftmaxPage,
    StartPage,
    query,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_look_browser import PHONE, phone_context

from attention_core import PRESETS
from attention_ui.draw import figures as fig
from attention_ui.frame.address import network_ip

pytestmark = pytest.mark.e2e
phone = phone_context  # a 390 x 844 touch screen with a phone's user agent


def test_the_start_pages_bars_keep_their_labels_whole(page: Page) -> None:
    """ "jungle" lost the tail of its j below the chart ("iungle")."""
    start = StartPage(page).open()
    assert start.intuition.x_labels() == ["animal", "jungle", "hunt"]
    svg = start.intuition.box()
    for box in start.intuition.x_label_boxes():
        assert box["y"] + box["height"] <= svg["y"] + svg["height"], "a label is cut off"
    shot(page, "teacher-start-desktop")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_recipe_diagram_follows_the_theme(
    browser: Browser, browser_context_args: dict, scheme: str
) -> None:
    context = browser.new_context(**browser_context_args, color_scheme=scheme)
    page = context.new_page()
    try:
        start = StartPage(page).open()
        src = start.diagram().get_attribute("src") or ""
        assert src.startswith("data:image/svg+xml;base64,")
        svg = base64.b64decode(src.split(",", 1)[1]).decode()
        ink = fig.PALETTES[scheme].ink
        assert f'color="{ink}"' in svg and "#FFFFFF" not in svg.upper()
        background = start.diagram().evaluate("e => getComputedStyle(e).backgroundColor")
        assert background == "rgba(0, 0, 0, 0)", "the diagram sits on a card of its own"
        start.diagram().scroll_into_view_if_needed()
        shot(page, f"teacher-start-diagram-{scheme}", full=False)
    finally:
        context.close()


def test_the_recipe_arrows_point_down_once_the_boxes_stack(page: Page, screens: Screens) -> None:
    assert StartPage(page).open().recipe_arrows() == ["→"] * 4  # a row of boxes
    small = screens.tab("phone")
    try:
        start = StartPage(small).open()
        assert start.recipe_arrows() == ["↓"] * 4
        boxes = [start.pipeline_link(name).first.bounding_box()["y"]
                 for name in ("MatMul", "Scale", "Mask", "SoftMax")]  # fmt: skip
        assert boxes == sorted(boxes), "the boxes stack top to bottom"
        start.pipeline_link("Scale").scroll_into_view_if_needed()
        shot(small, "teacher-start-recipe-phone", full=False)
    finally:
        small.close()


def test_previous_and_next_are_a_thumbs_height_on_a_phone(screens: Screens) -> None:
    page = screens.tab("phone")
    try:
        softmax = SoftmaxPage(page).open()
        links = softmax.prev_next_links()
        assert links.count() == 2
        for link in links.all():
            link.scroll_into_view_if_needed()
            box = link.bounding_box()
            assert box is not None and box["height"] >= 44, f"{box} is too small to tap"
        shot(page, "teacher-prev-next-phone", full=False)
    finally:
        page.close()


SIZES = {"desktop": (1400, 1000), "hd": (1920, 1080), "phone": PHONE}


class Screens:
    """One browser context per screen size for the whole module, made when first asked
    for: after its first page, a size's pages load from its HTTP cache. ``tab(size)`` is a
    new tab, so a new Streamlit session; close it after use."""

    def __init__(self, browser: Browser, browser_context_args: dict) -> None:
        self.browser, self.args = browser, browser_context_args
        self.contexts: dict[str, BrowserContext] = {}

    def tab(self, size: str) -> Page:
        if size not in self.contexts:
            self.contexts[size] = sized(self.browser, self.args, size)
        return self.contexts[size].new_page()

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()


def sized(browser: Browser, browser_context_args: dict, size: str) -> BrowserContext:
    if size == "phone":
        return phone(browser, browser_context_args)
    width, height = SIZES[size]
    return browser.new_context(
        **{**browser_context_args, "viewport": {"width": width, "height": height}}
    )


@pytest.fixture(scope="module")
def screens(browser: Browser, browser_context_args: dict) -> Iterator[Screens]:
    made = Screens(browser, browser_context_args)
    try:
        yield made
    finally:
        made.close()


def expect_landed_on_scores(scores: ScoresPage, notice: str) -> None:
    """The Scores page from its top: its heading on screen, the message under it in the
    page's flow, and no toast over the figures."""
    expect(scores.heading()).to_have_text("3. Scores")
    scores.wait_idle()
    assert scores.in_view(scores.heading()), "the page opened scrolled away from its heading"
    expect(scores.alerts(notice)).to_be_visible()
    assert scores.toasts().count() == 0


@pytest.mark.parametrize("size", list(SIZES))
def test_opening_a_multi_head_head_lands_at_the_top_of_scores(screens: Screens, size: str) -> None:
    page = screens.tab(size)
    try:
        lab = MultiHeadPage(page)
        goto(page, f"/multi-head?s={PRESETS['two_heads'].build().to_url()}", timeout=lab.TIMEOUT)
        button = page.get_by_role("button", name="Open head 1 in the walkthrough")
        button.scroll_into_view_if_needed()  # the bottom of a long page, as a teacher scrolls
        lab.open_in_walkthrough(1)
        page.wait_for_url(re.compile(r".*/scores\?s=.*"), timeout=lab.TIMEOUT)
        expect_landed_on_scores(ScoresPage(page), "Head 1's Q, K and V are now your scenario")
        shot(page, f"teacher-open-head-multi-head-{size}", full=False)
    finally:
        page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_opening_a_real_model_head_lands_at_the_top_on_the_picked_token(
    screens: Screens, size: str
) -> None:
    pytest.importorskip("tokenizers")
    if not (REPO_ROOT / ".model").exists():
        pytest.skip("model not fetched: make model")
    page = screens.tab(size)
    try:
        lab = RealModelPage(page).open("?rm_token=it&rm_layer=4&rm_head=2")
        lab.scroll_to_open_button()
        lab.open_in_walkthrough()
        scores = ScoresPage(page)
        expect_landed_on_scores(scores, "shown from “it”, the token you picked")
        assert (scores.picked_query(), scores.picked_key()) == ("it", "animal")
        shot(page, f"teacher-open-head-real-model-{size}", full=False)
    finally:
        page.close()


# A link handed out on the teacher's loopback address takes this machine's network address
# (frame.address.reachable), as the QR code does. The test server listens on loopback only,
# so the other browsers open the link there.
REACHABLE = network_ip() or "127.0.0.1"


def on_this_server(link: str, page: Page) -> str:
    here = urlsplit(page.url)
    return urlunsplit(urlsplit(link)._replace(scheme=here.scheme, netloc=here.netloc))


def test_the_share_link_copies_with_the_picked_row_and_a_short_link_reopens_it(
    page: Page, new_context
) -> None:
    """The full link is copied at a click, with the Softmax row picked in a fragment (the
    sidebar was not rerun); a short link (?l=, the store of the live class) opens the same
    numbers on the same page in another browser."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    softmax = SoftmaxPage(page).open()
    softmax.sidebar.open_share()
    softmax.pick_row("mat")
    page.wait_for_url(re.compile(r"softmax_row=mat"), timeout=10_000)
    softmax.sidebar.copy("Copy link")
    copied = softmax.sidebar.clipboard()
    assert query(copied)["softmax_row"] == "mat"
    assert query(copied)["s"] == query(page.url)["s"]
    assert softmax.sidebar.share_box().input_value() == copied  # what is shown is what is copied
    assert urlsplit(copied).hostname == REACHABLE  # a phone's address, not the loopback one
    shot(page, "teacher-share-sidebar", full=False)

    other = new_context().new_page()
    again = SoftmaxPage(other).open_link(on_this_server(copied, page))
    assert again.h1 == "6. Softmax"
    assert again.picked_row() == "mat"

    softmax.sidebar.make_short_link()
    softmax.sidebar.copy("Copy short link")
    short = softmax.sidebar.clipboard()
    assert re.fullmatch(r"http://[\d.]+:\d+/softmax\?l=[A-Z2-9]{10}", short), short
    assert urlsplit(short).hostname == REACHABLE
    third = new_context().new_page()
    followed = SoftmaxPage(third).open_link(on_this_server(short, page))
    assert followed.h1 == "6. Softmax"
    assert followed.scenario().to_url() == query(page.url)["s"]
    assert "l=" not in third.url  # the address became the full link


def test_the_comparisons_title_keeps_clear_of_its_axis_title(page: Page) -> None:
    """ "…changes, per head" ran into the "head" axis title ("…per headhead")."""
    pytest.importorskip("tokenizers")
    if not (REPO_ROOT / ".model").exists():
        pytest.skip("model not fetched: make model")
    lab = RealModelPage(page).open()
    lab.choose_token_tab("Two sentences side by side")
    lab.wait_idle()
    chart = lab.chart(lab.CHANGE)
    chart.wait_for_x_title(timeout=30_000)
    title, axis = chart.title_box(), chart.x_title_box()
    assert title is not None and axis is not None
    assert title["y"] + title["height"] <= axis["y"], f"title {title} runs into {axis}"
    chart.root.scroll_into_view_if_needed()
    shot(page, "teacher-real-model-compare", full=False)
