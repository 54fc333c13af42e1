"""The lessons' worked examples, to the rounding they are printed with.

A number printed to N decimals is checked to half a unit in its last digit, or to the
tolerance written next to it where the lesson's own rounding needs more (said there).
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import DEFAULT_PRESET, PRESETS, Scenario, default_scenario, random_scenario
from attention_core.presets import cat_mat, hungry, paper_toy, quiz88
from tests.tolerance import assert_within, matmul_bound, row_sum_bound


def test_paper_toy_numbers():
    t = paper_toy().validate()
    np.testing.assert_array_equal(t.scores, [[1.0, 2.0]])
    assert t.d_k == 2
    np.testing.assert_allclose(t.scaled_scores, [[0.7071, 1.4142]], atol=1e-4)  # >= half a unit
    # the guide prints 0.3303 / 0.6697 for 0.33024 / 0.66976: a whole unit off
    np.testing.assert_allclose(t.weights, [[0.3303, 0.6697]], atol=1e-4)
    # and 16.697 (from those rounded weights) for 16.6976: a whole unit of 3 decimals
    np.testing.assert_allclose(t.output, [[16.697]], atol=1e-3)


def test_hungry_numbers():
    t = hungry().validate()
    np.testing.assert_array_equal(t.scores, [[6.0, 2.0, 0.0]])
    assert t.scale == 0.5  # 1 / sqrt(4), exactly
    np.testing.assert_array_equal(t.scaled_scores, [[3.0, 1.0, 0.0]])  # exactly, no rounding
    np.testing.assert_allclose(t.weights, [[0.844, 0.114, 0.042]], atol=5e-4)  # half a unit
    np.testing.assert_allclose(t.output, [[2.41477, 3.93965]], atol=1e-5)  # >= half a unit


def test_hungry_output_from_the_rounded_weights():
    """The lesson multiplies out the weights as printed (3 decimals): 2.414 and 3.94."""
    t = hungry().trace()
    w = np.round(t.weights, 3)
    np.testing.assert_array_equal(w, [[0.844, 0.114, 0.042]])
    # 0.844*2 + 0.114*6 + 0.042*1 = 2.414;  0.844*4 + 0.114*2 + 0.042*8 = 3.94
    # One 3-term dot product (gamma_3 |w||V|) and the decimals 0.844, ..., 2.414 stored to
    # u each: within 2 gamma_3 |w||V| = matmul_bound.
    assert_within(w @ t.V, [[2.414, 3.94]], matmul_bound(w, t.V), "output from rounded weights")


def test_quiz88_numbers():
    t = quiz88().validate()
    np.testing.assert_array_equal(t.scores, [[3.0, 1.0]])
    np.testing.assert_allclose(t.scaled_scores, [[2.1213, 0.7071]], atol=1e-4)  # >= half a unit
    np.testing.assert_allclose(t.weights, [[0.8044, 0.1956]], atol=1e-4)  # >= half a unit
    percent = np.round(t.weights * 100, 1)
    np.testing.assert_array_equal(percent, [[80.4, 19.6]])
    np.testing.assert_array_equal(t.output, t.weights)  # V = I: w * 1 + w' * 0, exact


def test_cat_mat_is_valid_and_labels_the_repeated_word():
    s = cat_mat()
    np.testing.assert_array_equal(s.validate().weights, s.trace().weights)
    assert s.mode == "embeddings"
    assert s.tokens == ("the", "cat", "sat", "on", "the", "mat")
    assert s.key_labels == ["the (1)", "cat", "sat", "on", "the (2)", "mat"]
    t = s.trace()
    assert t.weights.shape == (6, 6)
    assert_within(t.weights.sum(axis=1), np.ones(6), row_sum_bound(6), "row sums")
    Q, K, V = s.qkv()
    # project() is X @ W on these same arrays: exactly equal
    np.testing.assert_array_equal(Q, s.X @ s.W_q)
    np.testing.assert_array_equal(K, s.X @ s.W_k)
    np.testing.assert_array_equal(V, s.X @ s.W_v)


@pytest.mark.parametrize("seed", [0, 1, 42])
def test_random_scenario_is_valid_and_rounded(seed):
    s = random_scenario(seed)
    np.testing.assert_array_equal(s.validate().weights, s.trace().weights)
    assert s.name == f"random (seed {seed})"
    assert len(s.tokens) == 4
    for name in ("X", "W_q", "W_k", "W_v"):
        M = getattr(s, name)
        np.testing.assert_array_equal(np.round(M, 2), M)
        assert not np.signbit(M[M == 0]).any()  # no -0.0 shown to learners
    assert s.X.shape == (4, 4)
    assert s.W_q.shape == s.W_k.shape == (4, 3)
    assert s.W_v.shape == (4, 3)


def test_random_scenario_shapes_and_many_tokens():
    s = random_scenario(3, n_tokens=20, d_model=5, d_k=2, d_v=7)
    s.validate()
    assert len(s.tokens) == 20
    assert s.tokens[:3] == ("the", "quick", "brown")
    assert s.tokens[-1] == "t20"
    assert len(set(s.key_labels)) == 20
    assert s.trace().output.shape == (20, 7)


def test_random_scenario_is_deterministic_per_seed():
    a, b = random_scenario(5), random_scenario(5)
    assert a == b
    for name in ("X", "W_q", "W_k", "W_v"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


def test_random_scenario_differs_across_seeds():
    mats = [random_scenario(seed) for seed in range(5)]
    for i in range(5):
        for j in range(i + 1, 5):
            for name in ("X", "W_q", "W_k", "W_v"):
                assert not np.array_equal(getattr(mats[i], name), getattr(mats[j], name)), (
                    i, j, name,
                )  # fmt: skip


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_preset_builds_a_valid_scenario(key):
    preset = PRESETS[key]
    assert preset.key == key
    assert preset.title
    assert preset.description
    s = preset.build()
    assert isinstance(s, Scenario)
    np.testing.assert_array_equal(s.validate().weights, s.trace().weights)
    w = s.trace().weights
    assert_within(w.sum(axis=1), np.ones(w.shape[0]), row_sum_bound(w.shape[1]), "row sums")


def test_default_scenario_is_the_default_preset():
    assert DEFAULT_PRESET in PRESETS
    assert default_scenario() == PRESETS[DEFAULT_PRESET].build()
    default_scenario().validate()
    assert default_scenario().name


def test_each_example_says_what_it_shows_and_its_scenario_bears_that_name():
    """Issue 22: "Lesson 88 quiz" and "Paper guide toy" named a source, not what the example
    shows; the loaded two-heads scenario was named with a comma its title lacked (the name
    and the title were two spellings). The keys stay: links and saved files use them."""
    assert list(PRESETS) == ["cat_mat", "paper_toy", "hungry", "quiz88", "two_heads", "random"]
    titles = {k: p.title for k, p in PRESETS.items()}
    assert titles["paper_toy"] == "One query, two keys: a weighted mix of 10 and 20"
    assert titles["quiz88"] == "Two keys: scores become 80 % and 20 % of the attention"
    assert titles["two_heads"] == "Two heads: the previous word and 'it' -> 'cat'"
    assert not any(word in t for t in titles.values() for word in ("Lesson", "quiz", "toy"))
    for key, preset in PRESETS.items():
        expected = "random (seed 0)" if key == "random" else preset.title  # the seed is news
        assert preset.build().name == expected, key
