"""The walkthrough in a real browser: type tokens, edit a grid cell, pick a score cell, share.

Uses the fixtures of tests/e2e/conftest.py (one shared server; Debian's Chromium).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import numpy as np
from helpers import MAIN, goto, shot, wait_idle
from playwright.sync_api import Page

from attention_core import PRESETS, Scenario

PREVIEW = ".st-key-inputs_preview"


def scenario_in_url(page: Page) -> Scenario:
    return Scenario.from_url(parse_qs(urlparse(page.url).query)["s"][0])


def cell_texts(page: Page, chart: str) -> list[str]:
    """The numbers printed in a heatmap's cells, once Plotly has drawn them."""
    page.wait_for_selector(f"{chart} .heatmap-label", timeout=30_000)
    return page.locator(f"{chart} .heatmap-label").all_text_contents()


def wait_for_change(page: Page, chart: str, before: list[str]) -> list[str]:
    page.wait_for_function(
        """([sel, before]) => {
            const now = [...document.querySelectorAll(sel + ' .heatmap-label')]
                .map(e => e.textContent);
            return now.length > 0 && JSON.stringify(now) !== JSON.stringify(before);
        }""",
        arg=[chart, before],
        timeout=15_000,
    )
    wait_idle(page)
    return cell_texts(page, chart)


def set_grid_cell(page: Page, grid: str, col: int, row: int, value: str, n_cols: int) -> None:
    """Type ``value`` into a glide-data-grid cell (col 1 = first data column; 0 = index).

    Recipe from shared/notes: click row 0 of the last column, arrow to the cell, Enter,
    fill the overlay editor, Enter to commit (a full rerun follows).
    """
    canvas = page.locator(f"{grid} [data-testid='data-grid-canvas']").first
    box = canvas.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 10, box["y"] + 35 + 17)
    keys = ["ArrowLeft"] * (n_cols - col) + ["ArrowDown"] * row
    for key in keys:
        page.keyboard.press(key)
    page.wait_for_selector(
        f"{grid} #glide-cell-{col}-{row}[aria-selected='true']", state="attached"
    )
    page.keyboard.press("Enter")
    editor = page.locator("input.gdg-input, textarea.gdg-input").first
    editor.fill(value)
    editor.press("Enter")


def test_type_tokens_and_edit_a_grid_cell(page: Page, console_errors) -> None:
    goto(page, "/inputs")
    before = cell_texts(page, PREVIEW)
    assert len(before) == 36  # 6 x 6 weights for "the cat sat on the mat"

    box = page.locator(".st-key-tokens_text input")
    box.fill("the cat sat on the mat today")
    box.press("Enter")
    after_tokens = wait_for_change(page, PREVIEW, before)
    assert len(after_tokens) == 49
    assert "today" in page.locator(f"{PREVIEW} .xtick text").all_text_contents()
    s = scenario_in_url(page)
    assert s.tokens[-1] == "today" and s.X.shape == (7, 4)

    set_grid_cell(page, "[class*='st-key-grid_X_']", col=1, row=1, value="5", n_cols=4)
    after_edit = wait_for_change(page, PREVIEW, after_tokens)
    s = scenario_in_url(page)
    assert s.X[1, 0] == 5.0
    t = s.trace()
    shown = np.array([float(x.replace("−", "-")) for x in after_edit]).reshape(7, 7)
    np.testing.assert_allclose(shown, t.weights, atol=5e-4)  # printed with 3 decimals
    # The sidebar is drawn after the page, so its links already carry the edited scenario.
    href = page.locator(".st-key-nav a", has_text="3. Scores").first.get_attribute("href") or ""
    assert parse_qs(urlparse(href).query)["s"][0] == parse_qs(urlparse(page.url).query)["s"][0]
    shot(page, "walkthrough_inputs_edited")
    console_errors.assert_clean("inputs page")


def test_pick_a_score_cell_by_clicking(page: Page, console_errors) -> None:
    goto(page, "/scores")
    chart = ".st-key-scores_chart"
    page.wait_for_selector(f"{chart} .heatmap-label", timeout=30_000)
    drag = page.locator(f"{chart} .nsewdrag").first
    box = drag.bounding_box()
    assert box is not None
    # 6 x 6 grid: click the centre of row 3 ("sat"), column 2 ("cat").
    page.mouse.click(box["x"] + box["width"] * 1.5 / 6, box["y"] + box["height"] * 2.5 / 6)
    page.wait_for_function(
        "document.querySelector('.st-key-scores_pick_q input').value === 'sat'", timeout=15_000
    )
    wait_idle(page)
    assert page.locator(".st-key-scores_pick_k input").input_value() == "cat"
    score = PRESETS["cat_mat"].build().trace().scores[2, 1]
    breakdown = page.locator(f"{MAIN} .katex").all_inner_texts()
    assert any(f"{score:.4g}" in t for t in breakdown), breakdown
    shot(page, "walkthrough_scores_clicked")
    console_errors.assert_clean("scores page")


def test_shared_link_opens_the_same_numbers(page: Page, new_context) -> None:
    s = PRESETS["hungry"].build().replace(scaled=False)
    goto(page, f"/softmax?s={s.to_url()}")
    mine = cell_texts(page, ".st-key-softmax_chart")
    link = page.url
    assert scenario_in_url(page) == s
    other = new_context().new_page()
    goto(other, link)
    assert cell_texts(other, ".st-key-softmax_chart") == mine
    weights = s.trace().weights[0]
    assert mine == [f"{w:.3f}" for w in weights]


def test_next_link_then_back_takes_one_press(page: Page, console_errors) -> None:
    goto(page, "/inputs")
    length = page.evaluate("history.length")
    page.get_by_text("2. Projections →").click()
    page.wait_for_url("**/projections?s=*")
    wait_idle(page)
    assert page.evaluate("history.length") == length + 1  # the link carried ?s= along
    page.go_back()
    page.wait_for_url("**/inputs?s=*")
    wait_idle(page)
    assert page.locator(f"{MAIN} h1").first.inner_text() == "1. Inputs"
    console_errors.assert_clean("prev/next links")


def test_sidebar_links_keep_the_scenario_and_back_takes_one_press(page: Page) -> None:
    s = PRESETS["quiz88"].build()
    goto(page, f"/inputs?s={s.to_url()}")
    length = page.evaluate("history.length")
    page.locator("[data-testid='stSidebar']").get_by_text("3. Scores", exact=True).click()
    page.wait_for_url("**/scores?s=*")
    wait_idle(page)
    assert scenario_in_url(page) == s
    assert page.evaluate("history.length") == length + 1
    page.go_back()
    page.wait_for_url("**/inputs?s=*")
    wait_idle(page)
    assert page.locator(f"{MAIN} h1").first.inner_text() == "1. Inputs"
