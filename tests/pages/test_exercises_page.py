"""AppTest of the Exercises page: every exercise solved right and wrong through its widgets,
hints, the solution, progress kept across pages, the walkthrough link and the downloads."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention_core.exercises import (
    ChoiceStep,
    Exercise,
    NumericStep,
    Status,
    StepRecord,
    all_exercises,
    exercise_by_id,
)
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from attention_ui.practice.exercises import PROGRESS, input_key

APP = str(Path(__file__).resolve().parents[2] / "app.py")
EXERCISES = all_exercises()
TOTAL = sum(len(ex.steps) for ex in EXERCISES)


def open_exercises() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(BY_KEY["exercises"].path).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def plain(text: str) -> str:
    """Alert text without the backslashes that keep it from acting as Markdown."""
    return text.replace("\\", "")


def open_tab(at: AppTest, ex: Exercise) -> None:
    """Open the exercise's tab: the tabs are lazy, only the open exercise is drawn."""
    if at.session_state[keys.EXERCISE_TAB] != str(ex.short_title):
        at.session_state[keys.EXERCISE_TAB] = str(ex.short_title)
        at.run()
        assert not at.exception, [e.value for e in at.exception]


def answer(at: AppTest, ex: Exercise, step: NumericStep | ChoiceStep, value: object) -> None:
    """Type (or pick) ``value`` for a step (in its exercise's tab), then press its Check button."""
    open_tab(at, ex)
    key = input_key(ex.id, step.id)
    if isinstance(step, ChoiceStep):
        at.radio(key=key).set_value(value)
    elif step.shape[0] == 1:
        at.text_input(key=key).input(value)
    else:
        at.text_area(key=key).input(value)
    at.button(key=f"{key}_check").click().run()
    assert not at.exception, [e.value for e in at.exception]


def record(at: AppTest, ex: Exercise, step_id: str) -> StepRecord:
    return at.session_state[PROGRESS][ex.id][step_id]


# What a learner types, right and then wrong, with the slip the wrong one should be named
# as. The numbers are the lessons' own (paper guide, post, lesson 88) or worked by hand
# (the causal and embeddings cards); none is read back from a step.
RIGHT: dict[str, dict[str, object]] = {
    "paper_toy": {"scores": "1, 2", "scaled": "0.7071, 1.4142", "weights": "0.3303, 0.6697",
                  "output": "16.697"},
    "hungry": {"scaled": "3, 1, 0", "weights": "0.844, 0.114, 0.042", "output": "2.414, 3.94"},
    "quiz88": {"scores": "3, 1", "scaled": "2.1213, 0.7071", "weights": "80.4 %, 19.6 %"},
    "why_scale": {"choice": 1},  # "The dot products grow with d_k ..."
    "causal": {"scaled": "1 0 1\n0 2 1\n2 1 2", "mask": "1 0 0\n1 1 0\n1 1 1",
               "weights": "1 0 0\n0.119 0.881 0\n0.422 0.155 0.422",
               "output": "1 0\n0.119 0.881\n0.845 0.578"},
    "embeddings": {"q": "1 0\n1 1\n2 1", "k": "1 1\n0 1\n1 2", "v": "1 0\n0 2\n1 2",
                   "scaled": "0.707 0 0.707\n1.414 0.707 2.121\n2.121 0.707 2.828",
                   "weights": "0.401 0.198 0.401\n0.284 0.140 0.576\n0.306 0.074 0.620",
                   "output": "0.802 1.198\n0.860 1.432\n0.926 1.389"},
    "two_heads": {"head1": "0.804 0.196\n0.196 0.804", "head2": "0.056 0.944\n0.804 0.196",
                  "concat": "1.609 0.391 1 1.888\n0.391 1.609 1 0.391",
                  "final": "2.609 2.280 0.609 -1.497\n1.391 2 -0.609 1.218"},
    "stall": {"choice": 1},  # "Its loss falls at first, then stops on a plateau ..."
    "temperature": {"temperature": "0.865, 0.117, 0.016, 0.002", "top_k": "0.881, 0.119, 0, 0"},
    "online_softmax": {"running_sum": "3, 1.5530", "final_output": "1.4070, 0.2689"},
}  # fmt: skip
WRONG: dict[str, dict[str, tuple[object, str | None]]] = {
    "paper_toy": {
        "scores": ("1; 2", "transposed"),  # K Qᵀ: a column
        "scaled": ("1, 2", "unscaled"),
        "weights": ("0.2689, 0.7311", "softmax_unscaled"),  # softmax([1, 2])
        "output": ("17", "rounded_early"),  # 0.3 · 10 + 0.7 · 20
    },
    "hungry": {
        "scaled": ("6, 2, 0", "unscaled"),
        "weights": ("0.980, 0.018, 0.002", "softmax_unscaled"),  # softmax([6, 2, 0])
        "output": ("2.2, 3.4", "rounded_early"),  # 0.8 · [2, 4] + 0.1 · [6, 2]
    },
    "quiz88": {
        "scores": ("3; 1", "transposed"),
        "scaled": ("3, 1", "unscaled"),
        "weights": ("0.881, 0.119", "softmax_unscaled"),  # softmax([3, 1])
    },
    "why_scale": {"choice": (0, "thinks softmax ignores scale")},
    "causal": {
        "scaled": ("2 0 2\n0 4 2\n4 2 4", "unscaled"),
        "mask": ("1 1 1\n0 1 1\n0 0 1", "mask_flipped"),
        "weights": ("0.422 0.155 0.422\n0.090 0.665 0.245\n0.422 0.155 0.422", "no_mask"),
        "output": ("0.845 0.578\n0.335 0.910\n0.845 0.578", "no_mask"),
    },
    "embeddings": {
        "q": ("1 1\n0 1\n1 2", "wrong_projection"),  # X W_k
        "k": ("1 0\n1 1\n2 1", "wrong_projection"),  # X W_q
        "v": ("1 0 1\n0 2 2", "transposed"),
        "scaled": ("1 0 1\n2 1 3\n3 1 4", "unscaled"),
        "weights": (
            "0.422 0.155 0.422\n0.245 0.090 0.665\n0.260 0.035 0.705",
            "softmax_unscaled",
        ),  # softmax of the unscaled rows
        "output": ("0.845 1.155\n0.910 1.510\n0.965 1.481", "unscaled"),
    },
    "two_heads": {
        "head1": ("0.731 0.269\n0.269 0.731", "scaled_by_d_model"),  # divided by √4
        "head2": ("0.804 0.196\n0.196 0.804", "wrong_head_slice"),  # head 1's columns
        "concat": ("1 1.888 1.609 0.391\n1 0.391 0.391 1.609", "heads_swapped"),
        "final": ("1.609 0.391 1 1.888\n0.391 1.609 1 0.391", "forgot_w_o"),
    },
    "stall": {"choice": (2, "thinks the softmax overflows")},
    "temperature": {"temperature": ("0.455, 0.276, 0.167, 0.102", "temp_multiplied"),
                    "top_k": ("0.865, 0.117, 0, 0", "topk_not_renormalised")},
    "online_softmax": {"running_sum": ("3, 2.4177", "online_no_rescale_l"),
                       "final_output": ("1.9638, 1.7824", "online_wrong_exponent")},
}  # fmt: skip


def test_the_literal_answers_cover_every_step():
    for ex in EXERCISES:
        assert set(RIGHT[ex.id]) == set(WRONG[ex.id]) == {s.id for s in ex.steps}, ex.id


def progress_text(at: AppTest) -> str:
    return at.get("progress")[0].proto.text


def test_the_page_renders_every_exercise():
    at = open_exercises()
    assert at.title[0].value == BY_KEY["exercises"].title
    assert [t.label for t in at.tabs] == [str(ex.short_title) for ex in EXERCISES]
    for ex in EXERCISES:
        open_tab(at, ex)
        for step in ex.steps:
            key = input_key(ex.id, step.id)
            # a lookup by key raises when the key is missing; the labels say what is drawn
            assert at.button(key=f"{key}_check").label == "Check"
            hint = at.button(key=f"{key}_hint")
            assert (hint.label, hint.disabled) == ("Hint", False)
        assert at.button(key=f"ex_{ex.id}_open").label == "Open in the walkthrough"
    assert f"0 of {TOTAL} steps right" in progress_text(at)


@pytest.mark.parametrize("ex", EXERCISES, ids=[ex.id for ex in EXERCISES])
def test_each_exercise_solved_correctly(ex: Exercise):
    at = open_exercises()
    for step in ex.steps:
        answer(at, ex, step, RIGHT[ex.id][step.id])
        rec = record(at, ex, step.id)
        assert rec.status is Status.RIGHT, (step.id, rec.message)
        assert any(plain(s.value) == rec.message for s in at.success)
    assert f"{len(ex.steps)} of {TOTAL} steps right" in progress_text(at)
    assert any("all done" in c.value for c in at.caption)


@pytest.mark.parametrize("ex", EXERCISES, ids=[ex.id for ex in EXERCISES])
def test_each_exercise_solved_incorrectly(ex: Exercise):
    at = open_exercises()
    for step in ex.steps:
        value, mistake = WRONG[ex.id][step.id]
        answer(at, ex, step, value)
        rec = record(at, ex, step.id)
        assert rec.status is Status.WRONG, step.id
        assert rec.mistake == mistake, (step.id, rec.message)
        assert any(plain(e.value) == rec.message for e in at.error)
    assert f"0 of {TOTAL} steps right" in progress_text(at)
    # a second try fixes the first step, and the attempt is counted
    first = ex.steps[0]
    answer(at, ex, first, RIGHT[ex.id][first.id])
    assert record(at, ex, first.id).status is Status.RIGHT
    assert record(at, ex, first.id).attempts == 2


def test_named_mistakes_and_malformed_input_through_the_widgets():
    at = open_exercises()
    quiz = exercise_by_id("quiz88")
    answer(at, quiz, quiz.step("scaled"), "3, 1")
    assert "forgot to scale" in plain(at.error[0].value)
    answer(at, quiz, quiz.step("weights"), "80.4 %, 19.6 %")
    assert record(at, quiz, "weights").status is Status.RIGHT
    # malformed text: a message, no traceback, and the other answers stay put
    answer(at, quiz, quiz.step("scores"), "3, x")
    assert not at.exception
    assert "not a number" in record(at, quiz, "scores").message
    assert at.text_input(key=input_key("quiz88", "weights")).value == "80.4 %, 19.6 %"
    assert record(at, quiz, "weights").status is Status.RIGHT
    hungry = exercise_by_id("hungry")
    answer(at, hungry, hungry.step("output"), "2.414, 3.94")
    assert "rounded weights" in record(at, hungry, "output").message


def test_progress_and_typed_answers_survive_a_visit_to_other_pages():
    at = open_exercises()
    toy = exercise_by_id("paper_toy")
    answer(at, toy, toy.step("scores"), "1, 2")
    answer(at, toy, toy.step("scaled"), "1, 2")  # forgot to scale
    at.text_input(key=input_key("paper_toy", "weights")).input("0.33").run()  # typed, not checked
    at.button(key="ex_paper_toy_scores_hint").click().run()
    causal = exercise_by_id("causal")
    answer(at, causal, causal.step("mask"), "1 0 0\n1 1 0\n1 1 1")

    at.switch_page(BY_KEY["start"].path).run()
    at.switch_page(BY_KEY["scaling-lab"].path).run()
    assert not at.exception
    assert at.session_state[PROGRESS]["paper_toy"]["scores"].status is Status.RIGHT
    at.switch_page(BY_KEY["exercises"].path).run()
    assert not at.exception

    assert record(at, toy, "scores").status is Status.RIGHT
    assert record(at, toy, "scaled").mistake == "unscaled"
    assert record(at, causal, "mask").status is Status.RIGHT
    assert f"2 of {TOTAL} steps right" in progress_text(at)
    open_tab(at, causal)
    assert at.text_area(key=input_key("causal", "mask")).value == "1 0 0\n1 1 0\n1 1 1"
    open_tab(at, toy)  # its boxes were not drawn while another tab was open: still filled
    assert at.text_input(key=input_key("paper_toy", "scores")).value == "1, 2"
    assert at.text_input(key=input_key("paper_toy", "weights")).value == "0.33"
    assert any("forgot to scale" in plain(e.value) for e in at.error)  # feedback shown again
    assert any(plain(i.value).startswith("Hint 1:") for i in at.info)  # hint still open


def test_hints_come_one_at_a_time_and_run_out():
    at = open_exercises()
    step = exercise_by_id("paper_toy").step("scores")
    key = "ex_paper_toy_scores_hint"
    for n in range(1, len(step.hints) + 1):
        at.button(key=key).click().run()
        shown = [plain(i.value) for i in at.info if plain(i.value).startswith("Hint")]
        assert shown == [f"Hint {i}: {h}" for i, h in enumerate(step.hints[:n], start=1)]
    assert at.button(key=key).disabled


def test_show_solution_reveals_every_step_computed_by_the_core():
    at = open_exercises()
    n_latex = len(at.latex)
    at.button(key="ex_paper_toy_solution").click().run()
    ex = exercise_by_id("paper_toy")
    assert len(at.latex) == n_latex + len(ex.steps)
    solution = " ".join(tex.value for tex in at.latex)
    assert "0.3302 & 0.6698" in solution and "16.698" in solution
    assert all(r.solution_shown for r in at.session_state[PROGRESS]["paper_toy"].values())
    assert at.button(key="ex_paper_toy_solution").label == "Hide the solution"
    at.button(key="ex_paper_toy_solution").click().run()
    assert len(at.latex) == n_latex


def test_the_choice_links_to_the_scaling_lab():
    at = open_exercises()
    ex = exercise_by_id("why_scale")
    answer(at, ex, ex.steps[0], 0)
    links = [el.proto.page for el in at.get("page_link")]  # the page's URL path
    assert BY_KEY["scaling-lab"].key in links, links


@pytest.mark.parametrize("ex", EXERCISES, ids=[ex.id for ex in EXERCISES])
def test_open_in_the_walkthrough_loads_the_scenario(ex: Exercise):
    at = open_exercises()
    open_tab(at, ex)
    at.button(key=f"ex_{ex.id}_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["scenario"] == ex.scenario
    assert at.title[0].value == BY_KEY["inputs"].title


def test_downloads_and_start_over():
    at = open_exercises()
    toy = exercise_by_id("paper_toy")
    answer(at, toy, toy.step("scores"), "1, 2")
    keys = {el.key for el in at.get("download_button")}
    assert {"practice_download_json", "practice_download_csv"} <= keys, keys
    at.button(key="practice_reset").click().run()
    assert at.session_state[PROGRESS] == {}
    assert at.text_input(key=input_key("paper_toy", "scores")).value == ""
    assert f"0 of {TOTAL} steps right" in progress_text(at)


def test_an_answer_in_the_wrong_order_says_so_on_the_page():
    at = open_exercises()
    hungry = exercise_by_id("hungry")
    answer(at, hungry, hungry.step("weights"), "0.042, 0.114, 0.844")  # hunt, jungle, animal
    rec = record(at, hungry, "weights")
    assert rec.mistake == "swapped_order"
    shown = plain(at.error[0].value)
    assert "wrong order" in shown and "reverse order" in shown and "off by" not in shown


def test_the_two_head_exercise_solved_on_the_page():
    at = open_exercises()
    ex = exercise_by_id("two_heads")
    assert "7 · Two heads" in [t.label for t in at.tabs]
    answer(at, ex, ex.step("final"), "1.609 0.391 1 1.888\n0.391 1.609 1 0.391")
    assert "forgot W_O" in plain(at.error[0].value)
    for step_id, text in RIGHT["two_heads"].items():
        answer(at, ex, ex.step(step_id), text)
    assert [record(at, ex, s.id).status for s in ex.steps] == [Status.RIGHT] * 4
    assert record(at, ex, "final").attempts == 2
    assert f"4 of {TOTAL} steps right" in progress_text(at)
    at.button(key="ex_two_heads_solution").click().run()
    solution = " ".join(tex.value for tex in at.latex)
    assert "2.609 & 2.280 & 0.609 & -1.497" in solution
