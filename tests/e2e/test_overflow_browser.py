"""A learner types 1e308 into a vector on the walkthrough (issue 41, defect 9): the page says
which score overflows and why, in the learner's language; the other inputs stay; fixing the
number brings the charts back. In English and in German, on a desktop.

Uses the shared server of tests/e2e/conftest.py.
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction

import pytest
from helpers import MAIN, shot, wait_idle
from page_objects import InputsPage
from playwright.sync_api import Page, expect

from attention_core import PRESETS, label_tokens

pytestmark = pytest.mark.e2e
# The message's first words and its pair, per language (the catalogues' own words)
SAID = {
    "en": r"the scores overflow: q·k for \((.+?), (.+?)\) is (larger|smaller) than 1\.8e\+308",
    "de": r"die Scores laufen über: q·k für \((.+?), (.+?)\) ist (größer|kleiner) als 1\.8e\+308",
}


def overflowing_pairs(X: list[list[float]]) -> set[tuple[str, str]]:
    """The (query, key) tokens whose exact q·k is beyond float64's largest number, from the
    preset's weights and ``X`` in exact arithmetic (not the app's code)."""
    s = PRESETS["cat_mat"].build()
    F = lambda M: [[Fraction(float(x)) for x in row] for row in M]  # noqa: E731
    mul = lambda A, B: [[sum((a * b for a, b in zip(r, c, strict=True)), Fraction(0))  # noqa: E731
                         for c in zip(*B, strict=True)] for r in A]  # fmt: skip
    Q, K = mul(F(X), F(s.W_q)), mul(F(X), F(s.W_k))
    big = Fraction(sys.float_info.max)
    labels = label_tokens(s.tokens)  # "the (1)", as the grid's rows and the charts say
    return {(labels[i], labels[j]) for i, q in enumerate(Q) for j, k in enumerate(K)
            if abs(sum((a * b for a, b in zip(q, k, strict=True)), Fraction(0))) > big}  # fmt: skip


def journey(page: Page, lang: str) -> None:
    inputs = InputsPage(page).open(f"?lang={lang}")
    start = inputs.scenario()
    grid = inputs.grid("X", n_cols=4)
    before = inputs.preview.cell_texts()
    grid.set_cell(col=2, row=0, value="5")  # an edit of the learner's, to be kept
    edited = inputs.preview.wait_for_change(before)

    grid.set_cell(col=1, row=0, value="1e308")
    message = page.locator(MAIN).get_by_text(re.compile(SAID[lang]))
    expect(message).to_be_visible(timeout=30_000)
    wait_idle(page)
    said = message.inner_text()
    X = [list(row) for row in start.X]
    X[0][1], X[0][0] = 5.0, 1e308
    pair = re.search(SAID[lang], said).group(1, 2)
    assert pair in overflowing_pairs(X), (said, overflowing_pairs(X))
    text = page.locator(MAIN).inner_text()
    assert "nan" not in text and "Traceback" not in text
    kept = inputs.scenario()  # the address keeps the learner's last valid scenario
    assert kept.X[0, 1] == 5.0 and kept.tokens == start.tokens
    assert inputs.preview.cell_texts() == edited  # the last good weights, not ∞ or nan
    shot(page, f"overflow_refused_{lang}", full=False)

    grid.set_cell(col=1, row=0, value="2")  # the learner puts it right
    expect(message).to_have_count(0, timeout=30_000)
    wait_idle(page)
    fixed = inputs.scenario()
    assert fixed.X[0, 0] == 2.0 and fixed.X[0, 1] == 5.0  # both edits, none lost
    assert page.locator(f"{MAIN} [data-testid='stException']").count() == 0


def test_1e308_in_a_vector_is_refused_in_english(page: Page, console_errors) -> None:
    journey(page, "en")
    console_errors.assert_clean("the overflow journey")


def test_1e308_in_a_vector_is_refused_in_german(page: Page, console_errors) -> None:
    """On a desktop: the grid recipe of page_objects.DataGrid (a click on the canvas, then
    the keyboard) does not select a cell in a 390 px phone's grid."""
    journey(page, "de")
    console_errors.assert_clean("the overflow journey in German")
