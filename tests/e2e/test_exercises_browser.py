"""Exercises in a real browser: solve the paper guide's toy end to end by typing.

Uses the shared fixtures of tests/e2e/conftest.py (one server per session, Debian's
Chromium, ``page`` with the server as base_url); the conftest marks this module e2e.
"""

from __future__ import annotations

from helpers import ALERT, EXCEPTION, MAIN, goto, nav_link, shot, wait_idle
from playwright.sync_api import Locator, Page, expect

from attention_core.exercises import exercise_by_id

# What a learner would type for each step of the paper guide's toy, and a first slip.
ANSWERS = {
    "scores": "1, 2",
    "scaled": "0.7071, 1.4142",
    "weights": "0.3303, 0.6697",
    "output": "16.697",
}
TWO_HEADS = {
    "head1": "0.804 0.196\n0.196 0.804",
    "head2": "0.056 0.944\n0.804 0.196",
    "concat": "1.609 0.391 1 1.888\n0.391 1.609 1 0.391",
    "final": "2.609 2.280 0.609 -1.497\n1.391 2 -0.609 1.218",
}


def answer_box(page: Page, exercise: str, step: str) -> Locator:
    """The text box of a step: Streamlit puts ``st-key-<key>`` on each keyed widget."""
    key = f".st-key-ex_{exercise}_{step}"
    return page.locator(f"{key} input, {key} textarea")


def check(page: Page, exercise: str, step: str) -> None:
    page.locator(f".st-key-ex_{exercise}_{step}_check button").click()
    wait_idle(page)


def card_alerts(page: Page, exercise: str) -> Locator:
    return page.locator(f".st-key-card_{exercise} {ALERT}")


def solve(page: Page, exercise: str, answers: dict[str, str]) -> Locator:
    """Type and check every step's answer; each card alert then says "Correct"."""
    for step, text in answers.items():
        answer_box(page, exercise, step).fill(text)
        check(page, exercise, step)
    alerts = card_alerts(page, exercise)
    expect(alerts).to_have_count(len(answers))
    for i in range(len(answers)):
        expect(alerts.nth(i)).to_contain_text("Correct")
    return alerts


def test_solve_the_paper_toy_by_typing(page: Page, console_errors) -> None:
    goto(page, "/exercises")
    expect(page.locator(f"{MAIN} h1")).to_have_text("Exercises")
    progress = page.get_by_text("0 of 25 steps right")
    expect(progress).to_be_visible()

    # A slip first: the unscaled scores where the scaled ones belong.
    box = answer_box(page, "paper_toy", "scaled")
    box.fill("1, 2")
    check(page, "paper_toy", "scaled")
    alert = card_alerts(page, "paper_toy")
    expect(alert).to_have_count(1)
    expect(alert).to_contain_text("forgot to scale")

    # Then every step right, typed into the boxes (clicking Check commits the text).
    alerts = solve(page, "paper_toy", ANSWERS)
    expect(alerts.nth(3)).to_contain_text("the guide's rounded weights")
    expect(page.get_by_text("4 of 25 steps right")).to_be_visible()
    expect(page.locator(".st-key-card_paper_toy").get_by_text("Steps: all done")).to_be_visible()

    # The solution shows every step as the core computes it.
    page.locator(".st-key-ex_paper_toy_solution button").click()
    wait_idle(page)
    solution = page.locator(".st-key-solution_paper_toy")
    expect(solution).to_contain_text("16.698")
    expect(solution.locator(".katex").first).to_be_visible()
    assert page.locator(EXCEPTION).count() == 0

    shot(page, "exercises")
    console_errors.assert_clean("exercises page")


def test_typed_answers_and_progress_survive_a_page_visit(page: Page) -> None:
    goto(page, "/exercises")
    box = answer_box(page, "paper_toy", "scores")
    box.fill("1, 2")
    box.press("Enter")
    wait_idle(page)
    check(page, "paper_toy", "scores")
    draft = answer_box(page, "paper_toy", "weights")
    draft.fill("0.33")
    draft.press("Enter")
    wait_idle(page)

    nav_link(page, "Start").click()
    wait_idle(page)
    nav_link(page, "Exercises").click()
    wait_idle(page)

    expect(answer_box(page, "paper_toy", "scores")).to_have_value("1, 2")
    expect(answer_box(page, "paper_toy", "weights")).to_have_value("0.33")
    expect(page.get_by_text("1 of 25 steps right")).to_be_visible()
    assert exercise_by_id("paper_toy").step("scores").title == "Q Kᵀ"


def test_solve_the_two_head_exercise_by_typing(page: Page) -> None:
    goto(page, "/exercises")
    page.get_by_role("tab", name="7 · Two heads").click()
    card = page.locator(".st-key-card_two_heads")
    expect(card.locator(".katex").first).to_be_visible()

    # Forgetting W_O is named, then every step typed right (numbers worked by hand).
    answer_box(page, "two_heads", "final").fill("1.609 0.391 1 1.888\n0.391 1.609 1 0.391")
    check(page, "two_heads", "final")
    expect(card_alerts(page, "two_heads")).to_contain_text("forgot W_O")
    solve(page, "two_heads", TWO_HEADS)
    expect(card.get_by_text("Steps: all done")).to_be_visible()
    assert page.locator(EXCEPTION).count() == 0
    shot(page, "exercises-two-heads")
