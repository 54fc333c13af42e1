"""Presentation mode in a real browser: step through it, share step 4, projector-sized screens."""

from __future__ import annotations

import re

import numpy as np
import pytest
from helpers import goto, shot
from page_objects import PresentationPage, StartPage, query
from playwright.sync_api import Browser, Page, expect

from attention_core import PRESETS, Scenario, default_scenario
from attention_ui.frame.pages import BY_KEY
from attention_ui.practice import present

PROJECTOR = {"width": 1280, "height": 800}
TITLE = BY_KEY["present"].title


def open_presentation(page: Page, params: str = "", base: str = "") -> PresentationPage:
    page.set_viewport_size(PROJECTOR)
    return PresentationPage(page, base).open(params)


def expect_step(slides: PresentationPage, k: int, n: int, title: str) -> None:
    """The progress caption, the stage heading and the URL all say step k."""
    slides.expect_step(k, n, title)
    assert slides.h1 == TITLE
    assert slides.exceptions().count() == 0


def assert_fits_projector(slides: PresentationPage, what: str) -> None:
    """No sidebar, and the slide (figures included) ends within the 800 px of the viewport."""
    slides.sidebar.expect_hidden()
    bottom = slides.content_bottom()
    assert bottom <= PROJECTOR["height"], f"{what}: content ends at {bottom:.0f} px"


def test_step_through_and_share_step_4(page: Page, new_context, console_errors) -> None:
    slides = open_presentation(page)
    s = default_scenario()
    plan = present.steps(s, s.trace())
    n = len(plan)
    expect_step(slides, 1, n, plan[0].title)
    expect(slides.back_button()).to_be_disabled()
    slides.sidebar.expect_hidden()
    shot(page, "present_step1", full=False)

    for k in (2, 3, 4):
        slides.next()
        expect_step(slides, k, n, plan[k - 1].title)
        expect(slides.charts().first).to_be_visible()
        assert_fits_projector(slides, f"step {k}")
        shot(page, f"present_step{k}", full=False)
        if k == 2:  # Q, K and V's numbers: sent only once their popover is opened
            assert_qkv_numbers(page, s)
    assert plan[3].stage == "scaling"
    link = page.url
    assert query(link)["step"] == "4"
    assert Scenario.from_url(query(link)["s"]) == s

    # The link opens step 4 in another browser (no shared session, only the URL).
    other_page = new_context().new_page()
    other_page.set_viewport_size(PROJECTOR)
    console_errors.watch(other_page)
    other = PresentationPage(other_page).open_link(link)
    expect_step(other, 4, n, plan[3].title)
    expect(other.cell_labels().first).to_be_visible()
    # the slide shows this scenario's scaled scores, as the core computes them here
    t = s.trace()
    shown = other.stage_chart("scaling").numbers(n_rows=t.scores.shape[0])
    np.testing.assert_allclose(shown, t.scores / np.sqrt(t.d_k), atol=0.005)  # 2 decimals
    shot(other_page, "present_step4_shared", full=False)

    # Back in the first browser: Back goes to step 3, and the walkthrough is one click away.
    slides.back()
    expect_step(slides, 3, n, plan[2].title)
    slides.exit()
    start = StartPage(page)
    expect(start.heading()).to_have_text(BY_KEY["start"].title)
    start.sidebar.expect_visible()  # the hiding CSS left with the page
    assert "step" not in query(page.url)
    console_errors.assert_clean("presentation mode")


def assert_qkv_numbers(page: Page, s: Scenario) -> None:
    """The Numbers popover of the Q, K, V slide holds three tables: the core's Q, K and V."""
    slides = PresentationPage(page)
    tables = slides.numbers_tables()
    assert tables.count() == 0  # closed: not sent
    slides.open_qkv_numbers()
    expect(tables).to_have_count(3)
    t = s.trace()
    for table, want in zip(tables.all(), (t.Q, t.K, t.V), strict=True):
        shown = slides.table_numbers(table)
        np.testing.assert_allclose(shown, want, atol=0.005)  # printed to 2 decimals
    page.keyboard.press("Escape")
    expect(tables).to_have_count(0)


def test_arrow_keys_move_the_slides(page: Page, console_errors) -> None:
    slides = open_presentation(page)
    s = default_scenario()
    plan = present.steps(s, s.trace())
    slides.focus()
    slides.press("ArrowRight")
    expect_step(slides, 2, len(plan), plan[1].title)
    slides.press("ArrowRight")
    slides.press("ArrowLeft")
    expect_step(slides, 2, len(plan), plan[1].title)
    console_errors.assert_clean("arrow keys")


def test_deep_link_to_a_masked_step_on_a_fresh_server(fresh_server, page: Page,
                                                      console_errors) -> None:  # fmt: skip
    """The first request a new server gets is /present?s=...&step=5: the mask step."""
    s = PRESETS["cat_mat"].build().replace(mask_kind="causal")
    plan = present.steps(s, s.trace())
    assert plan[4].stage == "mask"
    server = fresh_server()
    slides = open_presentation(page, f"?s={s.to_url()}&step=5", base=server.url)
    expect_step(slides, 5, len(plan), plan[4].title)
    expect(slides.cell_labels(has_text="−∞").first).to_be_visible()
    # −∞ exactly above the diagonal (no peeking ahead), the scaled scores elsewhere
    t = s.trace()
    n_tok = len(s.tokens)
    future = np.array([[j > i for j in range(n_tok)] for i in range(n_tok)])
    expected = np.where(future, -np.inf, t.scores / np.sqrt(t.d_k))
    shown = slides.stage_chart("mask").numbers(n_rows=n_tok)
    np.testing.assert_allclose(shown, expected, atol=0.005)  # 2 decimals; −∞ where masked
    assert_fits_projector(slides, "mask step")
    shot(page, "present_step5_mask", full=False)
    console_errors.assert_clean("deep link to the mask step")


def test_bad_step_in_link_starts_at_step_1(page: Page, console_errors) -> None:
    slides = PresentationPage(page).open("?step=banana")
    expect(slides.progress()).to_contain_text("Step 1 of")
    expect(slides.main_text("Starting at step 1")).to_be_visible()
    page.wait_for_url(re.compile(r"[?&]step=1(&|$)"), timeout=10_000)
    console_errors.assert_clean("bad step")


def test_intro_loads_a_preset_to_present(page: Page, console_errors) -> None:
    slides = open_presentation(page)
    hungry = PRESETS["hungry"]
    slides.load_example(hungry.title)
    expect(slides.tokens()).to_contain_text("Queries: it")
    page.wait_for_url(lambda url: query(url).get("s") == hungry.build().to_url(), timeout=10_000)
    s = hungry.build()
    plan = present.steps(s, s.trace())
    expect_step(slides, 1, len(plan), plan[0].title)
    shot(page, "present_step1_hungry", full=False)
    slides.next()
    expect_step(slides, 2, len(plan), "Q, K and V (given)")
    console_errors.assert_clean("loading a preset")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_figure_grows_with_the_projector(
    browser: Browser, browser_context_args: dict, scheme: str
) -> None:
    """Issue 12: the slide's figure uses the screen's height, at 1280×720 and at 1920×1080,
    and still ends on the screen; screenshots projector-<scheme>-<size>-<step>.png."""
    causal = PRESETS["cat_mat"].build().replace(mask_kind="causal").to_url()
    heights = {}
    for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
        args = {**browser_context_args, "viewport": size}
        context = browser.new_context(**args, color_scheme=scheme)
        page = context.new_page()
        try:
            for step, stage in ((3, "scores"), (6, "softmax")):
                goto(page, f"/present?step={step}&s={causal}")
                box = PresentationPage(page).stage_chart(stage).root.bounding_box()
                assert box is not None
                assert box["y"] + box["height"] <= size["height"], f"{stage} ends off screen"
                heights[size["height"], stage] = box["height"]
                name = f"projector-{scheme}-{size['width']}x{size['height']}-{step}"
                shot(page, name, full=False)
        finally:
            context.close()
    for stage in ("scores", "softmax"):
        assert heights[1080, stage] > 1.3 * heights[720, stage], heights


# Every kind of slide: a causal mask gives all seven steps with 6 × 6 matrices; "hungry"
# has Q, K and V typed directly (another text above them) and one query.
FIT_SCENARIOS = {
    "cat_mat causal": PRESETS["cat_mat"].build().replace(mask_kind="causal"),
    "hungry": PRESETS["hungry"].build(),
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_slide_fits_the_screen(
    browser: Browser, browser_context_args: dict, scheme: str
) -> None:
    """No slide scrolls at 1280×720 or 1920×1080: the page (Streamlit's main area
    included) is no taller than the screen. Q, K and V once ended 67 px below a 720 px
    screen: Streamlit's 450 px fallback height for a stretched chart. Screenshots
    fit-<scheme>-<size>-<scenario>-<step>.png of the slides that do not fit."""
    too_tall = []
    for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
        args = {**browser_context_args, "viewport": size}
        context = browser.new_context(**args, color_scheme=scheme)
        page = context.new_page()
        try:
            for name, s in FIT_SCENARIOS.items():
                plan = present.steps(s, s.trace())
                slides = PresentationPage(page).open(f"?s={s.to_url()}&step=1")
                for k, step in enumerate(plan, start=1):
                    if k > 1:
                        slides.next()
                    slides.expect_step(k, len(plan), step.title)
                    over = slides.overflow()
                    if over > 1:  # px; sub-pixel rounding
                        where = f"{size['width']}x{size['height']}-{name.split()[0]}-{k}"
                        too_tall.append(f"{where} ({step.stage}): {over:.0f} px too tall")
                        shot(page, f"fit-{scheme}-{where}", full=False)
        finally:
            context.close()
    assert not too_tall, "slides that scroll:\n" + "\n".join(too_tall)
