"""The walkthrough in a real browser: type tokens, edit a grid cell, pick a score cell, share.

Uses the fixtures of tests/e2e/conftest.py (one shared server; Debian's Chromium) and the
page objects of page_objects.py.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import numpy as np
from helpers import shot
from page_objects import (
    InputsPage,
    MaskPage,
    ProjectionsPage,
    ScalingPage,
    ScoresPage,
    SoftmaxPage,
    number,
)
from playwright.sync_api import Page, expect

from attention_core import PRESETS


def test_type_tokens_and_edit_a_grid_cell(page: Page, console_errors) -> None:
    inputs = InputsPage(page).open()
    before = inputs.preview.cell_texts()
    assert len(before) == 36  # 6 x 6 weights for "the cat sat on the mat"

    inputs.type_tokens("the cat sat on the mat today")
    after_tokens = inputs.preview.wait_for_change(before)
    assert len(after_tokens) == 49
    assert "today" in inputs.preview.x_labels()
    s = inputs.scenario()
    assert s.tokens[-1] == "today" and s.X.shape == (7, 4)

    inputs.grid("X", n_cols=4).set_cell(col=1, row=1, value="5")
    after_edit = inputs.preview.wait_for_change(after_tokens)
    s = inputs.scenario()
    assert s.X[1, 0] == 5.0
    t = s.trace()
    shown = np.array([number(x) for x in after_edit]).reshape(7, 7)
    np.testing.assert_allclose(shown, t.weights, atol=5e-4)  # printed with 3 decimals
    # The sidebar is drawn after the page, so its links already carry the edited scenario.
    href = inputs.sidebar.link_href("3. Scores")
    assert parse_qs(urlparse(href).query)["s"][0] == parse_qs(urlparse(page.url).query)["s"][0]
    shot(page, "walkthrough_inputs_edited")
    console_errors.assert_clean("inputs page")


def test_pick_a_score_cell_by_clicking(page: Page, console_errors) -> None:
    scores = ScoresPage(page).open()
    # 6 x 6 grid: click the centre of row 3 ("sat"), column 2 ("cat").
    scores.click_cell(row=2, col=1, n_rows=6, n_cols=6, query="sat")
    assert scores.picked_query() == "sat"
    assert scores.picked_key() == "cat"
    score = PRESETS["cat_mat"].build().trace().scores[2, 1]
    breakdown = scores.breakdown_formulas()
    assert any(f"{score:.4g}" in t for t in breakdown), breakdown
    shot(page, "walkthrough_scores_clicked")
    console_errors.assert_clean("scores page")


def test_shared_link_opens_the_same_numbers(page: Page, new_context) -> None:
    s = PRESETS["hungry"].build().replace(scaled=False)
    softmax = SoftmaxPage(page).open(f"?s={s.to_url()}")
    mine = softmax.chart.cell_texts()
    link = page.url
    assert softmax.scenario() == s
    other = SoftmaxPage(new_context().new_page()).open_link(link)
    assert other.chart.cell_texts() == mine
    weights = s.trace().weights[0]
    assert mine == [f"{w:.3f}" for w in weights]


def test_next_link_then_back_takes_one_press(page: Page, console_errors) -> None:
    inputs = InputsPage(page).open()
    length = inputs.history_length()
    inputs.follow_next("2. Projections")
    page.wait_for_url("**/projections?s=*")
    projections = ProjectionsPage(page)
    projections.wait_idle()
    assert projections.history_length() == length + 1  # the link carried ?s= along
    projections.go_back("**/inputs?s=*")
    assert inputs.heading().inner_text() == "1. Inputs"
    console_errors.assert_clean("prev/next links")


def test_sidebar_links_keep_the_scenario_and_back_takes_one_press(page: Page) -> None:
    s = PRESETS["quiz88"].build()
    inputs = InputsPage(page).open(f"?s={s.to_url()}")
    length = inputs.history_length()
    inputs.sidebar.click_text("3. Scores")
    page.wait_for_url("**/scores?s=*")
    scores = ScoresPage(page)
    scores.wait_idle()
    assert scores.scenario() == s
    assert scores.history_length() == length + 1
    scores.go_back("**/inputs?s=*")
    assert inputs.heading().inner_text() == "1. Inputs"


def test_cross_attention_through_mask_scaling_and_softmax(page: Page, console_errors) -> None:
    """Direct mode with 2 queries over 6 keys, padding mask, scaling off: each page's
    numbers are the core's for the scenario in the URL."""
    inputs = InputsPage(page).open()
    inputs.choose_mode("Q, K and V directly")
    before = inputs.preview.cell_texts()
    inputs.type_query_tokens("je suis")
    inputs.preview.wait_for_change(before)
    assert inputs.preview.y_labels() == ["je", "suis"]

    mask = MaskPage(page)
    inputs.sidebar.go_to("5. Mask")
    mask.choose("Padding (last keys are padding)")
    s = mask.scenario()
    assert (s.mask_kind, s.n_valid, s.queries) == ("padding", 5, ("je", "suis"))
    masked = mask.chart.numbers(n_rows=2)
    assert np.isneginf(masked[:, 5]).all()  # the last key is padding, for both queries

    scaling = ScalingPage(page)
    mask.sidebar.go_to("4. Scaling")
    assert scaling.scaling_on()
    scaling.toggle_scaling()
    assert not scaling.scaling_on() and not scaling.scenario().scaled

    softmax = SoftmaxPage(page)
    scaling.sidebar.go_to("6. Softmax")
    t = softmax.scenario().trace()
    shown = softmax.chart.numbers(n_rows=2)  # masked keys read −∞, as on the Mask page
    np.testing.assert_allclose(shown, np.where(t.mask, t.weights, -np.inf), atol=5e-4)
    softmax.pick_row("suis")
    expect(softmax.row_table()).to_be_visible()
    assert softmax.exceptions().count() == 0
    console_errors.assert_clean("cross-attention walkthrough")
