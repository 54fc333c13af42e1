"""A scenario's multi-head settings: n_heads and W_O, their links, their shape rules, their
messages. Expected numbers are computed here with NumPy slices, not by multi_head_attention."""

from __future__ import annotations

import base64
import json
import re
import zlib

import numpy as np
import pytest

from attention_core import PRESETS, InputError, Scenario, random_scenario, shapes
from attention_core.heads import head_projections, head_scenario, multi_head_trace
from tests.tolerance import assert_within, attention_bounds, matmul_bound


def raises_exactly(message: str):
    return pytest.raises(InputError, match="^" + re.escape(message) + "$")


def heads(n_heads: int = 2, width: int = 4, d_model: int = 4) -> Scenario:
    s = random_scenario(seed=4, n_tokens=3, d_model=d_model, d_k=width, d_v=width)
    W_o = np.arange(width * d_model, dtype=float).reshape(width, d_model) / 10
    return s.replace(W_o=W_o, n_heads=n_heads)


def old_link(payload: dict) -> str:
    """A link packed as the app has always packed them (zlib + base64 of the JSON)."""
    raw = json.dumps(payload, separators=(",", ":")).encode()
    return "v1." + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def test_heads_and_w_o_survive_links_and_files() -> None:
    s = heads(2)
    for again in (Scenario.from_url(s.to_url()), Scenario.from_json(s.to_json())):
        assert again.n_heads == 2
        np.testing.assert_array_equal(again.W_o, s.W_o)
        assert again == s


def test_one_head_writes_the_same_payload_as_before() -> None:
    payload = PRESETS["cat_mat"].build().to_dict()
    assert "n_heads" not in payload and set(payload["matrices"]) == {"X", "W_q", "W_k", "W_v"}


def test_an_old_link_and_file_load_as_one_head() -> None:
    payload = {
        "version": 1,
        "name": "old",
        "tokens": ["a", "b"],
        "mode": "embeddings",
        "matrices": {"X": [[1, 0], [0, 1]], "W_q": [[1], [0]], "W_k": [[1], [1]],
                     "W_v": [[2], [3]]},
        "mask": {"kind": "none"},
        "scaled": True,
    }  # fmt: skip
    for s in (Scenario.from_url(old_link(payload)), Scenario.from_json(json.dumps(payload))):
        assert s.n_heads == 1 and s.W_o is None
        np.testing.assert_array_equal(s.trace().weights[0], [0.5, 0.5])  # scores 1, 1: exact


BAD = [
    pytest.param(
        heads(3),
        "W_q has 4 columns, which do not split into 3 heads of equal width: "
        "choose a number of heads among [1, 2, 4]",
        "n_heads",
        id="not-a-divisor",
    ),
    pytest.param(
        heads(2).replace(W_v=np.ones((4, 3)), W_o=np.ones((3, 4))),
        "2 heads need W_v as wide as W_q (d_v = d_k), but W_v has 3 columns and W_q has 4: "
        "each head takes a slice of the same width from both",
        "n_heads",
        id="d_v-is-not-d_k",
    ),
    pytest.param(
        heads(2).replace(W_o=None),
        "2 heads need W_o (4 x 4) to map their concatenation back to d_model: "
        "add it on the Multi-head page",
        "W_o",
        id="no-W_o",
    ),
    pytest.param(
        heads(1).replace(W_o=np.ones((4, 3))),
        "W_o is 4 x 3 but must be d_v x d_model = 4 x 4: one row per column of the heads' "
        "concatenation, one column per embedding dimension",
        "W_o",
        id="W_o-shape",
    ),
    pytest.param(
        heads(0),
        "the number of heads must be a whole number of at least 1, not 0",
        "n_heads",
        id="zero-heads",
    ),
    pytest.param(
        PRESETS["hungry"].build().replace(n_heads=2),
        "2 heads need embeddings mode: the heads split the projections W_q, W_k and W_v, "
        "which direct mode does not have",
        "n_heads",
        id="direct-mode",
    ),
]


@pytest.mark.parametrize(("s", "message", "where"), BAD)
def test_bad_head_settings_name_the_matrix(s: Scenario, message: str, where: str) -> None:
    with raises_exactly(message) as info:
        s.validate()
    assert info.value.where == where


@pytest.mark.parametrize(
    ("n_heads", "message"),
    [(2.0, "the scenario's n_heads must be a whole number"),
     (True, "the scenario's n_heads must be a whole number"),
     ("2", "the scenario's n_heads must be a whole number")],
)  # fmt: skip
def test_a_file_with_a_bad_head_count_is_refused(n_heads: object, message: str) -> None:
    payload = heads(2).to_dict()
    payload["n_heads"] = n_heads
    with raises_exactly(message):
        Scenario.from_dict(payload)


def test_the_trace_splits_columns_in_order() -> None:
    s = heads(2)
    mh = multi_head_trace(s)
    for h in range(2):
        cols = slice(2 * h, 2 * h + 2)
        # (X W_q)[:, cols] and X (W_q[:, cols]): two evaluations of the same products
        want = s.X @ s.W_q[:, cols]
        assert_within(mh.heads[h].Q, want, matmul_bound(s.X, s.W_q[:, cols]), "Q")
        np.testing.assert_array_equal(head_projections(s, mh, h)["V"], s.W_v[:, cols])
    assert mh.heads[0].scale == 1 / np.sqrt(2)  # d_head, not the full width


def test_a_head_opens_as_a_direct_mode_scenario() -> None:
    s = heads(2).replace(mask_kind="causal", name="mine")
    one = head_scenario(s, multi_head_trace(s), 1)
    assert one.mode == "direct" and one.name == "mine: head 2 of 2" and one.mask_kind == "causal"
    Q, K = s.X @ s.W_q[:, 2:4], s.X @ s.W_k[:, 2:4]
    dQ, dK = matmul_bound(s.X, s.W_q[:, 2:4]), matmul_bound(s.X, s.W_k[:, 2:4])
    assert_within(one.K, K, dK, "K")  # (X W_k)[:, 2:4] against X (W_k[:, 2:4])
    causal = np.tril(np.ones((3, 3), bool))
    scores = np.where(causal, Q @ K.T / np.sqrt(2), -np.inf)
    want = np.exp(scores - scores.max(axis=1, keepdims=True))
    want = want / want.sum(axis=1, keepdims=True)
    b = attention_bounds(Q, K, one.V, want, 1 / np.sqrt(2), causal, dQ, dK)
    assert_within(one.validate().weights, want, b.weights, "weights")


def test_the_fix_makes_any_scenario_ready_for_heads() -> None:
    cat = PRESETS["cat_mat"].build()  # d_k = 3, d_v = 4 = d_model, no W_o
    assert not shapes.heads_ready(cat)
    ready = shapes.ready_for_heads(cat)
    assert shapes.heads_ready(ready) and ready.W_v.shape == (4, 3)
    np.testing.assert_array_equal(ready.W_v, cat.W_v[:, :3])  # the numbers that fit are kept
    assert ready.W_o.shape == (3, 4) and np.abs(ready.W_o).sum() > 0  # random: d_v != d_model
    square = shapes.ready_for_heads(random_scenario(d_model=3, d_k=3, d_v=3))
    np.testing.assert_array_equal(square.W_o, np.eye(3))  # identity: output = concatenation
    direct = shapes.ready_for_heads(PRESETS["hungry"].build())
    assert direct.mode == "embeddings" and shapes.heads_ready(direct)
    direct.validate()


def test_sizes_keep_w_o_in_step_and_heads_valid() -> None:
    s = shapes.with_size(heads(2), "d_model", 6)
    assert s.W_o.shape == (4, 6) and s.n_heads == 2
    s = shapes.with_size(heads(4), "d_k", 6)  # with heads, d_v follows d_k
    assert s.W_v.shape[1] == 6 and s.W_o.shape == (6, 4) and s.n_heads == 1
    assert shapes.switch_mode(heads(2), "direct").n_heads == 1
    assert shapes.head_choices(heads(2, width=6)) == [1, 2, 3, 6]
    pasted, changed = shapes.with_matrix(heads(1), "W_o", np.ones((4, 5)))
    assert changed == {"d_model": 5} and pasted.X.shape == (3, 5)


# ---- issue 34: "Make it ready for heads" keeps Q, K and V typed directly ----------------------
def direct(d_k: int, d_v: int, n: int = 4) -> Scenario:
    """Small integers, so every product and sum below is exact in float64."""
    rng = np.random.default_rng(7)
    Q, K = (rng.integers(-3, 4, size=(n, d_k)).astype(float) for _ in range(2))
    V = rng.integers(-3, 4, size=(n, d_v)).astype(float)
    return Scenario(tokens=tuple("abcd"[:n]), mode="direct", Q=Q, K=K, V=V)


@pytest.mark.parametrize(("d_k", "d_v"), [(3, 4), (4, 2), (3, 3)])
def test_the_fix_keeps_q_k_and_v_typed_directly(d_k: int, d_v: int) -> None:
    s = direct(d_k, d_v)
    ready = shapes.ready_for_heads(s)
    assert shapes.heads_ready(ready) and ready.tokens == s.tokens
    t = ready.validate()
    w = max(d_k, d_v)
    assert t.Q.shape == (4, w) and t.V.shape == (4, w)
    np.testing.assert_array_equal(t.Q[:, :d_k], s.Q)  # X W_q picks a block of X: exact
    np.testing.assert_array_equal(t.K[:, :d_k], s.K)
    np.testing.assert_array_equal(t.V[:, :d_v], s.V)
    np.testing.assert_array_equal(t.Q[:, d_k:], 0)  # the narrower side gains zeros only
    np.testing.assert_array_equal(t.V[:, d_v:], 0)
    np.testing.assert_array_equal(t.scores, s.Q @ s.K.T)  # integers: exact
    assert t.scale == pytest.approx(1 / np.sqrt(w), rel=1e-15)
    if d_v <= d_k:  # the same scaled scores, so the same weights, bit for bit
        before = s.validate()
        np.testing.assert_array_equal(t.weights, before.weights)
        np.testing.assert_array_equal(t.output[:, :d_v], before.output)


def test_the_fix_of_a_cross_attention_keeps_k_and_v_and_asks_with_k() -> None:
    s = PRESETS["quiz88"].build()
    assert s.query_tokens is not None
    t = shapes.ready_for_heads(s).validate()
    np.testing.assert_array_equal(t.K[:, : s.K.shape[1]], s.K)
    np.testing.assert_array_equal(t.V[:, : s.V.shape[1]], s.V)
    np.testing.assert_array_equal(t.Q, t.K)
