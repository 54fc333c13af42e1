"""Exercises in a real browser: solve the paper guide's toy end to end by typing.

Uses the shared fixtures of tests/e2e/conftest.py (one server per session, Debian's
Chromium, ``page`` with the server as base_url); the conftest marks this module e2e.
"""

from __future__ import annotations

from helpers import shot
from page_objects import ExercisesPage
from playwright.sync_api import Page, expect

from attention_core.exercises import all_exercises, exercise_by_id

# What a learner would type for each step of the paper guide's toy, and a first slip.
ANSWERS = {
    "scores": "1, 2",
    "scaled": "0.7071, 1.4142",
    "weights": "0.3303, 0.6697",
    "output": "16.697",
}
STEPS = sum(len(ex.steps) for ex in all_exercises())  # every step of the catalogue (30)
TWO_HEADS = {
    "head1": "0.804 0.196\n0.196 0.804",
    "head2": "0.056 0.944\n0.804 0.196",
    "concat": "1.609 0.391 1 1.888\n0.391 1.609 1 0.391",
    "final": "2.609 2.280 0.609 -1.497\n1.391 2 -0.609 1.218",
}


def solve(exercises: ExercisesPage, exercise: str, answers: dict[str, str]):
    """Type and check every step's answer; each card alert then says "Correct"."""
    for step, text in answers.items():
        exercises.type_answer(exercise, step, text)
        exercises.check(exercise, step)
    alerts = exercises.card_alerts(exercise)
    expect(alerts).to_have_count(len(answers))
    for i in range(len(answers)):
        expect(alerts.nth(i)).to_contain_text("Correct")
    return alerts


def test_solve_the_paper_toy_by_typing(page: Page, console_errors) -> None:
    exercises = ExercisesPage(page).open()
    expect(exercises.heading()).to_have_text("Exercises")
    expect(exercises.progress(f"0 of {STEPS} steps right")).to_be_visible()

    # A slip first: the unscaled scores where the scaled ones belong.
    exercises.type_answer("paper_toy", "scaled", "1, 2")
    exercises.check("paper_toy", "scaled")
    alert = exercises.card_alerts("paper_toy")
    expect(alert).to_have_count(1)
    expect(alert).to_contain_text("forgot to scale")

    # Then every step right, typed into the boxes (clicking Check commits the text).
    alerts = solve(exercises, "paper_toy", ANSWERS)
    expect(alerts.nth(3)).to_contain_text("the guide's rounded weights")
    expect(exercises.progress(f"4 of {STEPS} steps right")).to_be_visible()
    expect(exercises.card("paper_toy").get_by_text("Steps: all done")).to_be_visible()

    # The solution shows every step as the core computes it.
    solution = exercises.show_solution("paper_toy")
    expect(solution).to_contain_text("16.698")
    expect(solution.locator(".katex").first).to_be_visible()
    assert exercises.exceptions().count() == 0

    shot(page, "exercises")
    console_errors.assert_clean("exercises page")


def test_typed_answers_and_progress_survive_a_page_visit(page: Page) -> None:
    exercises = ExercisesPage(page).open()
    exercises.type_answer("paper_toy", "scores", "1, 2", commit=True)
    exercises.check("paper_toy", "scores")
    exercises.type_answer("paper_toy", "weights", "0.33", commit=True)

    exercises.sidebar.link("Start").click()
    exercises.wait_idle()
    exercises.sidebar.link("Exercises").click()
    exercises.wait_idle()

    expect(exercises.answer_box("paper_toy", "scores")).to_have_value("1, 2")
    expect(exercises.answer_box("paper_toy", "weights")).to_have_value("0.33")
    expect(exercises.progress(f"1 of {STEPS} steps right")).to_be_visible()
    assert str(exercise_by_id("paper_toy").step("scores").title) == "Q Kᵀ"


def test_solve_the_two_head_exercise_by_typing(page: Page) -> None:
    exercises = ExercisesPage(page).open()
    page.get_by_role("tab", name="7 · Two heads").click()
    card = exercises.card("two_heads")
    expect(card.locator(".katex").first).to_be_visible()

    # Forgetting W_O is named, then every step typed right (numbers worked by hand).
    exercises.type_answer("two_heads", "final", "1.609 0.391 1 1.888\n0.391 1.609 1 0.391")
    exercises.check("two_heads", "final")
    expect(exercises.card_alerts("two_heads")).to_contain_text("forgot W_O")
    solve(exercises, "two_heads", TWO_HEADS)
    expect(card.get_by_text("Steps: all done")).to_be_visible()
    assert exercises.exceptions().count() == 0
    shot(page, "exercises-two-heads")
