"""The exercises' answer checking: right answers pass at the asked rounding, each known slip
is named, and malformed input gets a message instead of an exception.

Wrong answers are built here by hand from the lessons' numbers (plain NumPy or literal
values), not read back from the checker's own mistake list, so the test is independent.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import reference_attention

from attention_core import attention, format_matrix
from attention_core.exercises import (
    MISTAKE_LABELS,
    ChoiceStep,
    NumericStep,
    Progress,
    Status,
    all_exercises,
    answer_format,
    check_answer,
    check_choice,
    exercise_by_id,
    format_value,
    output_step,
    parse_answer,
    progress_csv,
    progress_json,
    progress_rows,
    record_attempt,
    scaled_step,
    tolerance,
    weights_step,
)
from tests.tolerance import assert_within, eps, product_bound, softmax_bound

REPO_ROOT = Path(__file__).resolve().parents[2]


def step(exercise: str, step_id: str) -> NumericStep:
    s = exercise_by_id(exercise).step(step_id)
    assert isinstance(s, NumericStep)
    return s


def typed(M: object, decimals: int = 6) -> str:
    """A matrix as a learner would type it: rows on lines, numbers by commas."""
    return "\n".join(", ".join(f"{x:.{decimals}f}" for x in row) for row in np.atleast_2d(M))


def softmax_rows(S: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(S - S.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# ---- the exercises as data ------------------------------------------------------------
def test_the_exercises_cover_the_issue():
    ids = [ex.id for ex in all_exercises()]
    assert ids[:4] == ["paper_toy", "hungry", "quiz88", "why_scale"]
    assert {"causal", "embeddings", "two_heads"} <= set(ids)
    assert len(ids) == len(set(ids))


def test_ids_make_stable_widget_keys():
    for ex in all_exercises():
        assert re.fullmatch(r"[a-z0-9_]+", ex.id)
        step_ids = [s.id for s in ex.steps]
        assert len(step_ids) == len(set(step_ids)), ex.id
        for s in ex.steps:
            assert re.fullmatch(r"[a-z0-9_]+", s.id)
            assert s.hints, f"{ex.id}/{s.id} has no hint"


def test_every_scenario_is_valid_and_every_expected_value_comes_from_its_trace():
    for ex in all_exercises():
        ex.scenario.validate()
        t = ex.scenario.trace()
        stages = {"scores": t.scores, "scaled": t.scaled_scores, "weights": t.weights,
                  "output": t.output}  # fmt: skip
        for s in ex.steps:
            if isinstance(s, NumericStep) and s.id in stages:
                # the steps hold this scenario's trace: recomputed from the same arrays, exact
                np.testing.assert_array_equal(s.expected, stages[s.id], err_msg=f"{ex.id}/{s.id}")


def test_the_lessons_numbers():
    # each to half a unit in the last printed digit; the integers are exact
    np.testing.assert_allclose(step("paper_toy", "weights").expected, [[0.3302, 0.6698]], atol=5e-5)
    np.testing.assert_allclose(step("paper_toy", "output").expected, [[16.6976]], atol=5e-5)
    np.testing.assert_array_equal(step("hungry", "scaled").expected, [[3, 1, 0]])
    hungry_weights = step("hungry", "weights").expected
    np.testing.assert_allclose(hungry_weights, [[0.844, 0.114, 0.042]], atol=5e-4)
    np.testing.assert_allclose(step("hungry", "output").expected, [[2.41477, 3.93965]], atol=5e-6)
    np.testing.assert_array_equal(step("quiz88", "scores").expected, [[3, 1]])
    np.testing.assert_allclose(step("quiz88", "scaled").expected, [[2.1213, 0.7071]], atol=5e-5)
    np.testing.assert_allclose(step("quiz88", "weights").expected, [[0.8044, 0.1956]], atol=5e-5)


def test_expected_arrays_cannot_be_changed_by_accident():
    with pytest.raises(ValueError):
        step("paper_toy", "scores").expected[0, 0] = 99.0


def test_the_why_scale_scenario_really_saturates_without_scaling():
    s = exercise_by_id("why_scale").scenario
    assert not s.scaled
    assert s.trace().weights.max(axis=1).min() > 0.95
    assert s.replace(scaled=True).trace().weights.max(axis=1).max() < 0.75


# ---- right answers pass at the asked rounding -----------------------------------------
def numeric_steps() -> list[tuple[str, NumericStep]]:
    return [
        (f"{ex.id}/{s.id}", s)
        for ex in all_exercises()
        for s in ex.steps
        if isinstance(s, NumericStep)
    ]


# What a learner types for each step, at the asked rounding: the lessons' printed numbers
# (paper guide, post, lesson 88), and for the app's own two cards numbers worked by hand
# (causal: scaled scores [1 0 1; 0 2 1; 2 1 2], softmax([0, 2]) = 0.119 / 0.881;
# embeddings: Q = X W_q, K = X W_k, V = X W_v with the integer matrices of the card).
LESSON_ANSWERS = [
    ("paper_toy", "scores", "1, 2"),
    ("paper_toy", "scores", "[1, 2]"),
    ("paper_toy", "scores", "1 2"),
    ("paper_toy", "scaled", "0.7071, 1.4142"),
    ("paper_toy", "weights", "0.3303, 0.6697"),  # the guide's printed values
    ("paper_toy", "weights", "0.3302, 0.6698"),  # full precision, rounded
    ("paper_toy", "output", "16.697"),
    ("paper_toy", "output", "16.698"),
    ("hungry", "scaled", "3, 1, 0"),
    ("hungry", "weights", "0.844, 0.114, 0.042"),
    ("hungry", "output", "2.414, 3.94"),
    ("hungry", "output", "2.41477, 3.93965"),
    ("quiz88", "scores", "3, 1"),
    ("quiz88", "scaled", "2.1213, 0.7071"),
    ("quiz88", "scaled", "2.1213 0.7071"),
    ("quiz88", "weights", "0.804, 0.196"),
    ("quiz88", "weights", "0.8044, 0.1956"),
    ("quiz88", "weights", "80.4 %, 19.6 %"),
    ("quiz88", "weights", "80.4%, 19.6%"),
    ("quiz88", "weights", "80.44%, 19.56%"),
    ("causal", "scaled", "1 0 1\n0 2 1\n2 1 2"),
    ("causal", "mask", "1 0 0\n1 1 0\n1 1 1"),
    ("causal", "mask", "1,0,0; 1,1,0; 1,1,1"),
    ("causal", "weights", "1 0 0\n0.119 0.881 0\n0.422 0.155 0.422"),
    ("causal", "output", "1 0\n0.119 0.881\n0.845 0.578"),
    ("embeddings", "q", "1 0\n1 1\n2 1"),
    ("embeddings", "k", "1 1\n0 1\n1 2"),
    ("embeddings", "v", "1 0\n0 2\n1 2"),
    ("embeddings", "scaled", "0.707 0 0.707\n1.414 0.707 2.121\n2.121 0.707 2.828"),
    ("embeddings", "weights", "0.401 0.198 0.401\n0.284 0.140 0.576\n0.306 0.074 0.620"),
    ("embeddings", "output", "0.802 1.198\n0.860 1.432\n0.926 1.389"),
    # two heads, worked by hand: see test_the_two_head_numbers_worked_by_hand
    ("two_heads", "head1", "0.804 0.196\n0.196 0.804"),
    ("two_heads", "head2", "0.056 0.944\n0.804 0.196"),
    ("two_heads", "concat", "1.609 0.391 1 1.888\n0.391 1.609 1 0.391"),
    ("two_heads", "concat", "1.608 0.392 1 1.888\n0.392 1.608 1 0.392"),  # weights rounded first
    ("two_heads", "final", "2.609 2.280 0.609 -1.497\n1.391 2 -0.609 1.218"),
    # the decoder's two (tests/core/test_exercises_generation.py works them out)
    ("temperature", "temperature", "0.865, 0.117, 0.016, 0.002"),
    ("temperature", "top_k", "0.881, 0.119, 0, 0"),
    ("online_softmax", "running_sum", "3, 1.5530"),
    ("online_softmax", "final_output", "1.4070, 0.2689"),
]


def test_every_numeric_step_has_a_literal_answer():
    covered = {f"{ex}/{step_id}" for ex, step_id, _ in LESSON_ANSWERS}
    assert {name for name, _ in numeric_steps()} <= covered


@pytest.mark.parametrize(("exercise", "step_id", "text"), LESSON_ANSWERS)
def test_the_lessons_answers_are_right(exercise: str, step_id: str, text: str):
    fb = check_answer(step(exercise, step_id), text)
    assert fb.correct, fb.message
    assert fb.mistake is None


def test_unicode_minus_and_spaces_are_fine():
    s = scaled_step(attention(np.array([[1.0, -2.0]]), np.eye(2), np.eye(2)), decimals=4,
                    prompt="", hints=())  # fmt: skip
    assert check_answer(s, "  0.7071 ,  \u22121.4142  ").correct


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        ("2.414, 3.94", "the rounded weights 0.844 / 0.114 / 0.042"),
        ("2.414, 3.940", "the rounded weights 0.844 / 0.114 / 0.042"),
        ("2.41477, 3.93965", "the full-precision weights"),
        ("2.415, 3.940", "the full-precision weights"),
    ],
)
def test_the_hungry_output_says_which_weights_were_used(text: str, variant: str):
    fb = check_answer(step("hungry", "output"), text)
    assert fb.correct and fb.variant == variant
    assert variant in fb.message


def test_the_paper_toy_output_says_which_weights_were_used():
    s = step("paper_toy", "output")
    assert "guide's rounded weights" in check_answer(s, "16.697").message
    assert "full-precision" in check_answer(s, "16.6976").message


def test_an_answer_inside_the_slack_but_off_the_rounding_says_so():
    fb = check_answer(step("paper_toy", "weights"), "0.3303, 0.6697")
    assert fb.correct
    assert "0.3302, 0.6698" in fb.message


def test_percentages_without_the_sign_are_read_as_percentages():
    fb = check_answer(step("quiz88", "weights"), "80.4, 19.6")
    assert fb.correct and "percentages" in fb.message


def test_tolerance_follows_the_asked_decimals():
    # 10.0**-3 within 1 ulp (pow), the literal 0.001 within half of one: under 2 eps
    assert tolerance(3) == pytest.approx(0.001, rel=2 * eps(np.float64))
    assert tolerance(None) < 1e-5
    s = step("quiz88", "scaled")  # 2.12132..., 0.70711..., to 4 decimals
    assert check_answer(s, "2.1214, 0.7072").correct  # one unit off in the last place
    assert not check_answer(s, "2.1216, 0.7071").correct  # three units off
    exact = step("quiz88", "scores")
    assert not check_answer(exact, "3.01, 1").correct


# ---- every listed mistake is named ----------------------------------------------------
QUIZ_SCORES = np.array([[3.0, 1.0]])  # q = [1, 2]; k1 = [1, 1], k2 = [1, 0]; d_k = 2
QUIZ_SCALED = QUIZ_SCORES / math.sqrt(2)


@pytest.mark.parametrize(
    ("exercise", "step_id", "wrong", "mistake"),
    [
        # forgot to scale: the raw dot products where the scaled ones belong
        ("quiz88", "scaled", QUIZ_SCORES, "unscaled"),
        ("hungry", "scaled", np.array([[6.0, 2.0, 0.0]]), "unscaled"),
        # divided by d_k instead of sqrt(d_k)
        ("quiz88", "scaled", QUIZ_SCORES / 2, "divided_by_dk"),
        ("hungry", "scaled", np.array([[1.5, 0.5, 0.0]]), "divided_by_dk"),
        ("quiz88", "weights", softmax_rows(QUIZ_SCORES / 2), "divided_by_dk"),
        # softmax over the wrong axis: down the columns of the (1, 2) scores gives ones
        ("quiz88", "weights", np.array([[1.0, 1.0]]), "softmax_columns"),
        # transposed the product: K Q^T is a column for a single query
        ("quiz88", "scores", QUIZ_SCORES.T, "transposed"),
        ("paper_toy", "scaled", np.array([[0.7071], [1.4142]]), "transposed"),
        # used the unscaled scores in softmax
        ("quiz88", "weights", softmax_rows(QUIZ_SCORES), "softmax_unscaled"),
        ("hungry", "weights", softmax_rows(np.array([[6.0, 2.0, 0.0]])), "softmax_unscaled"),
        # ... which at the output step means the scaling was forgotten
        ("hungry", "output", softmax_rows(np.array([[6.0, 2.0, 0.0]])) @ [[2, 4], [6, 2], [1, 8]],
         "unscaled"),
        # rounding too early: weights to 1 decimal before multiplying by V
        ("hungry", "output", np.array([[0.8, 0.1, 0.0]]) @ [[2, 4], [6, 2], [1, 8]],
         "rounded_early"),
        ("paper_toy", "output", np.array([[0.3 * 10 + 0.7 * 20]]), "rounded_early"),
        # ... or the scaled scores to 1 decimal before the softmax
        ("quiz88", "weights", softmax_rows(np.array([[2.1, 0.7]])), "rounded_early"),
        # ... or sqrt(2) to 1.4
        ("paper_toy", "scaled", np.array([[1 / 1.4, 2 / 1.4]]), "rounded_early"),
    ],
)  # fmt: skip
def test_each_listed_mistake_is_named(exercise, step_id, wrong, mistake):
    s = step(exercise, step_id)
    decimals = 4 if s.decimals is None else s.decimals
    fb = check_answer(s, typed(np.asarray(wrong, dtype=float), decimals))
    assert not fb.correct
    assert fb.mistake == mistake, fb.message
    assert fb.message


def test_the_named_mistakes_read_well():
    fb = check_answer(step("quiz88", "scaled"), "3, 1")
    assert "forgot to scale" in fb.message and "√2" in fb.message
    fb = check_answer(step("quiz88", "scaled"), "1.5, 0.5")
    assert "d_k = 2" in fb.message and "√" in fb.message
    fb = check_answer(step("quiz88", "weights"), "1, 1")
    assert "column" in fb.message and "row" in fb.message
    fb = check_answer(step("quiz88", "scores"), "3; 1")
    assert "K Qᵀ" in fb.message
    fb = check_answer(step("hungry", "output"), "2.2, 3.4")
    assert "rounded the weights to 1 decimal" in fb.message


def test_a_slip_rounded_more_coarsely_is_still_named():
    # 1/1.4 and 2/1.4 typed to 3 decimals, on a step that asks for 4
    fb = check_answer(step("paper_toy", "scaled"), "0.714, 1.429")
    assert fb.mistake == "rounded_early"
    fb = check_answer(step("quiz88", "weights"), "88.1 %, 11.9 %")
    assert fb.mistake == "softmax_unscaled"


def test_the_right_numbers_with_too_few_decimals_are_named():
    fb = check_answer(step("paper_toy", "weights"), "0.33, 0.67")
    assert fb.mistake == "too_few_decimals" and "4 decimals" in fb.message
    fb = check_answer(step("quiz88", "weights"), "80 %, 20 %")
    assert fb.mistake == "too_few_decimals" and "percentage" in fb.message


def test_mask_mistakes():
    # worked by hand from the causal card's scaled scores [1 0 1; 0 2 1; 2 1 2]
    cases = {
        "mask_flipped": ("1 1 1\n0 1 1\n0 0 1", "mask"),
        "mask_no_self": ("0 0 0\n1 0 0\n1 1 0", "mask"),
        "mask_inverted": ("0 1 1\n0 0 1\n0 0 0", "mask"),  # issue 34: 1 = blocked
        # softmax of every row with nothing blocked
        "no_mask": ("0.422 0.155 0.422\n0.090 0.665 0.245\n0.422 0.155 0.422", "weights"),
        # softmax down the columns of [1 -∞ -∞; 0 2 -∞; 2 1 2]
        "softmax_columns": ("0.245 0 0\n0.090 0.731 0\n0.665 0.269 1", "weights"),
        "transposed": ("1 0.119 0.422\n0 0.881 0.155\n0 0 0.422", "weights"),
    }
    for key, (wrong, step_id) in cases.items():
        fb = check_answer(step("causal", step_id), wrong)
        assert fb.mistake == key, (key, fb.message)


def test_projection_mistakes():
    fb = check_answer(step("embeddings", "q"), "1 1\n0 1\n1 2")  # X W_k
    assert fb.mistake == "wrong_projection" and "W_q" in fb.message
    fb = check_answer(step("embeddings", "q"), "1 1 2\n0 1 1")  # (X W_q)ᵀ
    assert fb.mistake == "transposed"


def test_every_mistake_key_has_a_label():
    for _, s in numeric_steps():
        for m in s.mistakes:
            assert m.key in MISTAKE_LABELS
            assert m.label and m.message


def test_no_mistake_is_indistinguishable_from_a_right_answer():
    for name, s in numeric_steps():
        for m in s.mistakes:
            fb = check_answer(s, typed(m.value, 8))
            assert not fb.correct, (name, m.key)


# ---- malformed answers get a message --------------------------------------------------
@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "Type your answer"),
        ("   \n ", "Type your answer"),
        ("abc", "not a number"),
        ("1, two", "not a number"),
        ("1,,2", "empty"),
        ("[1, 2", "brackets"),
        ("1 2\n3", "same number of columns"),
        ("1e999, 2", "too large"),
        ("80%, 0.196", "% sign"),
        ("1 2 3", "1 row × 2 columns"),
        ("1; 2; 3", "1 row × 2 columns"),
        ("=HYPERLINK(1)", "not a number"),
        ("<script>alert(1)</script>", "Could not read"),
    ],
)
def test_malformed_answers_get_a_message(text: str, needle: str):
    fb = check_answer(step("quiz88", "weights"), text)
    assert not fb.correct
    assert needle in fb.message


def test_percent_signs_where_plain_numbers_are_asked():
    fb = check_answer(step("quiz88", "scaled"), "80 %")
    assert not fb.correct and "% sign" in fb.message


def test_parse_answer_reads_percentages_only_when_allowed():
    M, used = parse_answer("80.4 %, 19.6%", allow_percent=True)
    # 80.4 read (u), divided by 100 (u), against 0.804 stored (u): 3u
    np.testing.assert_allclose(M, [[0.804, 0.196]], rtol=1.5 * eps(np.float64), atol=0)
    assert used
    M, used = parse_answer("0.5, 0.5", allow_percent=True)
    assert not used


def test_wrong_values_messages_point_at_the_first_bad_number_and_the_row_sums():
    fb = check_answer(step("causal", "weights"), "1 0 0\n0.5 0.5 0\n0.3 0.3 0.3")
    assert "row 2, column 1" in fb.message
    assert "row 3 adds up to 0.9" in fb.message


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_check_answer_never_raises(text: str):
    for s in (step("quiz88", "weights"), step("causal", "mask"), step("paper_toy", "output")):
        fb = check_answer(s, text)
        assert isinstance(fb.message, str) and fb.message


# ---- builders on random inputs --------------------------------------------------------
small = st.integers(-3, 3).map(float)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 3).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(small, min_size=4, max_size=4), min_size=1, max_size=2),
            st.lists(st.lists(small, min_size=4, max_size=4), min_size=n, max_size=n),
            st.lists(st.lists(small, min_size=2, max_size=2), min_size=n, max_size=n),
        )
    )
)
def test_builders_accept_the_rounded_answer_and_name_forgetting_to_scale(qkv):
    Q, K, V = (np.array(M) for M in qkv)
    t = attention(Q, K, V)  # d_k = 4, so the scale is exactly 1/2
    scaled = scaled_step(t, decimals=3, prompt="", hints=())
    weights = weights_step(t, decimals=3, prompt="", hints=())
    out = output_step(t, decimals=3, weight_decimals=3, prompt="", hints=())
    ref = reference_attention(Q, K, V)  # the slow loops, not the core
    wanted = ((scaled, ref.scaled_scores), (weights, ref.weights), (out, ref.output))
    for s, want in wanted:
        assert check_answer(s, format_matrix(np.round(want, 3), digits=10)).correct
    if np.any(np.array(ref.scores) != 0):
        fb = check_answer(scaled, format_matrix(np.array(ref.scores), digits=10))
        assert fb.mistake in {"unscaled", "transposed"}


# ---- multiple choice ------------------------------------------------------------------
def test_check_choice():
    s = exercise_by_id("why_scale").steps[0]
    assert isinstance(s, ChoiceStep)
    right = check_choice(s, s.answer_index)
    assert right.correct and "gradient" in right.message
    for i in range(len(s.choices)):
        if i != s.answer_index:
            fb = check_choice(s, i)
            assert not fb.correct and fb.mistake and fb.message
    assert not check_choice(s, None).correct
    assert not check_choice(s, 17).correct
    assert s.see_also == "scaling-lab"


# ---- progress -------------------------------------------------------------------------
def test_progress_records_downloads_and_csv_safety():
    exercises = all_exercises()
    progress: Progress = {}
    for step_id, text in [("weights", "=1+1"), ("weights", "80.4 %, 19.6 %"), ("scaled", "3, 1")]:
        fb = check_answer(step("quiz88", step_id), text)
        record_attempt(progress, "quiz88", step_id, text, fb)
    rows = {(r["exercise"], r["step"]): r for r in progress_rows(exercises, progress)}
    assert len(rows) == sum(len(ex.steps) for ex in exercises)
    assert rows[("quiz88", "weights")]["status"] == "right"
    assert rows[("quiz88", "weights")]["attempts"] == 2
    assert rows[("quiz88", "scaled")]["mistake"] == "forgot to scale"
    assert rows[("paper_toy", "scores")]["status"] == "not tried"

    doc = json.loads(progress_json(exercises, progress))
    assert doc["summary"]["right"] == 1
    assert doc["summary"]["steps"] == len(rows)

    progress["quiz88"]["weights"].answer = "=HYPERLINK(1)"
    table = list(csv.DictReader(io.StringIO(progress_csv(exercises, progress))))
    assert len(table) == len(rows)
    cell = next(r for r in table if r["exercise"] == "quiz88" and r["step"] == "weights")
    assert cell["answer"] == "'=HYPERLINK(1)"
    progress["quiz88"]["weights"].answer = "-0.5, 1"
    table = list(csv.DictReader(io.StringIO(progress_csv(exercises, progress))))
    cell = next(r for r in table if r["exercise"] == "quiz88" and r["step"] == "weights")
    assert cell["answer"] == "-0.5, 1"  # a negative number is left alone


def test_answer_format_and_format_value():
    assert answer_format(step("quiz88", "weights")).english() == (
        "1 row × 2 columns, to 3 decimals (or as percentages, e.g. 80.4 %)"
    )
    assert answer_format(step("causal", "mask")).english() == "3 rows × 3 columns, exact values"
    assert format_value(np.array([[1.0, -0.0, 0.70711]]), 4) == "1, 0, 0.7071"


def test_exercises_module_loads_neither_streamlit_nor_plotly():
    code = (
        "import attention_core.exercises as e, sys; e.all_exercises(); "
        "print('streamlit' in sys.modules, 'plotly' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    assert out.stdout.split() == ["False", "False"]


# ---- the package's shape --------------------------------------------------------------
def test_each_exercises_module_stays_small_but_the_catalogue():
    package = REPO_ROOT / "attention_core" / "exercises"
    sizes = {p.name: len(p.read_text().splitlines()) for p in package.glob("*.py")}
    assert {"model.py", "checker.py", "mistakes.py", "steps.py", "progress.py"} <= set(sizes)
    assert {name: n for name, n in sizes.items() if n > 450 and name != "catalogue.py"} == {}


def test_the_exercise_scenarios_import_nothing_else_from_the_package():
    # so attention_core.presets can import them without an import cycle
    tree = ast.parse((REPO_ROOT / "attention_core" / "exercises" / "scenarios.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "attention_core.scenario" in imported
    assert not any(m.startswith("attention_core.exercises") for m in imported if m)


def test_a_checked_answer_is_a_typed_record():
    progress: Progress = {}
    rec = record_attempt(
        progress, "quiz88", "scores", "3, 1", check_answer(step("quiz88", "scores"), "3, 1")
    )
    assert rec.status is Status.RIGHT and rec.right and rec.attempts == 1
    rec = record_attempt(
        progress, "quiz88", "scores", "1, 3", check_answer(step("quiz88", "scores"), "1, 3")
    )
    assert rec.status is Status.WRONG and not rec.right and rec.attempts == 2
    assert progress["quiz88"]["scores"] is rec
    assert rec.feedback() is not None and not rec.feedback().correct


# ---- the right numbers in the wrong order (issue 12) ---------------------------------
@pytest.mark.parametrize(
    ("exercise", "step_id", "text", "where"),
    [
        # the post's weights for animal, jungle, hunt typed hunt first
        ("hungry", "weights", "0.042, 0.114, 0.844", "the numbers are in reverse order"),
        ("hungry", "weights", "0.844, 0.042, 0.114", "columns 2 and 3 are swapped"),
        # lesson 88's 80.4 % / 19.6 %, as fractions and as percentages
        ("quiz88", "weights", "0.196, 0.804", "the two numbers are swapped"),
        ("quiz88", "weights", "19.6 %, 80.4 %", "the two numbers are swapped"),
        ("quiz88", "scaled", "0.7071, 2.1213", "the two numbers are swapped"),
        # the post's output [2.414, 3.94] with its coordinates exchanged
        ("hungry", "output", "3.94, 2.414", "the two numbers are swapped"),
        ("paper_toy", "scaled", "1.4142, 0.7071", "the two numbers are swapped"),
        # causal weights (hand-worked: softmax([0, 2]) = 0.119 / 0.881) with row 2 swapped
        ("causal", "weights", "1 0 0\n0.881 0.119 0\n0.422 0.155 0.422",
         "in row 2, columns 1 and 2 are swapped"),
        # the causal outputs with the first two tokens' rows exchanged
        ("causal", "output", "0.119 0.881\n1 0\n0.845 0.578", "rows 1 and 2 are swapped"),
    ],
)  # fmt: skip
def test_an_answer_in_the_wrong_order_is_named(exercise, step_id, text, where):
    fb = check_answer(step(exercise, step_id), text)
    assert not fb.correct
    assert fb.mistake == "swapped_order", fb.message
    assert where in fb.message and "wrong order" in fb.message
    assert "off by" not in fb.message


def test_several_rows_out_of_order_are_all_mentioned():
    fb = check_answer(step("causal", "weights"), "0 0 1\n0.881 0.119 0\n0.422 0.422 0.155")
    assert fb.mistake == "swapped_order"
    assert "in row 1, the numbers are in reverse order (rows 2 and 3 also out of order)" in (
        fb.message
    )


def test_other_numbers_in_another_order_are_just_wrong():
    fb = check_answer(step("hungry", "weights"), "0.040, 0.114, 0.846")
    assert fb.mistake is None and "off by more than ±0.001" in fb.message


# ---- two heads (issue 9) --------------------------------------------------------------
def softmax_pair(a: float, b: float) -> list[float]:
    return [1 / (1 + math.exp(b - a)), 1 / (1 + math.exp(a - b))]


def test_the_two_head_numbers_worked_by_hand():
    # X = [1 0 0 1; 0 1 1 0], W_q = I, so Q = X. K = X W_k = [2 0 2 0; 0 2 0 4].
    # Head 1 (columns 1-2): Q1 = I, K1 = 2I, scores [2 0; 0 2]. Head 2 (columns 3-4):
    # Q2 = [0 1; 1 0], K2 = [2 0; 0 4], scores [0 4; 2 0]. Each divided by √2.
    r2 = math.sqrt(2)
    head1 = [softmax_pair(2 / r2, 0), softmax_pair(0, 2 / r2)]
    head2 = [softmax_pair(0, 4 / r2), softmax_pair(2 / r2, 0)]
    # V = X W_v = [2 0 1 0; 0 2 1 2]: V1 = 2I, V2 = [1 0; 1 2].
    out1 = [[2 * w[0], 2 * w[1]] for w in head1]
    out2 = [[w[0] + w[1], 2 * w[1]] for w in head2]
    concat = [out1[i] + out2[i] for i in range(2)]
    # W_o = [I I; I -I]: [a b c d] -> [a + c, b + d, a - c, b - d]
    output = [[a + c, b + d, a - c, b - d] for a, b, c, d in concat]
    ex = exercise_by_id("two_heads")
    # The scores are integers and 2/√2 = 2 fl(1/√2), so both sides softmax the same logits;
    # 1 / (1 + exp(b - a)) is another evaluation of that softmax (softmax_bound), carried
    # through V and W_O (product_bound; concatenating adds nothing).
    logits1 = np.array([[2 / r2, 0], [0, 2 / r2]])
    logits2 = np.array([[0, 4 / r2], [2 / r2, 0]])
    b1, b2 = softmax_bound(logits1, head1), softmax_bound(logits2, head2)
    V1, V2 = np.array([[2.0, 0], [0, 2]]), np.array([[1.0, 0], [1, 2]])
    b_concat = np.hstack([product_bound(head1, V1, b1), product_bound(head2, V2, b2)])
    W_o = np.block([[np.eye(2), np.eye(2)], [np.eye(2), -np.eye(2)]])
    b_final = product_bound(concat, W_o, b_concat)
    checks = {"head1": (head1, b1), "head2": (head2, b2), "concat": (concat, b_concat),
              "final": (output, b_final)}  # fmt: skip
    for step_id, (want, bound) in checks.items():
        assert_within(step("two_heads", step_id).expected, want, bound, step_id)
    # printed to 3 decimals: half a unit
    np.testing.assert_allclose(output, [[2.609, 2.280, 0.609, -1.497], [1.391, 2, -0.609, 1.218]],
                               atol=5e-4)  # fmt: skip
    assert [s.id for s in ex.steps] == ["head1", "head2", "concat", "final"]


@pytest.mark.parametrize(
    ("step_id", "text", "mistake"),
    [
        # head 1 with scores [2 0; 0 2] divided by √4 = 2: softmax([1, 0]) = 0.731 / 0.269
        ("head1", "0.731 0.269\n0.269 0.731", "scaled_by_d_model"),
        # ... not divided at all: softmax([2, 0]) = 0.881 / 0.119
        ("head1", "0.881 0.119\n0.119 0.881", "softmax_unscaled"),
        # head 1 worked on head 2's columns: head 2's weights
        ("head1", "0.056 0.944\n0.804 0.196", "wrong_head_slice"),
        # head 1's queries with head 2's keys: scores [2 0; 0 4]
        ("head1", "0.804 0.196\n0.056 0.944", "wrong_head_slice"),
        # head 2's scores [0 4; 2 0] divided by 2: softmax([0, 2]) and softmax([1, 0])
        ("head2", "0.119 0.881\n0.731 0.269", "scaled_by_d_model"),
        ("head2", "0.018 0.982\n0.881 0.119", "softmax_unscaled"),
        ("head2", "0.804 0.196\n0.196 0.804", "wrong_head_slice"),
        # head 2 first in the concatenation
        ("concat", "1 1.888 1.609 0.391\n1 0.391 0.391 1.609", "heads_swapped"),
        # the weights side by side, not the outputs
        ("concat", "0.804 0.196 0.056 0.944\n0.196 0.804 0.804 0.196", "forgot_v"),
        # each head scaled by √4: head 1 2·[0.731 0.269], head 2 [1, 2·0.881] and [1, 2·0.269]
        ("concat", "1.462 0.538 1 1.762\n0.538 1.462 1 0.538", "scaled_by_d_model"),
        # the concatenation itself, not multiplied by W_O
        ("final", "1.609 0.391 1 1.888\n0.391 1.609 1 0.391", "forgot_w_o"),
        # [c d a b] W_O = [a + c, b + d, c - a, d - b]
        ("final", "2.609 2.280 -0.609 1.497\n1.391 2 0.609 -1.218", "heads_swapped"),
        ("final", "2.462 2.299 0.462 -1.224\n1.538 2 -0.462 0.924", "scaled_by_d_model"),
    ],
)
def test_the_two_head_slips_are_named(step_id, text, mistake):
    fb = check_answer(step("two_heads", step_id), text)
    assert not fb.correct
    assert fb.mistake == mistake, fb.message
    assert MISTAKE_LABELS[mistake]


def test_the_two_head_slip_messages_point_at_the_fix():
    fb = check_answer(step("two_heads", "head1"), "0.731 0.269\n0.269 0.731")
    assert "√d_model = √4" in fb.message and "1/√d_head = 1/√2" in fb.message
    fb = check_answer(step("two_heads", "head2"), "0.804 0.196\n0.196 0.804")
    assert "head 1's weights" in fb.message and "columns 3 to 4" in fb.message
    fb = check_answer(step("two_heads", "final"), "1.609 0.391 1 1.888\n0.391 1.609 1 0.391")
    assert "forgot W_O" in fb.message


def test_the_two_head_card_opens_head_one_in_the_walkthrough():
    s = exercise_by_id("two_heads").scenario
    assert s.mode == "embeddings" and s.tokens == ("ice", "cream")
    # the same softmax of the same (integer) scores: exactly equal
    np.testing.assert_array_equal(s.trace().weights, step("two_heads", "head1").expected)
    np.testing.assert_array_equal(s.W_k, [[2, 0], [0, 2], [0, 0], [0, 0]])  # W_k's columns 1-2


def test_the_training_exercise_names_its_slips_and_its_scenario_saturates():
    s = exercise_by_id("stall").step("choice")
    assert isinstance(s, ChoiceStep)
    assert s.see_also == "training"
    names = {c.mistake for c in s.choices if not c.correct}
    assert {"thinks the softmax overflows", "blames the learning rate"} <= names
    right = check_choice(s, s.answer_index)
    assert right.correct
    for i in range(len(s.choices)):
        if i != s.answer_index:
            fb = check_choice(s, i)
            assert not fb.correct and fb.mistake == s.choices[i].mistake
    scenario = exercise_by_id("stall").scenario
    assert not scenario.scaled and scenario.Q.shape == (8, 256)
    w = scenario.trace().weights
    assert (w.max(axis=1) > 0.9).sum() >= 6  # most rows start saturated, as the card says
    assert scenario.replace(scaled=True).trace().weights.max() < 0.9
