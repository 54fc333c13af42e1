"""Replacing the learner's scenario is undoable in one step; Back follows the ?s= it returns to."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS
from attention_core.exercises import all_exercises
from attention_ui.frame import state
from attention_ui.frame.pages import BY_KEY

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def on_inputs_with_my_tokens() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(BY_KEY["inputs"].path).run()
    at.text_input(key="tokens_text").input("my own words here").run()
    assert at.session_state["scenario"].tokens == ("my", "own", "words", "here")
    return at


def test_loading_an_example_can_be_undone_in_one_step() -> None:
    at = on_inputs_with_my_tokens()
    at.selectbox(key="preset_choice").set_value("paper_toy").run()
    at.button(key="preset_choice_load").click().run()
    assert at.session_state["scenario"] == PRESETS["paper_toy"].build()
    undo = at.button(key="undo_replace")
    assert "my own words here" in undo.label  # the replaced one, by its name
    undo.click().run()
    assert at.session_state["scenario"].tokens == ("my", "own", "words", "here")
    assert at.text_input(key="tokens_text").value == "my own words here"  # the editor follows
    at.button(key="undo_replace").click().run()  # and the example can come back again
    assert at.session_state["scenario"] == PRESETS["paper_toy"].build()


def test_opening_an_exercise_in_the_walkthrough_can_be_undone() -> None:
    at = on_inputs_with_my_tokens()
    at.switch_page(BY_KEY["exercises"].path).run()
    exercise = all_exercises()[0]
    at.button(key=f"ex_{exercise.id}_open").click().run()
    assert at.session_state["scenario"] == exercise.scenario
    at.button(key="undo_replace").click().run()
    assert at.session_state["scenario"].tokens == ("my", "own", "words", "here")


def test_nothing_to_undo_before_a_load() -> None:
    at = on_inputs_with_my_tokens()
    assert not [b for b in at.button if b.key == "undo_replace"]


def test_back_restores_the_scenario_in_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser's Back reruns with the older ?s=; the app must show that scenario."""
    at = on_inputs_with_my_tokens()
    older = at.query_params["s"]
    at.text_input(key="tokens_text").input("a newer edit").run()
    assert at.query_params["s"] != older
    at.query_params["s"] = older  # what Back does: the previous entry's address ...
    monkeypatch.setattr(state, "history_navigation", lambda: True)  # ... and its flag
    at.run()
    assert at.session_state["scenario"].tokens == ("my", "own", "words", "here")
    assert at.text_input(key="tokens_text").value == "my own words here"
    assert at.query_params["s"] == older  # the entry keeps its address


def test_an_ordinary_run_never_follows_a_stale_address() -> None:
    """A click sent before the newest address arrived must not undo the latest edit."""
    at = on_inputs_with_my_tokens()
    older = at.query_params["s"]
    at.text_input(key="tokens_text").input("a newer edit").run()
    at.query_params["s"] = older
    at.run()
    assert at.session_state["scenario"].tokens == ("a", "newer", "edit")
