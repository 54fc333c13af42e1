"""Numbers beyond float64 are refused with their reason (issue 41, defect 9).

The expected verdicts come from exact arithmetic (Python's Fraction), never from the core:
a q·k whose exact value is beyond float64's largest number must be refused, one well
inside it accepted, and an accepted scenario has finite scores, weights and output.
"""

from __future__ import annotations

import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import InputError, Scenario, multi_head_attention
from attention_core.exercises.catalogue import all_exercises
from attention_core.exercises.checker import check_answer
from attention_core.exercises.model import NumericStep
from attention_core.i18n import english

LARGEST = sys.float_info.max  # 1.7976931348623157e308, from the platform, not the core
EPS = sys.float_info.epsilon


def direct(Q, K, V, tokens=("cat", "sat")) -> Scenario:
    return Scenario(tokens=tokens, mode="direct", Q=np.array(Q, float), K=np.array(K, float),
                    V=np.array(V, float))  # fmt: skip


def refusal(s: Scenario) -> InputError:
    with pytest.raises(InputError) as caught:
        s.validate()
    return caught.value


def test_a_score_beyond_float64_is_refused_naming_the_pair_and_the_limit() -> None:
    """The issue's case: 1e308 in a query, 10 in a key; q·k = 1e309 exactly."""
    err = refusal(direct([[1e308, 1.0], [1.0, 1.0]], [[1.0, 1.0], [10.0, 1.0]], np.eye(2)))
    assert err.where == "Q"
    assert err.message.startswith("the scores overflow: q·k for (cat, sat) is larger than "
                                  "1.8e+308"), err.message  # fmt: skip
    assert "1e+308" in err.message  # the entry behind it


def test_a_negative_overflow_says_smaller() -> None:
    low = refusal(direct([[1e308, 1.0]], [[-10.0, 1.0], [1.0, 1.0]], [[1.0], [2.0]],
                         tokens=("a", "b")).replace(query_tokens=("q",)))  # fmt: skip
    assert "q·k for (q, a) is smaller than −1.8e+308" in low.message
    # (∞ − ∞ = nan depends on the BLAS's order of the sum and on fused multiply-adds; the
    # property test below accepts it as a reason)


def test_a_projection_beyond_float64_is_refused_on_x() -> None:
    X = np.array([[1e308, 0.0], [1.0, 1.0]])
    W = np.array([[10.0, 0.0], [0.0, 1.0]])
    s = Scenario(tokens=("cat", "sat"), X=X, W_q=W, W_k=np.eye(2), W_v=np.eye(2))
    err = refusal(s)
    assert err.where == "X"
    assert err.message.startswith("the projection overflows: Q for 'cat', column 1, is larger "
                                  "than 1.8e+308"), err.message  # fmt: skip


def test_a_multi_head_output_beyond_float64_is_refused_on_w_o() -> None:
    """Each head's numbers are finite; W_o's product is not (1e300 · 1e10)."""
    X = np.array([[1e300, 0.0], [1e300, 0.0]])
    W_o = np.array([[1e10, 0.0], [0.0, 1.0]])
    s = Scenario(tokens=("a", "b"), X=X, W_q=np.zeros((2, 2)), W_k=np.zeros((2, 2)),
                 W_v=np.eye(2), W_o=W_o, n_heads=2)  # fmt: skip
    err = refusal(s)
    assert err.where == "W_o"
    assert err.message.startswith("the output overflows: the output for 'a', column 1"), err
    with pytest.raises(InputError, match="the output overflows"):
        multi_head_attention(X, np.zeros((2, 2)), np.zeros((2, 2)), np.eye(2), W_o, 2)


def test_a_file_and_a_link_with_such_numbers_are_refused() -> None:
    good = direct([[1.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [10.0, 1.0]], np.eye(2))
    d = good.to_dict()
    d["matrices"]["Q"][0][0] = 1e308
    with pytest.raises(InputError, match="the scores overflow"):
        Scenario.from_dict(d)
    import json

    with pytest.raises(InputError, match="the scores overflow"):
        Scenario.from_json(json.dumps(d))
    with pytest.raises(InputError, match="the scores overflow"):
        Scenario.from_url(_url_of(d))
    assert Scenario.from_url(_url_of(good.to_dict())) == good  # the link's format itself


def _url_of(d: dict) -> str:
    """A link's text for ``d`` made the way to_url makes one, without validating it."""
    import base64
    import json
    import zlib

    raw = zlib.compress(json.dumps(d, separators=(",", ":")).encode(), 9)
    return "v1." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_an_exercise_answer_whose_rows_overflow_is_not_read() -> None:
    """The checker adds a row of weights up: 1e308 + 1e308 is beyond float64."""
    step = next(s for ex in all_exercises() for s in ex.steps
                if isinstance(s, NumericStep) and s.kind == "weights")  # fmt: skip
    rows, cols = step.expected.shape
    text = "\n".join(", ".join(["1e308"] * cols) for _ in range(rows))
    said = english(check_answer(step, text).said)
    assert said.startswith("Could not read that answer: the numbers of row 1 add up to a sum "
                           "larger than 1.8e+308"), said  # fmt: skip
    assert "inf" not in said


# ---- properties --------------------------------------------------------------------------
# Numbers as a learner might type them: any sign, powers of ten up to 1e308, so that some
# scenarios overflow and most do not.
typed = st.builds(
    lambda sign, mantissa, power: sign * mantissa * 10.0**power,
    st.sampled_from((-1.0, 1.0)), st.floats(1.0, 9.99), st.integers(-3, 307),
)  # fmt: skip


@st.composite
def scenarios(draw) -> Scenario:
    n_q, n_k, d_k, d_v = (draw(st.integers(1, 3)) for _ in range(4))
    grid = lambda r, c: np.array(draw(st.lists(typed, min_size=r * c, max_size=r * c))  # noqa: E731
                                 ).reshape(r, c)  # fmt: skip
    V = np.clip(grid(n_k, d_v), -1e300, 1e300)  # the output stays finite: a score overflows
    return Scenario(tokens=tuple(f"k{j}" for j in range(n_k)), mode="direct",
                    query_tokens=tuple(f"q{i}" for i in range(n_q)), Q=grid(n_q, d_k),
                    K=grid(n_k, d_k), V=V)  # fmt: skip


def exact_scores(s: Scenario) -> list[list[Fraction]]:
    return [[sum((Fraction(a) * Fraction(b) for a, b in zip(q, k, strict=True)), Fraction(0))
             for k in s.K] for q in s.Q]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(scenarios())
def test_accepted_means_finite_and_refused_names_its_overflow(s: Scenario) -> None:
    exact = exact_scores(s)
    # float64 sums of d_k products may round past the limit a little (d_k units of 2^-53)
    slack = 1 + 4 * EPS * s.Q.shape[1]
    surely_over = any(abs(x) > LARGEST * slack for row in exact for x in row)
    surely_in = all(abs(x) < LARGEST / slack for row in exact for x in row)
    try:
        t = s.validate()
    except InputError as err:
        assert not surely_in, (err.message, exact)
        assert err.message.startswith("the scores overflow: q·k for (q"), err.message
        assert "1.8e+308" in err.message or "not a number" in err.message
        return
    assert not surely_over, exact
    for stage in (t.scores, t.scaled_scores, t.weights, t.output):
        assert np.isfinite(stage).all()
    assert np.all(np.abs(t.weights.sum(axis=1) - 1) <= 4 * EPS * t.weights.shape[1])
