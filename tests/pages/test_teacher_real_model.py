"""Issue 22 on the Real model page (AppTest): the comparison's second sentence is the first
with one word changed, and its note on "didn't" names the punctuation split."""

from __future__ import annotations

import numpy as np
import pytest

from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from tests.pages.test_real_model_page import PAGE, model, open_page, texts  # noqa: F401

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


def test_opening_a_head_starts_the_scores_at_the_picked_token() -> None:
    """Not at [CLS] against [CLS] (the head's largest score): at "it", the token picked, and
    the key it scores highest in this head."""
    from attention_core.pretrained import load_model
    from attention_ui.real_model.lab import DEFAULT_TEXT

    run = load_model().encode(DEFAULT_TEXT)
    it = run.labels.index("it")
    strongest = run.labels[int(np.argmax(run.heads[3][1].scores[it]))]
    assert strongest == "animal"  # the lesson's pair, in layer 4, head 2
    at = open_page({keys.RM_TOKEN: "it", keys.RM_LAYER: "4", keys.RM_HEAD: "2"})
    at.switch_page(BY_KEY["scores"].path).run()  # the Scores page was open before, on its pair
    assert at.selectbox(key="scores_pick_q").value != "it"
    at.switch_page(PAGE).run()
    at.button(key="rm_open").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == BY_KEY["scores"].title
    assert at.selectbox(key="scores_pick_q").value == "it"
    assert at.selectbox(key="scores_pick_k").value == "animal"
    notice = [m.value for m in at.main.success]
    assert len(notice) == 1 and "shown from “it”, the token you picked" in notice[0]
    assert not at.toast  # nothing over the figures
    assert at.session_state[keys.PREVIOUS] is not None  # Undo brings back the scenario before


def test_another_picked_token_is_where_the_scores_start() -> None:
    at = open_page({keys.RM_TOKEN: "street"})
    at.button(key="rm_open").click().run()
    assert at.selectbox(key="scores_pick_q").value == "street"
