"""The Training lab's exercise: predict what an unscaled run does at d_k = 256.

Its own module (the catalogue is full); ``catalogue.all_exercises`` lists it. The scenario
is the lab's default example at step 0 of the unscaled run, so "Open in the walkthrough"
shows the saturated rows the learner is asked about.
"""

from __future__ import annotations

from attention_core.exercises.model import Choice, ChoiceStep, Exercise
from attention_core.i18n import N_, Text
from attention_core.training import TrainSettings, train
from attention_core.training.to_scenario import step_scenario


def stall() -> Exercise:
    start = train(TrainSettings(steps=0), scaled=False)  # step 0 only: one forward pass
    return Exercise(
        id="stall",
        title=Text("Training without the scaling at d_k = 256"),
        short_title=Text("8 · Train unscaled"),
        source=Text("The Training lab (the paper's reason for the scaling)"),
        statement=(
            Text(
                "One attention head learns *find the match* (each query must attend to the key "
                "with its own symbol) by gradient descent on $W_Q$ and $W_K$, with $d_k = 256$. "
                "The loss is the squared error of the **output** against the right key's value, "
                "so the weights reach the loss only through $V$, as in a transformer. Two runs "
                "start from the same data and weights: one with $1/\\sqrt{d_k}$, one without. "
                "The scenario of this card is one example of the unscaled run before training."
            )
        ),
        scenario=step_scenario(start, 0),
        steps=(
            ChoiceStep(
                id="choice",
                title=Text("What does the unscaled run do?"),
                prompt=Text(
                    "The scaled run learns the task (every row right, loss near 0). "
                    "What do you expect of the run **without** the scaling?"
                ),
                choices=(
                    Choice(
                        Text("It learns faster: bigger scores give bigger gradients."),
                        False,
                        Text(
                            "Bigger scores saturate the softmax. A row with weight 1 on one key "
                            "and 0 elsewhere passes almost no gradient back to its scores: the "
                            "entries of diag(w) − w wᵀ are all close to 0."
                        ),
                        N_("thinks bigger scores mean bigger gradients"),
                    ),
                    Choice(
                        Text(
                            "Its loss falls at first, then stops on a plateau far above the "
                            "scaled run's, with rows stuck on a wrong key."
                        ),
                        True,
                        Text(
                            "Without the scaling the scores spread like √d_k = 16, so most rows "
                            "start saturated on a random key. The rows that are not saturated "
                            "learn, and the shared weights drag some others along; the rows "
                            "saturated on a wrong key get next to no gradient and stay wrong."
                        ),
                    ),
                    Choice(
                        Text("It crashes: exp of scores in the hundreds overflows to inf and nan."),
                        False,
                        Text(
                            "A stable softmax subtracts each row's largest score first, so "
                            "every exponent is at most 0 and nothing overflows. The weights are "
                            "fine numbers; they are just one-hot."
                        ),
                        N_("thinks the softmax overflows"),
                    ),
                    Choice(
                        Text("It learns nothing at all: the loss stays where it started."),
                        False,
                        Text(
                            "Not every row saturates: those that do not still get a gradient "
                            "and learn, so the loss drops at first. What remains is the rows "
                            "that are saturated on a wrong key."
                        ),
                        N_("thinks no row can learn"),
                    ),
                    Choice(
                        Text(
                            "It only stalls because the learning rate is too large for the "
                            "bigger scores; a smaller one would let it learn."
                        ),
                        False,
                        Text(
                            "A smaller step does not unsaturate a row: the rows stuck on a wrong "
                            "key get no gradient at any learning rate. Measured in the lab, a "
                            "smaller rate leaves more rows stuck, not fewer."
                        ),
                        N_("blames the learning rate"),
                    ),
                ),
                hints=(
                    Text("How large are the scores q·k without the scaling when d_k = 256?"),
                    Text(
                        "What is the softmax's gradient for a row whose weights are (1, 0, ..., 0)?"
                    ),
                ),
                explanation=Text(
                    "Without $1/\\sqrt{d_k}$ most rows start saturated, and a "
                    "saturated row's softmax passes no gradient back: the unscaled run stalls "
                    "on a plateau with rows stuck on wrong keys. The Training lab runs both."
                ),
                see_also="training",
            ),
        ),
    )
