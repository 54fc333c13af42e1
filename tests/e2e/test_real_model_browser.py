"""The Real model lab in a real browser: a typed sentence, "it", one head stage by stage,
then that head in the walkthrough.

Layer 3, head 1 (the issue's example) is counted as the page counts: 1-based, so it is the
core's ``run.heads[2][0]``. The expected numbers come from the core's own run of the same
sentence (checked against transformers' BertModel in tests/core); the page must show them.
"""

from __future__ import annotations

import re
import time

import numpy as np
import pytest
from helpers import wait_idle
from page_objects import RealModelPage, ScoresPage, number, query
from playwright.sync_api import Page

from attention_core.pretrained import ModelMissing, load_model
from attention_ui.draw.figures import MAX_PRINTED

pytestmark = pytest.mark.e2e

SENTENCE = "The animal in the jungle went out on a hunt because it was hungry."
LAYER, HEAD = 3, 1  # 1-based, as on the page


@pytest.fixture(scope="module")
def run():
    try:
        return load_model().encode(SENTENCE)
    except ModelMissing as exc:
        pytest.skip(f"model not fetched: {exc.command}")


def test_a_sentence_it_and_one_head_stage_by_stage(page: Page, run, console_errors) -> None:
    lab = RealModelPage(page).open()
    assert lab.h1 == "Real model" and lab.exceptions().count() == 0
    lab.type_sentence(SENTENCE)
    assert "[CLS]" in lab.tokens_line() and "hungry" in lab.tokens_line()
    lab.pick_token("it")
    n = len(run.tokens)
    it, animal = run.find("it"), run.find("animal")
    on_target = lab.chart(lab.ON_TARGET).numbers(6)
    np.testing.assert_allclose(on_target, run.weights[:, :, it, animal], atol=0.006)

    lab.watch_gallery()
    t0 = time.perf_counter()
    lab.pick_head(LAYER, HEAD)
    print(f"\npick layer and head -> idle: {(time.perf_counter() - t0) * 1000:.0f} ms")
    assert lab.gallery_stale_flips() == 0  # only the head's fragment reran
    assert query(page.url)["rm_layer"] == "3" and query(page.url)["rm_head"] == "1"
    t = run.heads[LAYER - 1][HEAD - 1]
    scores = lab.open_stage("Scores")
    np.testing.assert_allclose(scores.numbers(n), t.scores, atol=0.006)
    # a real head's grid is too big to print (n > MAX_PRINTED): each number is on hover
    assert n > MAX_PRINTED and page.locator(".st-key-rm_scores_chart .heatmap-label").count() == 0
    assert lab.main_text("hover over a cell (tap it on a phone)").count() > 0  # it says so
    hovered = scores.hover_text(it, animal, n, n)  # "query it → key animal" and its number
    assert "it" in hovered and "animal" in hovered, hovered
    assert number(re.findall(r"[−-]?\d+\.\d+", hovered)[-1]) == pytest.approx(
        t.scores[it, animal], abs=0.006), hovered  # fmt: skip
    scaled = lab.open_stage("Scaling").numbers(n)
    np.testing.assert_allclose(scaled, t.scores / np.sqrt(32), atol=0.006)
    lab.open_stage("Mask")
    assert lab.main_text("no padding").count() > 0
    np.testing.assert_allclose(lab.open_stage("Softmax").numbers(n), t.weights, atol=6e-4)
    lab.open_stage("Output")  # drawn: weights · V, 32 columns
    lab.open_stage("Q, K, V")
    assert lab.main_text("W_Q, W_K and W_V").count() > 0
    assert lab.exceptions().count() == 0

    share = page.url  # the sentence, layer and head travel in the link
    assert query(share)["rm_text"] == SENTENCE
    lab.open_in_walkthrough()
    scores = ScoresPage(page)
    assert scores.h1 == "3. Scores"
    np.testing.assert_allclose(scores.chart.numbers(n), t.scores, atol=0.006)
    assert scores.sidebar.scenario_label().startswith("Scenario: MiniLM layer 3, head 1")
    console_errors.assert_clean("real model page")


def test_the_share_link_reopens_the_same_head(page: Page, run) -> None:
    link = ("/real-model?rm_text=" + SENTENCE.replace(" ", "+")
            + "&rm_token=hunt&rm_layer=3&rm_head=1")  # fmt: skip
    lab = RealModelPage(page).open(link.removeprefix("/real-model"))
    assert lab.sentence() == SENTENCE
    assert (lab.picked("rm_token"), lab.picked("rm_layer"), lab.picked("rm_head")) == (
        "hunt", "3", "1")  # fmt: skip
    wait_idle(page)
    assert re.search(r"rm_layer=3", page.url)
