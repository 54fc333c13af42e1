"""The Training lab's runs, shared by a class: a finished setting is trained once for every
session of the process, and a stopped one is never taken for the finished run (it shows as
stopped, and trains on to the numbers of a run that never stopped)."""

from __future__ import annotations

import numpy as np

from attention_core.training import History, TrainSettings, train_both
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from attention_ui.training_lab import lab
from attention_ui.training_lab.runs import Jobs
from tests.pages.lab_pages import chart, open_lab, texts
from tests.spec import decode

PAGE = BY_KEY["training"].path
FIELDS = ("loss", "accuracy", "grad_q", "grad_k", "stuck", "checkpoints", "Q", "K", "weights")


def same(a: tuple[History, History], b: tuple[History, History]) -> None:
    for x, y in zip(a, b, strict=True):
        for name in FIELDS:
            np.testing.assert_array_equal(getattr(x, name), getattr(y, name), err_msg=name)
        np.testing.assert_array_equal(x.wrong_grad, y.wrong_grad)  # NaN where all rows right


def test_a_stopped_job_is_not_the_finished_run_and_trains_on_to_it():
    s = TrainSettings(task="previous", d_k=64, steps=50, seed=7)
    jobs = Jobs(max_jobs=2)
    job = jobs.get(s)
    assert job.step(13) == 12 and not job.finished  # steps 0..12 recorded
    partial = job.histories()
    assert partial[0].done == 12 and not partial[0].finished
    assert partial[0].checkpoints[-1] == 12 and len(partial[0].loss) == 13
    assert job.histories() is not partial  # not kept as the run
    assert jobs.get(s) is job  # the next session trains on from step 12
    while not job.finished:
        job.step(13)
    final = job.histories()
    assert final[0].finished and job.histories() is final  # one pair, handed to every session
    same(final, train_both(s))  # in pieces, stopped or not: the run itself, to the last bit
    assert job.trained == s.steps + 1  # every step trained once
    np.testing.assert_array_equal(partial[0].loss, final[0].loss[:13])  # the partial, unchanged


def test_the_store_forgets_the_least_recently_used():
    jobs = Jobs(max_jobs=2)
    a, b, c = (TrainSettings(steps=0, seed=k) for k in range(3))
    first = jobs.get(a)
    jobs.get(b)
    assert jobs.get(a) is first
    jobs.get(c)  # b, the least recently used, goes
    assert jobs.get(a) is first and jobs.get(b) is not None


def test_a_class_with_the_same_settings_costs_one_run():
    query = {keys.TR_STEPS: "50", keys.TR_SEED: "901"}
    s = TrainSettings(steps=50, seed=901)
    first = open_lab(PAGE, query=query)
    job = lab.jobs().get(s)
    assert job.finished and job.trained == s.steps + 1
    second = open_lab(PAGE, query=query)  # another student, the same settings
    assert job.trained == s.steps + 1  # nothing trained again
    unscaled, _ = train_both(s)
    for at in (first, second):
        assert f"loss {unscaled.loss[-1]:.3f}" in texts(at)
        assert "Stopped" not in texts(at)


def test_a_stopped_session_shows_what_was_trained_and_another_trains_on():
    query = {keys.TR_STEPS: "100", keys.TR_SEED: "902"}
    s = TrainSettings(steps=100, seed=902)
    job = lab.jobs().get(s)
    job.step(41)  # a session trained steps 0..40, then its student pressed Stop
    stopped = open_lab(PAGE, query=query, session={keys.TR_STOPPED: s})
    assert "Stopped at step 40 of 100" in texts(stopped)
    assert not job.finished  # drawing the stopped run trained nothing on
    unscaled, _ = train_both(s)
    heat = chart(stopped, "Without scaling: weights at step 40")["data"][0]["z"]
    np.testing.assert_array_equal(decode(heat), unscaled.weights[unscaled.at(40)])
    assert stopped.slider(key=keys.TR_STEP).value == 40  # the slider ends where it stopped
    other = open_lab(PAGE, query=query)  # a classmate: the same settings, not stopped
    assert job.finished and "Stopped" not in texts(other)
    assert f"loss {unscaled.loss[-1]:.3f}" in texts(other)
    stopped.button(key="tr_train_on").click().run()  # the stopped student trains on
    assert not stopped.exception and "Stopped" not in texts(stopped)
    chart(stopped, "Without scaling: weights at step 100")


# ---- issue 41, defect 8 ----------------------------------------------------------------
def test_a_stopped_run_says_one_step_count_in_its_text_slider_and_charts():
    """Trained to step 119 of 800 when Stop was handled (the issue's case: the text said 119
    and the slider ended at 112): the run is drawn as it was at its last kept step, 112,
    everywhere (800 steps keep every 16th)."""
    query = {keys.TR_DK: "8", keys.TR_STEPS: "800", keys.TR_SEED: "904"}
    s = TrainSettings(d_k=8, steps=800, seed=904)
    lab.jobs().get(s).step(120)  # steps 0..119
    at = open_lab(PAGE, query=query, session={keys.TR_STOPPED: s})
    assert "Stopped at step 112 of 800" in texts(at)
    assert "After 112 steps" in texts(at)
    slider = at.slider(key=keys.TR_STEP)
    assert slider.max == 112 and slider.value == 112
    unscaled, _ = train_both(s)  # the run itself, never stopped: its step 112
    heat = chart(at, "Without scaling: weights at step 112")["data"][0]["z"]
    np.testing.assert_array_equal(decode(heat), unscaled.weights[unscaled.at(112)])
    assert f"loss {unscaled.loss[112]:.3f}" in texts(at)


def test_a_stopped_run_ends_at_the_step_its_bar_showed():
    """The job trained on to 119 while the click travelled; the bar had shown 96."""
    query = {keys.TR_DK: "8", keys.TR_STEPS: "800", keys.TR_SEED: "905"}
    s = TrainSettings(d_k=8, steps=800, seed=905)
    lab.jobs().get(s).step(120)
    at = open_lab(PAGE, query=query, session={keys.TR_STOPPED: s, keys.TR_SHOWN: {s: 96}})
    assert "Stopped at step 96 of 800" in texts(at)
    assert at.slider(key=keys.TR_STEP).max == 96


def test_a_seed_out_of_range_says_its_range_and_draws_no_old_results():
    at = open_lab(PAGE, query={keys.TR_DK: "8", keys.TR_STEPS: "50", keys.TR_SEED: "3"})
    assert "After 50 steps" in texts(at)
    at.number_input(key=keys.TR_SEED).set_value(5000).run()
    assert not at.exception
    said = " ".join(e.value for e in at.error)
    assert "The seed must be a whole number from 0 to 1000; 5000 is outside that range" in said
    assert "After 50 steps" not in texts(at) and not at.get("plotly_chart")  # no seed-3 charts
    assert at.select_slider(key=keys.TR_DK).value == 8  # the other settings are kept
    assert at.select_slider(key=keys.TR_STEPS).value == 50
    at.number_input(key=keys.TR_SEED).set_value(4).run()  # back in range: charts again
    assert not at.error and "After 50 steps" in texts(at)
