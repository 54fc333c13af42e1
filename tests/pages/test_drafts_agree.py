"""A box and its message agree (issue 22): text that could not be used stays in its box,
with its message, on every visit, until it is fixed; a cell put back says so at its grid."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from attention_ui.frame.pages import BY_KEY
from tests.spec import grid_key

APP = str(Path(__file__).resolve().parents[2] / "app.py")
INPUTS, SCORES = BY_KEY["inputs"].path, BY_KEY["scores"].path
NINETY = " ".join(f"w{i}" for i in range(90))


def inputs_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(INPUTS).run()
    assert not at.exception
    return at


def errors(at: AppTest) -> list[str]:
    return [e.value.replace("\\", "") for e in at.error]


def test_a_rejected_token_list_keeps_its_text_and_its_message_after_a_visit_elsewhere() -> None:
    at = inputs_page()
    good = at.text_input(key="tokens_text").value
    at.text_input(key="tokens_text").set_value(NINETY).run()
    assert any("90 tokens" in e for e in errors(at))
    at.switch_page(SCORES).run()
    at.switch_page(INPUTS).run()
    assert at.text_input(key="tokens_text").value == NINETY  # the draft that failed, to fix
    assert any("90 tokens" in e for e in errors(at))  # and its message beside it
    at.text_input(key="tokens_text").set_value("a b c").run()  # fixed
    assert not any("tokens" in e for e in errors(at))
    at.switch_page(SCORES).run()
    at.switch_page(INPUTS).run()
    assert at.text_input(key="tokens_text").value == "a b c" != good


def test_a_cleared_token_box_stays_empty_with_its_message() -> None:
    at = inputs_page()
    at.text_input(key="tokens_text").set_value("").run()
    message = errors(at)
    assert message
    at.switch_page(SCORES).run()
    at.switch_page(INPUTS).run()
    assert at.text_input(key="tokens_text").value == ""
    assert errors(at) == message


def test_a_cell_put_back_says_so_under_its_own_grid() -> None:
    at = inputs_page()
    grid = grid_key(at, "W_k")
    at.session_state[grid] = {"edited_rows": {0: {"d1": "abc"}}, "added_rows": [],
                              "deleted_rows": []}  # fmt: skip
    at.run()
    assert any("W_k row 1, column 1" in e for e in errors(at))
    at.switch_page(SCORES).run()
    at.switch_page(INPUTS).run()
    (warning,) = [w.value for w in at.warning if "Not kept" in w.value]
    assert "W_k row 1, column 1" in warning.replace("\\", "")
    # it sits with the W_k grid: after the W_k heading, before the W_v one
    order = [str(getattr(e, "value", "")) for e in at.main]
    texts = [t.replace("\\", "") for t in order]
    w_k = next(i for i, t in enumerate(texts) if t.startswith("**W_k**"))
    w_v = next(i for i, t in enumerate(texts) if t.startswith("**W_v**"))
    note = next(i for i, t in enumerate(texts) if t.startswith("Not kept"))
    assert w_k < note < w_v


def test_a_fill_remounts_only_the_grid_it_changed() -> None:
    """A Random fill of X gives X's editor a fresh key (a new grid in the browser) and keeps
    the W grids' keys; a grid that holds an edit is re-seeded too, and every grid still
    reads back its own numbers afterwards."""
    at = inputs_page()
    before = {n: grid_key(at, n) for n in ("X", "W_q", "W_k", "W_v")}
    at.session_state[before["W_q"]] = {"edited_rows": {0: {"d1": "7.5"}}, "added_rows": [],
                                       "deleted_rows": []}  # fmt: skip
    at.run()
    assert at.session_state["draft"].W_q[0, 0] == 7.5
    at.button(key="fill_X_random").click().run()
    assert not at.exception
    after = {n: grid_key(at, n) for n in before}
    assert after["X"] != before["X"] and after["W_q"] != before["W_q"]  # changed, edited
    assert after["W_k"] == before["W_k"] and after["W_v"] == before["W_v"]  # as they were
    draft = at.session_state["draft"]
    assert draft.W_q[0, 0] == 7.5  # the edit survived the fill
    W_k = draft.W_k.copy()
    at.session_state[after["W_k"]] = {"edited_rows": {1: {"d2": "-3"}}, "added_rows": [],
                                      "deleted_rows": []}  # fmt: skip
    at.run()
    W_k[1, 1] = -3.0  # a kept grid's edit lands on the numbers it shows, and only there
    np.testing.assert_array_equal(at.session_state["draft"].W_k, W_k)


def test_new_tokens_remount_the_token_grids_only() -> None:
    at = inputs_page()
    before = {n: grid_key(at, n) for n in ("X", "W_q")}
    at.text_input(key="tokens_text").input("the dog sat on the mat").run()
    assert grid_key(at, "X") != before["X"] and grid_key(at, "W_q") == before["W_q"]
