"""Presentation mode in a real browser: step through it, share step 4, projector-sized screens."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from helpers import EXCEPTION, MAIN, SIDEBAR, goto, h1_text, shot, wait_idle
from playwright.sync_api import Page, expect

from attention_core import PRESETS, Scenario, default_scenario
from attention_ui import present
from attention_ui.pages import BY_KEY

PROJECTOR = {"width": 1280, "height": 800}
TITLE = BY_KEY["present"].title
PROGRESS = ".st-key-present_nav [data-testid='stProgress']"
STAGE = ".st-key-present_stage h2"
NEXT = f".st-key-{present.NEXT_KEY} button"
BACK = f".st-key-{present.BACK_KEY} button"
CHART = "[data-testid='stPlotlyChart']"


def query(url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(url).query).items()}


def expect_step(page: Page, k: int, n: int, title: str) -> None:
    """The progress caption, the stage heading and the URL all say step k."""
    expect(page.locator(PROGRESS)).to_contain_text(f"Step {k} of {n}")
    expect(page.locator(STAGE)).to_have_text(title)
    page.wait_for_url(re.compile(rf"[?&]step={k}(&|$)"), timeout=10_000)
    assert h1_text(page) == TITLE
    assert page.locator(EXCEPTION).count() == 0


def next_step(page: Page, button: str = NEXT) -> None:
    page.locator(button).click()
    wait_idle(page)


def assert_fits_projector(page: Page, what: str) -> None:
    """No sidebar, and the slide (figures included) ends within the 800 px of the viewport."""
    expect(page.locator(SIDEBAR)).to_be_hidden()
    bottom = page.evaluate(
        """(sel) => Math.max(...[...document.querySelectorAll(sel)]
               .map(e => e.getBoundingClientRect().bottom))""",
        f"{MAIN} {CHART}, {MAIN} .st-key-present_text",
    )
    assert bottom <= PROJECTOR["height"], f"{what}: content ends at {bottom:.0f} px"


def test_step_through_and_share_step_4(page: Page, new_context, console_errors) -> None:
    page.set_viewport_size(PROJECTOR)
    goto(page, "/present")
    s = default_scenario()
    plan = present.steps(s, s.trace())
    n = len(plan)
    expect_step(page, 1, n, plan[0].title)
    expect(page.locator(BACK)).to_be_disabled()
    expect(page.locator(SIDEBAR)).to_be_hidden()
    shot(page, "present_step1", full=False)

    for k in (2, 3, 4):
        next_step(page)
        expect_step(page, k, n, plan[k - 1].title)
        expect(page.locator(f"{MAIN} {CHART}").first).to_be_visible()
        assert_fits_projector(page, f"step {k}")
        shot(page, f"present_step{k}", full=False)
    assert plan[3].stage == "scaling"
    link = page.url
    assert query(link)["step"] == "4"
    assert Scenario.from_url(query(link)["s"]) == s

    # The link opens step 4 in another browser (no shared session, only the URL).
    other = new_context().new_page()
    other.set_viewport_size(PROJECTOR)
    console_errors.watch(other)
    goto(other, link)
    expect_step(other, 4, n, plan[3].title)
    expect(other.locator(f"{MAIN} {CHART} .heatmap-label").first).to_be_visible()
    shot(other, "present_step4_shared", full=False)

    # Back in the first browser: Back goes to step 3, and the walkthrough is one click away.
    next_step(page, BACK)
    expect_step(page, 3, n, plan[2].title)
    page.get_by_role("link", name="Exit presentation").click()
    expect(page.locator(f"{MAIN} h1").first).to_have_text(BY_KEY["start"].title)
    expect(page.locator(SIDEBAR)).to_be_visible()  # the hiding CSS left with the page
    assert "step" not in query(page.url)
    console_errors.assert_clean("presentation mode")


def test_arrow_keys_move_the_slides(page: Page, console_errors) -> None:
    page.set_viewport_size(PROJECTOR)
    goto(page, "/present")
    s = default_scenario()
    plan = present.steps(s, s.trace())
    page.locator(STAGE).click()  # focus the page, not a widget
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    expect_step(page, 2, len(plan), plan[1].title)
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    page.keyboard.press("ArrowLeft")
    wait_idle(page)
    expect_step(page, 2, len(plan), plan[1].title)
    console_errors.assert_clean("arrow keys")


def test_deep_link_to_a_masked_step_on_a_fresh_server(fresh_server, page: Page,
                                                      console_errors) -> None:  # fmt: skip
    """The first request a new server gets is /present?s=...&step=5: the mask step."""
    s = PRESETS["cat_mat"].build().replace(mask_kind="causal")
    plan = present.steps(s, s.trace())
    assert plan[4].stage == "mask"
    server = fresh_server()
    page.set_viewport_size(PROJECTOR)
    goto(page, f"{server.url}/present?s={s.to_url()}&step=5")
    expect_step(page, 5, len(plan), plan[4].title)
    minus_inf = page.locator(f"{MAIN} {CHART} .heatmap-label").filter(has_text="−∞")
    expect(minus_inf.first).to_be_visible()
    assert_fits_projector(page, "mask step")
    shot(page, "present_step5_mask", full=False)
    console_errors.assert_clean("deep link to the mask step")


def test_bad_step_in_link_starts_at_step_1(page: Page, console_errors) -> None:
    goto(page, "/present?step=banana")
    expect(page.locator(PROGRESS)).to_contain_text("Step 1 of")
    expect(page.locator(MAIN).get_by_text("Starting at step 1")).to_be_visible()
    page.wait_for_url(re.compile(r"[?&]step=1(&|$)"), timeout=10_000)
    console_errors.assert_clean("bad step")


def test_intro_loads_a_preset_to_present(page: Page, console_errors) -> None:
    page.set_viewport_size(PROJECTOR)
    goto(page, "/present")
    hungry = PRESETS["hungry"]
    page.get_by_role("button", name="Change the example").click()
    box = page.locator(f".st-key-{present.PRESET_KEY} input")
    box.click()
    page.get_by_role("option", name=hungry.title).click()
    wait_idle(page)
    page.locator(f".st-key-{present.PRESET_KEY}_load button").click()
    wait_idle(page)
    expect(page.locator(".st-key-present_tokens")).to_contain_text("Queries: it")
    page.wait_for_url(lambda url: query(url).get("s") == hungry.build().to_url(), timeout=10_000)
    s = hungry.build()
    plan = present.steps(s, s.trace())
    expect_step(page, 1, len(plan), plan[0].title)
    shot(page, "present_step1_hungry", full=False)
    next_step(page)
    expect_step(page, 2, len(plan), "Q, K and V (given)")
    console_errors.assert_clean("loading a preset")
