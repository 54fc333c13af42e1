"""Issue 22 on the Multi-head page (AppTest): the default example opens on the one-click fix,
not on "cannot be split", and every caption follows the head count."""

from __future__ import annotations

import re

import numpy as np
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS, Scenario
from tests.pages.test_multi_head_page import heads, open_lab, scenario


def words(at: AppTest) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.subheader, *at.header]
    return "\n".join(str(p.value) for p in parts)


def test_the_default_example_opens_on_the_one_click_fix() -> None:
    at = open_lab()  # the default scenario: d_k = 3, d_v = 4, no W_O
    text = words(at)
    assert "cannot be split" not in text
    first = at.subheader[0].value
    assert first == "First, one click gets your scenario ready for heads"
    fix = at.button(key="heads_fix")
    assert fix.label == "Make it ready for heads"
    assert "needs d_v = d_k and an output projection W_O first" in text
    assert fix.proto.type == "primary"
    example = at.button(key="mh_load_example")
    assert example.label == f"Load the example: {PRESETS['two_heads'].title}"
    assert "**The cat sat on the mat**" in text and "keeps your tokens and numbers" in text


def test_after_the_fix_one_head_is_never_called_head_2() -> None:
    at = open_lab()
    at.button(key="heads_fix").click().run()
    assert not at.exception
    assert at.session_state["scenario"].n_heads == 1  # d_k = 3 splits into 1 or 3 heads
    text = words(at)
    about_heads = "\n".join(c.value for c in at.caption)  # not the two-heads example's story
    assert not re.search(r"\bhead 2\b|\bh2\b", about_heads, re.IGNORECASE), about_heads
    assert "One head takes all 3 columns of each projection: nothing is split." in text
    at.session_state["mh_stage"] = "Scaling"  # the head's Scaling tab (lazy tabs)
    at.run()
    assert "With one head, d_head = d_k = 3: the walkthrough's own scaling." in words(at)
    at.segmented_control(key="n_heads_choice").set_value(3).run()
    assert len(heads(at)) == 3
    assert "3 heads of d_head = 1" in words(at) and "head 2's first column" in words(at)


def test_two_heads_keep_their_words() -> None:
    at = open_lab(scenario(2))
    text = words(at)
    assert "2 heads of d_head = 4" in text and "the heads look at different tokens" in text
    assert "any head can change any feature" in text


def test_the_fix_keeps_q_k_v_typed_directly_and_offers_undo() -> None:
    """Issue 34: in direct mode the fix kept the old hidden X and W's numbers, with no Undo."""
    Q = np.array([[1.0, 0, 1], [0, 1, 1], [1, 1, 0]])  # (3, d_k = 3)
    K = np.array([[1.0, 0, 0], [0, 3, 0], [2, 0, 2]])
    V = np.arange(12.0).reshape(3, 4)  # (3, d_v = 4)
    s = Scenario(tokens=("a", "b", "c"), mode="direct", Q=Q, K=K, V=V, name="mine")
    at = open_lab(s)
    text = words(at)
    assert "needs embeddings made from your Q, K and V and an output projection W_O" in text
    assert "X = [Q | K | V]" in text and "divides them by √4 instead of √3" in text
    at.button(key="heads_fix").click().run()
    assert not at.exception
    t = at.session_state["scenario"].validate()
    np.testing.assert_array_equal(t.scores, Q @ K.T)  # small integers: exact
    np.testing.assert_array_equal(t.V, V)
    at.button(key="undo_replace").click().run()
    assert at.session_state["scenario"] == s
