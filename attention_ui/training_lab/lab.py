"""The Training lab: train one head on a task whose right attention is known, twice from the
same start (with and without 1/sqrt(d_k)), and watch one learn while the other stalls.

The settings and the step slider are widgets bound to the URL (``?tr_dk=256&tr_step=120``;
the task as its id, ``?tr_task=previous``, through ``widgets.id_selectbox``), so a link opens
the lab as it is. A run is computed once per settings for the whole
process (``runs.Jobs``): a class pressing the same settings costs one training.

Training draws a progress bar and a Stop button, and trains in pieces between them
(``train``), each to the next kept step. A click on Stop while the script runs makes
Streamlit end this run at its next element (the progress bar) and start a new one, whose
Stop callback has marked the settings as stopped: that run draws the runs as they were at
the step the bar last showed (``histories``), labelled as stopped, so Stop lands where the
learner pressed it, not where training had got to when the click arrived. (Stop lives in
the page's full run, not in a fragment: a click in a fragment does not interrupt its run,
streamlit#11030.)
"""

from __future__ import annotations

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attention_core import InputError
from attention_core.training import TASKS, History, TrainSettings
from attention_core.training.to_scenario import step_scenario
from attention_core.training.trainer import N_CHECKPOINTS, SATURATED, SEEDS
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys, state
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import bad_link_value, id_selectbox
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.training_lab import figures as tf
from attention_ui.training_lab.runs import Job, Jobs
from attention_ui.views.cache import lazy
from attention_ui.views.chart import plot

DKS = (4, 8, 16, 32, 64, 128, 256, 512)
LRS = (0.1, 0.3, 1.0, 3.0)
SPREADS = (0.25, 0.5, 1.0, 2.0)
STEPS = (50, 100, 200, 400, 800)  # multiples of N_CHECKPOINTS: the slider lands on kept steps
DEFAULT = TrainSettings()
WALKTHROUGH_PAGE = "scores"


def intro() -> None:
    st.markdown(
        _(
            "One attention head learns a task whose right attention is known. Only its W_Q and "
            "W_K learn, by plain gradient descent; the same data and the same starting weights "
            "are trained **twice**: once with the 1/√d_k scaling and once without it. Raise d_k "
            "and compare the two runs."
        )
    )


def settings() -> TrainSettings:
    """The learner's settings, from widgets bound to the URL; None (and a message saying
    the range) when one is out of range."""
    one_of = _("one of {choices}")
    bad_link_value(keys.TR_DK, lambda v: v in {str(d) for d in DKS}, one_of.format(choices=DKS))
    bad_link_value(keys.TR_STEPS, lambda v: v in {str(s) for s in STEPS},
                   one_of.format(choices=STEPS))  # fmt: skip
    bad_link_value(keys.TR_TASK, lambda v: v in TASKS, one_of.format(choices=", ".join(TASKS)))
    shown = {k: _(t) for k, t in TASKS.items()}  # translated in this run (see preset_picker)
    task = id_selectbox(_("Task"), shown, keys.TR_TASK)  # the address holds the task's id
    d_k = st.select_slider(_("d_k, the length of each query and key"), options=DKS,
                           value=DEFAULT.d_k, key=keys.TR_DK, bind="query-params",
                           persist_state="session")  # fmt: skip
    with st.container(horizontal=True, gap="medium"):  # wraps on a phone
        lr = st.select_slider(_("Learning rate"), options=LRS, value=DEFAULT.lr, key=keys.TR_LR,
                              bind="query-params", persist_state="session", width=180)  # fmt: skip
        spread = st.select_slider(
            _("Starting spread"), options=SPREADS, value=DEFAULT.spread, key=keys.TR_SPREAD,
            bind="query-params", persist_state="session", width=180,
            help=_("W_Q and W_K start with entries N(0, spread² / d_model): spread 1 gives "
                   "queries and keys whose entries have variance about 1, the paper's "
                   "assumption."),
        )  # fmt: skip
        steps = st.select_slider(_("Steps"), options=STEPS, value=DEFAULT.steps,
                                 key=keys.TR_STEPS, bind="query-params",
                                 persist_state="session", width=180)  # fmt: skip
        # No min or max here: the browser would only outline 5000 in red and keep the old
        # seed; the core's check says the range in words below.
        seed = st.number_input(_("Seed"), value=0, step=1, key=keys.TR_SEED,
                               bind="query-params", persist_state="session", width=120,
                               help=_("Other data and other starting weights: a whole "
                                      "number from {low} to {high}.").format(
                                   low=SEEDS[0], high=SEEDS[1]))  # fmt: skip
    try:
        return TrainSettings(task=task, d_k=int(d_k), lr=float(lr), spread=float(spread),
                             steps=int(steps), seed=int(seed)).check()  # fmt: skip
    except InputError as exc:
        st.error(_("{problem}. Nothing is trained or drawn for it: the charts come back when "
                   "the seed is in range, and your other settings stay as they are.").format(
                     problem=md_escape(capitalised(tr(exc)))), icon=":material/error:")  # fmt: skip
        return None


@st.cache_resource(show_spinner=False)
def jobs() -> Jobs:
    """This process's runs, shared by every session (``runs.Jobs``)."""
    return Jobs()


def show(s: TrainSettings) -> None:
    """Both runs of ``s``, trained first if this process has not: under a progress bar
    with a Stop button, the place of the charts left empty (the last settings' charts,
    drawn there before, would read as these settings')."""
    job = jobs().get(s)
    box = st.empty()  # the progress bar's place: empty once trained
    if job.finished or st.session_state.get(keys.TR_STOPPED) == s:
        place = st.container(key="tr_results")
    else:
        cover = st.empty()  # replaces the charts drawn here by the last run at once
        train(s, job, box)
        place = cover.container(key="tr_results")
    with place:
        results(s, histories(s, job))


def train(s: TrainSettings, job: Job, box: DeltaGenerator) -> None:
    """Train ``job`` in pieces under a progress bar and a Stop button.

    A piece ends at the next kept step (``Job.step``), so a stop lands on a step whose
    example is kept. A click on Stop ends this run at the next element drawn (``bar``:
    Streamlit checks for a rerun there); the step the bar showed before that is recorded
    (``shown``), and the stopped run is drawn as it was there: the step the learner saw
    at the press, not the one trained while the click was on its way.
    """
    with box.container(key="tr_training"):
        bar = st.progress(0.0, text=_("Training both runs…"))
        st.button(_("Stop"), key="tr_stop", icon=":material/stop_circle:",
                  on_click=guard.callback(_stop), args=(s,))  # fmt: skip
        st.caption(_("The charts appear here when the training ends or when you stop it."))
    shown = st.session_state.setdefault(keys.TR_SHOWN, {})  # mutated below: no rerun check
    while not job.finished:
        done = max(job.step(), 0)
        bar.progress(done / max(s.steps, 1),
                     text=_("Training both runs: step {done} of {steps}").format(
                         done=done, steps=s.steps))  # fmt: skip
        shown[s] = done  # reached only when the bar above was sent
    box.empty()


def histories(s: TrainSettings, job: Job) -> tuple[History, History]:
    """Both runs: finished, or stopped at the step the bar last showed this session."""
    pair = job.histories()
    if job.finished and st.session_state.get(keys.TR_STOPPED) != s:
        return pair
    at = st.session_state.get(keys.TR_SHOWN, {}).get(s, pair[0].done)
    unscaled, scaled = (h.until(min(at, h.done)) for h in pair)
    return unscaled, scaled


def _stop(s: TrainSettings) -> None:
    st.session_state[keys.TR_STOPPED] = s


def _train_on() -> None:
    st.session_state[keys.TR_STOPPED] = None


def results(s: TrainSettings, pair: tuple[History, History]) -> None:
    unscaled, scaled = pair
    if not unscaled.finished:
        with st.container(horizontal=True, vertical_alignment="center", key="tr_stopped"):
            st.warning(ngettext("Stopped at step {done} of {steps}: everything below shows the "
                                "{done} step trained so far.",
                                "Stopped at step {done} of {steps}: everything below shows the "
                                "{done} steps trained so far.", unscaled.done)
                       .format(done=unscaled.done, steps=s.steps),
                       icon=":material/stop_circle:")  # fmt: skip
            st.button(_("Train on"), key="tr_train_on", icon=":material/play_arrow:",
                      on_click=guard.callback(_train_on))  # fmt: skip
    st.caption(
        ngettext(
            "After {n} step: without scaling, loss {loss_u} and {right_u} of rows on the right "
            "key ({wrong_u} wrong, {stuck_u} of them stuck); with scaling, loss {loss_s} and "
            "{right_s} ({wrong_s} wrong, {stuck_s} of them stuck).",
            "After {n} steps: without scaling, loss {loss_u} and {right_u} of rows on the right "
            "key ({wrong_u} wrong, {stuck_u} of them stuck); with scaling, loss {loss_s} and "
            "{right_s} ({wrong_s} wrong, {stuck_s} of them stuck).",
            unscaled.done,
        ).format(
            n=unscaled.done,
            loss_u=f"{unscaled.loss[-1]:.3f}", right_u=f"{unscaled.accuracy[-1]:.0%}",
            wrong_u=wrong_rows(unscaled), stuck_u=unscaled.stuck[-1],
            loss_s=f"{scaled.loss[-1]:.3f}", right_s=f"{scaled.accuracy[-1]:.0%}",
            wrong_s=wrong_rows(scaled), stuck_s=scaled.stuck[-1],
        )
    )  # fmt: skip
    left, right = st.columns(2, gap="large")
    with left:
        plot(lazy(tf.loss_curves, pair), key="tr_loss")
    with right:
        plot(lazy(tf.wrong_row_gradient, pair), key="tr_wrong_grad")
        st.caption(wrong_rows_caption(pair))
    step_view(s, pair)
    left, right = st.columns(2, gap="large")
    with left:
        plot(lazy(tf.stuck_curves, pair), key="tr_stuck")
        st.caption(_("A stuck row puts at least {share} of its weight on a wrong key: the "
                     "softmax passes it almost no gradient, so it stays wrong.")
                   .format(share=SATURATED))  # fmt: skip
    with right:
        plot(lazy(tf.gradient_curves, pair), key="tr_grad")
        st.caption(
            _(
                "The whole batch's gradient to the weights. It stays large while some rows "
                "still learn, so on its own it does not show the stall: the stuck rows add "
                "nothing to it. The chart of the rows still wrong, above, shows them."
            )
        )
    open_in_walkthrough(s, pair)


def gradient_words(g: float) -> str:
    """A wrong-rows gradient (``History.wrong_grad``) in words; an exact 0 said so."""
    return _("exactly 0 (drawn at {floor})").format(floor=f"{tf.FLOOR:.0e}") if g == 0 else (
        f"{g:.0e}")  # fmt: skip


def wrong_rows(h: History) -> int:
    """The batch's rows whose largest weight is on a wrong key, at the last step: the
    summary and the gradient's caption count the same rows (the stuck ones are among them)."""
    return round((1 - h.accuracy[-1]) * h.rows)


def wrong_rows_caption(pair: tuple[History, History]) -> str:
    """What the wrong rows' chart shows, in the runs' own numbers (at the last step)."""
    parts = []
    for h in pair:
        wrong = wrong_rows(h)
        part = ngettext("{n} row still wrong gets {gradient}",
                        "{n} rows still wrong get {gradient}", wrong).format(
            n=wrong, gradient=gradient_words(h.wrong_grad[-1])) if wrong else _(
            "no row is wrong any more")  # fmt: skip
        parts.append(_("{run}, {what}").format(run=_(tf.NAME[h.scaled]), what=part))
    return _(
        "A row whose largest weight is on a wrong key needs a gradient to move; this is the "
        "median size of what reaches such a row's scores (|dL/dscores|). Saturated on a "
        "wrong key, a row gets almost none and cannot move. A line ends where its run has "
        "no wrong row left. At step {step}: {runs}."
    ).format(step=pair[0].done, runs=_("{first}; {second}").format(first=parts[0], second=parts[1]))


@guard.fragment
def step_view(s: TrainSettings, pair: tuple[History, History]) -> None:
    """The step slider and what it moves: both runs' weights for one example, and how
    saturated each row is. In a fragment: a slider move reruns only this."""
    st.subheader(_("One example, step by step"))
    every = max(1, s.steps // N_CHECKPOINTS)
    last = int(pair[0].checkpoints[-1])  # the last kept step: s.steps unless stopped early
    held = st.session_state.get(keys.TR_STEP)
    if isinstance(held, int) and (held > last or held % every):  # a longer or stopped run
        st.session_state[keys.TR_STEP] = min(last, held - held % every)
    step = st.slider(_("Training step"), min_value=0, max_value=max(last, every), value=last,
                     step=every, key=keys.TR_STEP, bind="query-params",
                     disabled=last == 0)  # fmt: skip
    query, key = tf.example_row(pair[0])  # a row of this task, as the charts label it
    st.caption(
        _(
            "Each row is a query, labelled with the key it should attend to after the arrow "
            "(“{query} → {key}”: the query {query} should look at the key {key}). Move the "
            "slider to watch the pattern sharpen, or freeze."
        ).format(query=query, key=key)
    )
    for col, h in zip(st.columns(2, gap="large"), pair, strict=True):
        with col:
            plot(lazy(tf.step_weights, h, step), key=f"tr_weights_{h.scaled}")
            at = int(h.checkpoints[h.at(step)])
            stuck = int(h.stuck[at])
            st.caption(
                ngettext(
                    "{run}, step {step}: {n} row of the batch stuck (largest weight ≥ {share} "
                    "on a wrong key), {gradient}",
                    "{run}, step {step}: {n} rows of the batch stuck (largest weight ≥ {share} "
                    "on a wrong key), {gradient}",
                    stuck,
                ).format(run=_(tf.TITLE[h.scaled]), step=at, n=stuck, share=SATURATED,
                         gradient=step_gradient(h, at))
            )  # fmt: skip
    plot(lazy(tf.row_saturation, pair, step), key="tr_saturation")
    st.caption(_("A hatched bar is a row whose largest weight sits on a wrong key."))


def step_gradient(h: History, step: int) -> str:
    """The gradient that reaches the wrong rows at ``step``, in words."""
    g = h.wrong_grad[step]
    if np.isnan(g):
        return _("no row of the batch is wrong.")
    return _("the rows still wrong get a gradient of {gradient}.").format(
        gradient=gradient_words(g))  # fmt: skip


def open_in_walkthrough(s: TrainSettings, pair: tuple[History, History]) -> None:
    """Buttons that make one run's example, at the slider's step, the app's scenario."""
    st.subheader(_("Open this step in the walkthrough"))
    st.caption(
        _(
            "Makes this example's Q, K and V at the slider's step the app's scenario (direct "
            "mode, with the run's scaling): every walkthrough page then shows the trained head."
        )
    )
    with st.container(horizontal=True):
        clicked = [st.button(_(tf.OPEN[h.scaled]), key=f"tr_open_{h.scaled}")
                   for h in pair]  # fmt: skip
    for h, pressed in zip(pair, clicked, strict=True):
        if not pressed:
            continue
        step = st.session_state.get(keys.TR_STEP, s.steps)
        try:
            scenario = step_scenario(h, int(step))
        except InputError as exc:
            st.warning(md_escape(tr(exc)))
            return
        at = int(h.checkpoints[h.at(int(step))])
        scenario = scenario.replace(name=scenario_name(s, h, at))
        state.replace_scenario(scenario)  # undoable, like every load
        state.notice(
            _(
                "The Training lab's example at step {step} ({run}, d_k = {d_k}) is now your "
                "scenario. Undo in the sidebar brings back the one it replaced."
            ).format(step=at, run=_(tf.NAME[h.scaled]), d_k=s.d_k)
        )
        st.switch_page(BY_KEY[WALKTHROUGH_PAGE].path, query_params=state.share_query())


def scenario_name(s: TrainSettings, h: History, step: int) -> str:
    """The loaded example's name, in the learner's language (it travels in links as it is
    written, like a name a teacher gives)."""
    run = _("scaled") if h.scaled else _("unscaled")
    return _("Training lab: {task}, d_k {d_k}, {run}, step {step}").format(
        task=s.task, d_k=s.d_k, run=run, step=step
    )  # the task's id, as in the link


EXPLANATION = (
    N_("**The loss only sees the output.** A head's output is the weighted sum of the values, "
       "and here the loss is how far that output is from the right key's value (the mean "
       "squared error). That is where a transformer's loss meets a head too: far downstream, "
       "through V, never on the weights themselves. So the gradient that reaches a row's "
       "scores is the softmax's Jacobian diag(w) − w wᵀ times the output's error, and every "
       "entry of that Jacobian has a weight as a factor."),
    N_("**A saturated row gets no gradient.** When a row puts weight 1 on one key and about 0 "
       "on the rest, every entry of diag(w) − w wᵀ is about 0, whether the key is right or "
       "wrong. The row's error can be as large as it gets: nothing reaches W_Q and W_K to "
       "move it. Without the scaling, the raw scores have a spread of about √d_k, so at "
       "d_k = 256 most rows start saturated on a random key. The rows that are not saturated "
       "learn (fast: unscaled scores are d_k times more sensitive), the shared weights drag "
       "some others along, and what is left stays stuck: the loss stops on a plateau."),
    N_("**Why not a loss on the weights?** With a cross-entropy on the weights themselves, "
       "the log cancels the softmax's Jacobian: the score gradient is just w − target, "
       "largest for a row saturated on a wrong key, and an unscaled run would not stall (it "
       "might even diverge). That would teach the wrong lesson: it is not what happens "
       "inside a model."),
)  # fmt: skip


def explanation() -> None:
    st.header(_("Why the loss is on the output"))
    st.markdown("\n\n".join(_(p) for p in EXPLANATION))


def capitalised(sentence: str) -> str:
    """A core message (which starts in lower case, to be part of a sentence) as a sentence."""
    return sentence[:1].upper() + sentence[1:]
