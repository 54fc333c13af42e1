"""The real-model page's data step on real runs (needs the model; no Streamlit)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.pretrained import ModelMissing, load_model
from attention_ui.real_model import data

LESSON = "The animal didn't cross the street because it was too tired"


@pytest.fixture(scope="module")
def model():
    try:
        return load_model()
    except ModelMissing as exc:
        pytest.skip(f"model not fetched: {exc.command}")


def test_defaults_are_the_lessons_it_and_animal(model) -> None:
    run = model.encode(LESSON)
    assert run.tokens[data.default_query(run)] == "it"
    assert run.tokens[data.default_target(run, 10)] == "animal"
    other = model.encode("A cat sat")
    assert (data.default_query(other), data.default_target(other, 1)) == (1, 2)


def test_tokens_line_marks_pieces_specials_and_unknowns(model) -> None:
    run = model.encode("didn't 🦜 <b>")
    line = data.tokens_markdown(run)
    assert line.startswith(r"**\[CLS\]**") and line.endswith(r"**\[SEP\]**")
    assert "didn·'·t" in line
    assert r"**~~\[UNK\]~~**" in line
    assert r"\<·b·\>" in line  # escaped, and one typed word
    # both typed words are cut at punctuation (didn ' t, < b >); neither by WordPiece
    assert data.split_words(run) == (["didn't", "<b>"], [])
    kinds = data.token_table(run)["kind"].tolist()
    assert kinds[0] == "special (added by the model)" and kinds[1] == "piece 1 of 3 of one word"
    assert "[UNK]: not in the vocabulary" in kinds


def test_split_words_names_the_step_that_split_each_word(model) -> None:
    """Issue 22: "didn't" is cut by the punctuation split that runs before WordPiece; only
    a word the vocabulary lacks whole is cut into ## pieces (un ##bel ##ie ##va ##bly)."""
    run = model.encode("The animal didn't cross unbelievably")
    assert run.tokens[3:6] == ("didn", "'", "t") and run.tokens[7] == "un"
    assert data.split_words(run) == (["didn't"], ["unbelievably"])
    assert data.split_words(model.encode("tokenization's")) == (["tokenization's"],) * 2


def test_aligned_rows_pair_tired_with_wide(model) -> None:
    a = model.encode(LESSON)
    b = model.encode(LESSON.replace("tired", "wide"))
    labels, first, second = data.aligned_rows(a, b, 10, 3, 1)
    assert labels[13] == "tired / wide" and labels[2] == "animal"
    np.testing.assert_array_equal(first, a.heads[3][1].weights[10])
    np.testing.assert_array_equal(second, b.heads[3][1].weights[10])  # same length: 1 to 1


@pytest.mark.parametrize(
    ("first", "expected"),
    [("It was Tired.", "It was Wide."), ("wide, wide, tired", "wide, wide, wide"),
     ("The retired man", "The retired man"), ("", "")],
)  # fmt: skip
def test_the_second_sentence_swaps_one_word_of_the_pair(first: str, expected: str) -> None:
    assert data.second_sentence(first) == expected
