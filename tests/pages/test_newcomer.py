"""Issue 34: what a newcomer hit outside the live class (AppTest and the pure data steps).

Expected numbers are computed here with NumPy from the scenario's own matrices."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS, InputError
from attention_core.exercises.catalogue import all_exercises
from attention_core.parsing import parse_number
from attention_ui.draw.text import sentence, titled
from attention_ui.frame.pages import BY_KEY
from attention_ui.stages.data import softmax_table
from tests.pages.test_drafts_agree import INPUTS, SCORES, inputs_page
from tests.spec import grid_key
from tests.tolerance import assert_within, eps, softmax_bound

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_a_phones_softmax_table_keeps_the_weights_in_three_columns() -> None:
    s = PRESETS["cat_mat"].build()
    t = s.trace()
    desk = softmax_table(t, 1, s.key_labels)
    phone = softmax_table(t, 1, s.key_labels, phone=True)
    assert list(desk.columns) == ["score", "e^score", "e^(score − max)",
                                  "row sum of e^(score − max)", "weight"]  # fmt: skip
    assert list(phone.columns) == ["score", "e^(score − max)", "weight"]
    row = s.trace().scores[1] / np.sqrt(3)  # cat_mat: d_k = 3, scaled
    want = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
    # the trace scales by multiplying with 1/√3, here by dividing: 2 roundings apart at most
    delta = 2 * eps(np.float64) * np.abs(row)
    assert_within(phone["weight"].to_numpy(), want, softmax_bound(row, want, delta))
    assert phone["score"].iloc[1] == f"{row[1]:.4g}"


def test_a_decimal_comma_is_named() -> None:
    for typed, meant in (("1,5", "1.5"), ("−0,25", "-0.25")):
        with pytest.raises(InputError) as caught:
            parse_number(typed)
        assert caught.value.message.endswith(f"is not a number: write the decimal with a point, "
                                             f"{meant}")  # fmt: skip
    with pytest.raises(InputError, match=r"^'1,000,5' is not a number$"):
        parse_number("1,000,5")


def test_a_cell_left_bad_on_inputs_is_named_on_the_next_page() -> None:
    """It was dropped silently: the next page showed the last valid scenario without a word,
    and "Not kept" appeared only back on Inputs."""
    at = inputs_page()
    at.session_state[grid_key(at, "W_k")] = {"edited_rows": {0: {"d1": "1,5"}},
                                             "added_rows": [], "deleted_rows": []}  # fmt: skip
    at.run()
    at.switch_page(SCORES).run()
    (notice,) = [w.value.replace("\\", "") for w in at.warning]
    assert notice.startswith("Not kept from your edits on Inputs: W_k row 1, column 1: '1,5'")
    assert "write the decimal with a point, 1.5" in notice and "last valid scenario" in notice
    at.switch_page(BY_KEY["softmax"].path).run()
    assert [w.value for w in at.warning] == [at.warning[0].value] and "Not kept" in at.warning[
        0
    ].value
    at.switch_page(INPUTS).run()  # said at its grid, once
    assert any("Not kept: W" in w.value for w in at.warning)
    at.switch_page(SCORES).run()
    assert not [w for w in at.warning if "Not kept" in w.value]


def test_no_title_or_description_names_a_lesson_instead_of_its_subject() -> None:
    """ "Lesson 88's quiz" meant nothing to a newcomer; the lesson stays as the source."""
    for exercise in all_exercises():
        assert "Lesson" not in str(exercise.title) and "Lesson" not in str(exercise.short_title)
    assert all("Lesson" not in p.description for p in PRESETS.values())
    quiz = next(e for e in all_exercises() if e.id == "quiz88")
    assert str(quiz.title) == "Two keys: how scores become 80 % and 20 % of the attention"
    assert str(quiz.source).startswith("Lesson 88")


def test_a_title_ending_in_a_question_mark_is_not_followed_by_more_punctuation() -> None:
    assert sentence("Which word: animal, jungle or hunt?") == "Which word: animal, jungle or hunt?"
    assert sentence("The cat sat on the mat") == "The cat sat on the mat."
    assert titled("Why not remove the scaling?", "What goes wrong?") == (
        "Why not remove the scaling? What goes wrong?"
    )
    assert titled("Two keys", "step 1") == "Two keys: step 1"
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.selectbox(key="preset_choice").set_value("hungry").run()  # the sidebar's examples
    at.button(key="preset_choice_load").click().run()
    (toast,) = [t.value for t in at.toast]
    assert "hunt?. " not in toast and "hunt? Undo brings back" in toast, toast
