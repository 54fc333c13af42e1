"""AppTest of the Training lab: its numbers come from the core, the link holds its settings
and step, and a step opens in the walkthrough as the scenario."""

from __future__ import annotations

import numpy as np

from attention_core.training import TrainSettings, train_both
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from tests.pages.lab_pages import chart, open_lab, texts
from tests.spec import decode

PAGE = BY_KEY["training"].path


def heat(spec: dict) -> np.ndarray:
    return np.asarray(decode(spec["data"][0]["z"]), dtype=float)


def test_the_lab_draws_both_runs_of_its_defaults():
    at = open_lab(PAGE)
    unscaled, scaled = train_both(TrainSettings())
    assert at.title[0].value == "Training"
    said = texts(at)
    assert f"loss {unscaled.loss[-1]:.3f}" in said and f"loss {scaled.loss[-1]:.3f}" in said
    loss = chart(at, "Loss")
    assert [t["name"] for t in loss["data"]] == ["without scaling", "with 1/√d_k"]
    np.testing.assert_array_equal(decode(loss["data"][1]["y"]), scaled.loss)
    grad = chart(at, "Gradient to W_Q and W_K")
    assert grad["layout"]["yaxis"]["type"] == "log"
    np.testing.assert_array_equal(decode(grad["data"][0]["y"]), unscaled.grad_q)
    wrong = chart(at, "Gradient reaching the rows still wrong")
    assert wrong["layout"]["yaxis"]["type"] == "log"
    for trace, h in zip(wrong["data"], (unscaled, scaled), strict=True):
        np.testing.assert_array_equal(decode(trace["y"]), np.maximum(h.wrong_grad, 1e-30))
    rows_left = round((1 - unscaled.accuracy[-1]) * unscaled.rows)
    assert f"{rows_left} rows still wrong get {unscaled.wrong_grad[-1]:.0e}" in said
    np.testing.assert_array_equal(heat(chart(at, "With 1/√d_k: weights at step 200")),
                                  scaled.weights[-1])  # fmt: skip
    assert "Why the loss is on the output" in [h.value for h in at.header]


def test_the_link_opens_the_step_and_the_slider_moves_the_heatmaps():
    at = open_lab(PAGE, query={keys.TR_DK: "64", keys.TR_STEPS: "100", keys.TR_STEP: "40"})
    unscaled, _ = train_both(TrainSettings(d_k=64, steps=100))
    spec = chart(at, "Without scaling: weights at step 40")
    np.testing.assert_array_equal(heat(spec), unscaled.weights[unscaled.at(40)])
    at.slider(key=keys.TR_STEP).set_value(0).run()
    assert not at.exception
    np.testing.assert_array_equal(heat(chart(at, "Without scaling: weights at step 0")),
                                  unscaled.weights[0])  # fmt: skip
    assert at.session_state[keys.TR_DK] == 64  # the link's d_k held (the browser test
    # checks the address bar itself: AppTest does not write bound widgets into it)


def test_fewer_steps_bring_the_step_slider_back_into_range():
    at = open_lab(PAGE, query={keys.TR_STEPS: "400", keys.TR_STEP: "400"})
    at.select_slider(key=keys.TR_STEPS).set_value(50).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.slider(key=keys.TR_STEP).value == 50
    chart(at, "Without scaling: weights at step 50")


def test_a_step_opens_in_the_walkthrough_as_the_scenario():
    at = open_lab(PAGE, query={keys.TR_STEPS: "50", keys.TR_STEP: "10"})
    at.button(key="tr_open_True").click().run()
    assert not at.exception
    assert at.title[0].value == "3. Scores"
    loaded = at.session_state[keys.SCENARIO]
    _, scaled = train_both(TrainSettings(steps=50))
    assert loaded.mode == "direct" and loaded.scaled
    np.testing.assert_array_equal(loaded.Q, scaled.Q[scaled.at(10)])
    np.testing.assert_array_equal(loaded.K, scaled.K[scaled.at(10)])
    assert loaded.tokens == tuple(scaled.key_tokens)
    assert "step 10" in texts(at)


def test_a_bad_link_value_says_so_and_keeps_the_default():
    at = open_lab(PAGE, query={keys.TR_DK: "300"})
    assert "tr_dk = 300 is not one of" in texts(at)
    chart(at, "Without scaling: weights at step 200")
