"""The decoder at work, as exercises: a temperature step and an online-softmax step.

Their own module (the catalogue is full); ``catalogue.all_exercises`` lists them. Every
number comes from the core (``decoder.sampling.distribution``, ``online_attention``); each
named slip is the same computation with that one slip made. Each card's scenario is a
one-query head whose scores are the exercise's logits or scores, so "Open in the
walkthrough" shows the same softmax.
"""

from __future__ import annotations

import numpy as np

from attention_core.decoder.sampling import distribution
from attention_core.exercises.model import Exercise, Mistake, Variant
from attention_core.exercises.steps import numeric
from attention_core.exercises.text import tex_matrix as tex
from attention_core.i18n import N_, Text
from attention_core.online import online_attention
from attention_core.scenario import Scenario

LOGITS = np.array([2.0, 1.0, 0.0, -1.0])  # four candidate next tokens
WORDS = ("Paris", "Lyon", "the", "a")
T = 0.5
SCORES = np.array([1.0, 2.0, 3.0, 0.0])  # one query row's scaled scores, two tiles of two
VALUES = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [1.0, 1.0]])  # (4, d_v = 2)
TOKEN_LAYOUT = Text("one row; one column per token, in the order given")


def one_query(name: str, scores: np.ndarray, V: np.ndarray, tokens: tuple[str, ...]) -> Scenario:
    """A head with one query whose unscaled scores are ``scores``: q = [1], K = the scores."""
    return Scenario(name=name, mode="direct", tokens=tokens, query_tokens=("next",),
                    Q=np.array([[1.0]]), K=scores.reshape(-1, 1), V=V, scaled=False)  # fmt: skip


def _next(values: np.ndarray) -> np.ndarray:
    return values.reshape(1, -1)  # (1, n): one row, a column per token


def _in_order(logits: np.ndarray, t: float, top_k: int | None = None) -> np.ndarray:
    """The core's distribution (likeliest first) back in the tokens' order, 0 if cut: (1, n)."""
    d = distribution(logits, t, top_k)
    return _next(np.bincount(d.ids, d.p, logits.size))


def temperature() -> Exercise:
    p, kept = _in_order(LOGITS, T), _in_order(LOGITS, T, top_k=2)
    not_renormalised = np.where(kept > 0, p, 0.0)
    return Exercise(
        id="temperature",
        title=Text("Temperature and top-k: choosing the next token"),
        short_title=Text("9 · Temperature"),
        source=Text("The Decoder lab: temperature and sampling"),
        statement=Text(
            "A language model gives four candidate next tokens the logits {logits} (for "
            "{words}). Sampling at temperature T uses {formula}. Take $T = 0.5$.",
            logits=f"$z = {tex(_next(LOGITS))}$",
            words="“Paris”, “Lyon”, “the”, “a”",
            formula="$p = \\operatorname{softmax}(z / T)$",
        ),
        scenario=one_query(N_("Exercise: temperature 0.5"), LOGITS / T, np.eye(4), WORDS),
        steps=(
            numeric(
                id="temperature",
                title=Text("softmax(z / T)"),
                symbol=r"\operatorname{softmax}(z / T)",
                prompt=Text("**Step 1.** The probabilities at $T = 0.5$ (3 decimals)."),
                accepted=[Variant(None, p)],
                mistakes=[
                    Mistake(
                        "temp_multiplied",
                        _in_order(LOGITS * T * T, T),
                        Text(
                            "It looks like the logits were multiplied by T: divide them by "
                            "T, so that a small T sharpens the distribution."
                        ),
                    ),
                    Mistake(
                        "temp_squared",
                        _in_order(LOGITS / T, T),
                        Text("It looks like the logits were divided by T twice (by T²)."),
                    ),
                ],
                decimals=3,
                layout=TOKEN_LAYOUT,
                kind="weights",
                hints=(
                    Text("Divide each logit by 0.5 first: z / T = [4, 2, 0, −2]."),
                    Text("Then the usual softmax: exp of each, divided by their sum."),
                ),
                explanation=Text(
                    "Dividing by T = 0.5 doubles the gaps between logits, so the softmax is "
                    "sharper than at T = 1: the same saturation as scores not divided by √d_k."
                ),
            ),
            numeric(
                id="top_k",
                title=Text("top-k = 2"),
                symbol=r"p_{\text{top-}2}",
                prompt=Text(
                    "**Step 2.** Now keep only the 2 likeliest tokens (top-k with k = 2). Give "
                    "the probabilities the next token is drawn with (3 decimals, 0 for the "
                    "others)."
                ),
                accepted=[Variant(None, kept)],
                mistakes=[
                    Mistake(
                        "topk_not_renormalised",
                        not_renormalised,
                        Text(
                            "These are the right two tokens, but they no longer add up to "
                            "1: divide each by their sum."
                        ),
                    ),
                ],
                decimals=3,
                layout=TOKEN_LAYOUT,
                kind="weights",
                hints=(Text("Keep the two largest, set the others to 0, then renormalise."),),
                explanation=Text(
                    "The two kept probabilities are divided by their sum, so the draw is "
                    "always among them and the row still adds up to 1."
                ),
            ),
        ),
    )


def online_softmax() -> Exercise:
    o = online_attention(np.array([[1.0]]), SCORES.reshape(-1, 1), VALUES, 2, scaled=False)
    first, second = o.tiles
    p2 = np.exp(second.scores - second.m[:, None])  # (1, 2): the second tile's own terms
    m_l = np.array([[second.m[0], second.l[0]]])
    no_rescale = np.array([[second.m[0], first.l[0] + p2.sum()]])
    acc1 = first.partial * first.l[:, None]  # (1, d_v): the first tile's numerator
    inverted = (acc1 / second.rescale[:, None] + p2 @ VALUES[2:]) / second.l[:, None]
    return Exercise(
        id="online_softmax",
        title=Text("The online softmax: two tiles of keys"),
        short_title=Text("10 · Online softmax"),
        source=Text("The Decoder lab: the online softmax (FlashAttention's trick)"),
        statement=Text(
            "One query's scaled scores against four keys are {scores}, and the keys' values "
            "are {values}. Compute its output the way fast kernels do, in two tiles of two "
            "keys. After tile 1 (keys 1 and 2): {state}.",
            scores=f"$s = {tex(_next(SCORES))}$",
            values=f"$V = {tex(VALUES)}$",
            state=f"$m = 2,\\ l = e^{{-1}} + e^{{0}} \\approx {first.l[0]:.4f}$",
        ),
        scenario=one_query(N_("Exercise: online softmax"), SCORES, VALUES, ("a", "b", "c", "d")),
        steps=(
            numeric(
                id="running_sum",
                title=Text("m and l after tile 2"),
                symbol="[m,\\ l]",
                prompt=Text(
                    "**Step 1.** Tile 2 brings the scores 3 and 0. Give the running maximum m "
                    "and the running sum l after it (4 decimals)."
                ),
                accepted=[Variant(None, m_l)],
                mistakes=[
                    Mistake(
                        "online_no_rescale_l",
                        no_rescale,
                        Text(
                            "The maximum grew from 2 to 3, so the old sum was measured "
                            "against the old maximum: multiply it by exp(2 − 3) before "
                            "adding the new terms."
                        ),
                    ),
                ],
                decimals=4,
                layout=Text("one row: m, then l"),
                hints=(
                    Text("The new maximum is max(2, 3, 0) = 3."),
                    Text("l = l_old · exp(m_old − m_new) + exp(3 − 3) + exp(0 − 3)."),
                ),
                explanation=Text(
                    "m = 3 and l = 1.3679 · e^(−1) + 1 + e^(−3): the old sum is rescaled to the "
                    "new maximum, then the tile's own terms are added."
                ),
            ),
            numeric(
                id="final_output",  # not "output": tiled, it may differ from the trace's
                title=Text("output"),
                symbol="o",
                prompt=Text(
                    "**Step 2.** The output after tile 2 (the final one, 4 decimals). After "
                    "tile 1 the unnormalised output was {acc}.",
                    acc=f"$e^{{-1}} v_1 + e^{{0}} v_2 = {tex(acc1, 4)}$",
                ),
                accepted=[Variant(None, o.output)],
                mistakes=[
                    Mistake(
                        "online_wrong_exponent",
                        inverted,
                        Text(
                            "The old output was multiplied by exp(m_new − m_old): the "
                            "factor is exp(m_old − m_new), at most 1."
                        ),
                    ),
                ],
                decimals=4,
                layout=Text("one row, one column per value dimension"),
                hints=(
                    Text(
                        "Rescale the old numerator by exp(2 − 3), add exp(s − 3) v for keys "
                        "3 and 4, then divide by l."
                    ),
                ),
                explanation=Text(
                    "The result equals softmax(s) V computed all at once: the online softmax "
                    "changes the order of the work, not the answer."
                ),
            ),
        ),
    )
