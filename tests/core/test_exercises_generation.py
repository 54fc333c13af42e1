"""The decoder exercises (temperature, online softmax): their answers written out by hand
with math.exp, and every named slip recognised by the checker from a typed answer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_core.exercises import check_answer
from attention_core.exercises.catalogue import exercise_by_id
from attention_core.exercises.model import MISTAKE_LABELS


def typed(row: list[float], decimals: int) -> str:
    return ", ".join(f"{x:.{decimals}f}" for x in row)


def softmax(z: list[float]) -> list[float]:
    top = max(z)
    e = [math.exp(x - top) for x in z]
    return [x / math.fsum(e) for x in e]


P = softmax([4.0, 2.0, 0.0, -2.0])  # logits [2, 1, 0, -1] / T = 0.5
KEPT = [P[0] / (P[0] + P[1]), P[1] / (P[0] + P[1]), 0.0, 0.0]
L1 = math.exp(-1) + 1.0  # after tile 1 (scores 1, 2): m = 2
L2 = L1 * math.exp(-1) + math.exp(0) + math.exp(-3)  # tile 2 (scores 3, 0): m = 3
V = [[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [1.0, 1.0]]
W = softmax([1.0, 2.0, 3.0, 0.0])
OUT = [math.fsum(w * v[d] for w, v in zip(W, V, strict=True)) for d in range(2)]
ACC1 = [math.exp(-1) * V[0][d] + V[1][d] for d in range(2)]
INVERTED = [(ACC1[d] * math.e + V[2][d] + math.exp(-3) * V[3][d]) / L2 for d in range(2)]

CASES = [  # exercise, step, the right answer, (a slip's answer, its name)...
    ("temperature", "temperature", (P, 3), [(softmax([1.0, 0.5, 0.0, -0.5]), "temp_multiplied"),
                                            (softmax([8.0, 4.0, 0.0, -4.0]), "temp_squared")]),
    ("temperature", "top_k", (KEPT, 3), [([P[0], P[1], 0.0, 0.0], "topk_not_renormalised")]),
    ("online_softmax", "running_sum", ([3.0, L2], 4),
     [([3.0, L1 + 1.0 + math.exp(-3)], "online_no_rescale_l")]),
    ("online_softmax", "final_output", (OUT, 4), [(INVERTED, "online_wrong_exponent")]),
]  # fmt: skip


@pytest.mark.parametrize(("exercise", "step_id", "right", "slips"), CASES)
def test_the_answer_is_right_and_every_slip_is_named(exercise, step_id, right, slips):
    step = exercise_by_id(exercise).step(step_id)
    values, decimals = right
    assert step.decimals == decimals
    np.testing.assert_allclose(step.expected[0], values, rtol=0, atol=1e-12)
    assert check_answer(step, typed(values, decimals)).correct
    for wrong, name in slips:
        fb = check_answer(step, typed(wrong, decimals))
        assert not fb.correct and fb.mistake == name, (name, fb.message)
        assert name in MISTAKE_LABELS


def test_the_scenarios_show_the_same_softmax():
    t = exercise_by_id("temperature").scenario.trace()
    np.testing.assert_allclose(t.weights[0], P, rtol=0, atol=1e-15)
    o = exercise_by_id("online_softmax").scenario.trace()
    np.testing.assert_allclose(o.output[0], OUT, rtol=0, atol=1e-15)
