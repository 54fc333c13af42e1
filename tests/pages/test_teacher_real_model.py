"""Issue 22 on the Real model page (AppTest): the comparison's second sentence is the first
with one word changed, and its note on "didn't" names the punctuation split."""

from __future__ import annotations

import pytest

from attention_ui.frame import keys
from tests.pages.test_real_model_page import model, open_page, texts  # noqa: F401  # a fixture

pytestmark = pytest.mark.usefixtures("model")  # skipped when the model is not fetched

COMPARE = {keys.RM_TOKEN_TAB: "Two sentences side by side"}
TIRED = "The animal didn't cross the street because it was too tired"
WIDE = "The animal didn't cross the street because it was too wide"
HUNGRY = "The animal in the jungle went out on a hunt because it was hungry"


def second(at) -> str:
    return at.text_input(key=keys.RM_TEXT_B).value


def test_the_second_sentence_starts_as_the_lessons_minimal_pair() -> None:
    at = open_page(session=COMPARE)
    assert at.text_input(key=keys.RM_TEXT).value == TIRED
    assert second(at) == WIDE  # one word changed: tired -> wide


def test_the_second_sentence_follows_the_first_until_it_is_edited() -> None:
    at = open_page(session=COMPARE)
    at.text_input(key=keys.RM_TEXT).set_value(HUNGRY).run()
    assert not at.exception
    assert second(at) == HUNGRY  # not the street sentence: the learner's own, to change
    assert "change one word of it" in texts(at)
    at.text_input(key=keys.RM_TEXT).set_value(WIDE).run()
    assert second(at) == TIRED  # the pair, the other way round
    at.text_input(key=keys.RM_TEXT_B).set_value("The animal was too tired").run()
    at.text_input(key=keys.RM_TEXT).set_value(HUNGRY).run()
    assert second(at) == "The animal was too tired"  # the learner's own second sentence stays


def test_a_links_second_sentence_comes_first() -> None:
    at = open_page({keys.RM_TEXT_B: HUNGRY}, session=COMPARE)
    assert second(at) == HUNGRY


def test_the_tokens_note_names_the_punctuation_split_for_didnt() -> None:
    """WordPiece did not split "didn't": the punctuation split before it did."""
    at = open_page()
    note = next(c.value for c in at.caption if "[CLS]" in c.value)
    assert "every punctuation mark (“didn't” here)" in note.replace("\\", "")
    assert "pieces marked ## (none here)" in note  # the lesson's words are all in the vocabulary
