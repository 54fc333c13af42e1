"""A box and its message agree (issue 22): text that could not be used stays in its box,
with its message, on every visit, until it is fixed; a cell put back says so at its grid."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from attention_ui.frame.pages import BY_KEY

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
    grid = f"grid_W_k_{at.session_state['editor_gen']}"
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
