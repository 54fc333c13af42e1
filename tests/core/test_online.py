"""The online softmax (attention_core.online_attention) against the full softmax: the slow
double loop, the core's attention() and every head of the real decoder, with the state it
keeps after every tile checked against its definition.

The tolerance, derived (u = eps / 2, float64): the online result and a full evaluation
differ in how each weight's numerator exp(s_j - m) is formed and in how the sums are
grouped. A tile's exp(s_j - m_t) and each later rescale exp(m_old - m_new) round their
arguments (u |s_j - m_t| and u |m_old - m_new|: together at most 2u R, R the row's range
of scores, since m only grows), and the 1 + T exps (2u each) and the T multiplications of
l and acc (u each) add at most (3T + 2) u: all of it acts like a change of the logit, which
``softmax_bound`` carries into the weights (the sums' grouping is in its 2 gamma_{n+4}),
and ``product_bound`` carries through V; the last division acc / l adds u |output|.

Issue 44 asks for 1e-12. That is not a bound the arithmetic gives for every head: on the
decoder's 810 heads below the derived bound reaches 4.3e-12, most of it the two
evaluations' 64-term score sums (|q| |k| up to ~100, |V| up to 8). The tests hold the
derived bound; the difference measured on them is 4e-15, and the three prompts' test
also checks the measured difference against the issue's 1e-12 (ISSUE_TARGET) and prints
both figures.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from reference import reference_attention
from smollm2 import PARIS, WINOGRAD, decoder

from attention_core import InputError, attention, causal_mask, online_attention, padding_mask
from tests.tolerance import assert_within, attention_bounds, eps, product_bound, softmax_bound

EPS = eps(np.float64)
# The issue's target, checked on what the decoder's heads measure (not a tolerance: the
# derived bound above is the test's tolerance; this says whether the target is met).
ISSUE_TARGET = 1e-12


def online_bound(Q, K, V, mask=None, scaled=True, n_tiles=1) -> np.ndarray:
    """|online output - a full evaluation's|, elementwise (the module docstring derives it)."""
    t = attention(Q, K, V, mask=mask, scaled=scaled)
    b = attention_bounds(t.Q, t.K, t.V, t.weights, t.scale, mask)
    x = t.masked_scores
    finite = np.isfinite(x)
    R = np.max(np.where(finite, x, -np.inf), axis=1, keepdims=True) - np.min(
        np.where(finite, x, np.inf), axis=1, keepdims=True
    )
    change = b.scaled + EPS * R + (3 * n_tiles + 2) * EPS / 2
    w_bound = softmax_bound(x, t.weights, change)
    return product_bound(t.weights, t.V, w_bound) + EPS * np.abs(t.output)


dims = st.integers(min_value=1, max_value=6)
values = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)


@st.composite
def cases(draw):
    """Q, K, V, a mask (or None) with a True in every row, and a tile size up to n_k + 2."""
    n_q, n_k, d_k, d_v = draw(dims), draw(st.integers(1, 12)), draw(dims), draw(dims)
    Q = draw(arrays(np.float64, (n_q, d_k), elements=values))
    K = draw(arrays(np.float64, (n_k, d_k), elements=values))
    V = draw(arrays(np.float64, (n_k, d_v), elements=values))
    mask = None
    if draw(st.booleans()):
        mask = draw(arrays(np.bool_, (n_q, n_k)))
        keep = draw(st.lists(st.integers(0, n_k - 1), min_size=n_q, max_size=n_q))
        mask[np.arange(n_q), keep] = True
    return Q, K, V, mask, draw(st.integers(1, n_k + 2)), draw(st.booleans())


@settings(max_examples=150, deadline=None)
@given(cases())
def test_equals_full_softmax_for_every_shape_tile_and_mask(case):
    Q, K, V, mask, tile, scaled = case
    o = online_attention(Q, K, V, tile, mask=mask, scaled=scaled)
    full = attention(Q, K, V, mask=mask, scaled=scaled).output
    bound = online_bound(Q, K, V, mask, scaled, len(o.tiles))
    assert_within(o.output, full, bound, f"tile {tile}")
    ref = np.array(reference_attention(Q, K, V, mask=mask, scaled=scaled).output)
    assert_within(o.output, ref, bound, f"tile {tile} against the double loop")
    assert len(o.tiles) == math.ceil(K.shape[0] / min(tile, K.shape[0]))


@settings(max_examples=80, deadline=None)
@given(cases())
def test_state_after_every_tile_is_its_definition(case):
    """After tile t: m = the largest score seen so far (exactly), rescale = exp(m_old -
    m_new), and the partial output = attention over the keys seen so far."""
    Q, K, V, mask, tile, scaled = case
    o = online_attention(Q, K, V, tile, mask=mask, scaled=scaled)
    t = attention(Q, K, V, mask=mask, scaled=scaled)
    # a tile's product and the full one sum each d_k-term dot product in their own order
    scores_bound = attention_bounds(t.Q, t.K, t.V, t.weights, t.scale, mask).scaled
    m_old = np.full(Q.shape[0], -np.inf)
    for i, s in enumerate(o.tiles):
        seen = t.masked_scores[:, : s.stop]
        own = np.hstack([u.scores for u in o.tiles[: i + 1]])  # the row so far, as tiled
        np.testing.assert_array_equal(s.m, own.max(axis=1))  # the running max: exact
        assert_within(own, seen, scores_bound[:, : s.stop], f"scores, tile {i}")
        expected = np.where(np.isfinite(s.m), np.exp(m_old - np.where(np.isfinite(s.m), s.m, 0)),
                            1.0)  # fmt: skip
        assert_within(s.rescale, expected, 2 * EPS * expected + 0.0, f"rescale, tile {i}")
        rows = np.isfinite(s.m)  # rows that have met a key they may attend to
        if rows.any():
            sub_mask = None if mask is None else mask[rows, : s.stop]
            prefix = attention(Q[rows], K[: s.stop], V[: s.stop], mask=sub_mask, scaled=scaled)
            bound = online_bound(Q[rows], K[: s.stop], V[: s.stop], sub_mask, scaled, i + 1)
            assert_within(s.partial[rows], prefix.output, bound, f"partial output, tile {i}")
            pairs = zip(own[rows].tolist(), s.m[rows].tolist(), strict=True)
            exact_l = [math.fsum(math.exp(x - mx) for x in row if x != -math.inf)
                       for row, mx in pairs]  # fmt: skip
            # the tiled row's own scores: exp's arguments (u R each), the exps and the
            # rescales ((3T + 2) u) and the sum (gamma_n <= n u (1 + small)), relative
            R = np.ptp(np.where(np.isfinite(own[rows]), own[rows], s.m[rows, None]), axis=1)
            rel = EPS * R + (3 * (i + 1) + 2) * EPS / 2 + 1.01 * s.stop * EPS / 2
            l_bound = rel * np.array(exact_l)
            assert_within(s.l[rows], exact_l, l_bound, f"l, tile {i}")
        assert (s.partial[~rows] == 0).all() and (s.l[~rows] == 0).all()
        m_old = s.m


def test_a_masked_tile_changes_nothing_and_a_row_that_has_seen_nothing_holds_zero():
    """Tiles of one key. Causal mask: query 1 meets its only key in tile 1, and every later
    tile is masked for it. The mask's transpose: query 4 may attend to key 4 only, so it
    has seen nothing until the last tile."""
    rng = np.random.default_rng(0)
    Q, K, V = rng.normal(size=(4, 3)), rng.normal(size=(4, 3)), rng.normal(size=(4, 2))
    for mask in (causal_mask(4), causal_mask(4).T):
        o = online_attention(Q, K, V, 1, mask=mask)
        assert_within(o.output, attention(Q, K, V, mask=mask).output,
                      online_bound(Q, K, V, mask, n_tiles=4), "tiles of 1")  # fmt: skip
    o = online_attention(Q, K, V, 1, mask=causal_mask(4))
    first = o.tiles[0]
    for later in o.tiles[1:]:
        assert later.m[0] == first.m[0] and later.l[0] == first.l[0] == 1.0
        assert later.rescale[0] == 1.0
        np.testing.assert_array_equal(later.partial[0], V[0])  # one key: its value exactly
    o = online_attention(Q, K, V, 1, mask=causal_mask(4).T)
    for before in o.tiles[:3]:
        assert before.m[3] == -np.inf and before.l[3] == 0 and before.rescale[3] == 1
        assert (before.partial[3] == 0).all()
    last = o.tiles[3]
    assert last.rescale[3] == 0.0 and last.l[3] == 1.0  # exp(-inf - m): nothing to rescale
    np.testing.assert_array_equal(last.partial[3], V[3])


def test_rescale_on_a_larger_maximum():
    """Scores 0 then 2 (one query, d_k = 1, unscaled): the second tile rescales by e^-2."""
    o = online_attention([[1.0]], [[0.0], [2.0]], [[1.0], [3.0]], 1, scaled=False)
    assert o.tiles[1].m[0] == 2.0
    assert o.tiles[1].rescale[0] == pytest.approx(math.exp(-2.0), rel=2 * EPS)
    assert o.tiles[1].l[0] == pytest.approx(math.exp(-2.0) + 1.0, rel=4 * EPS)
    w1 = 1 / (1 + math.exp(-2.0))  # weight of the second key
    assert o.output[0, 0] == pytest.approx((1 - w1) * 1.0 + w1 * 3.0, rel=8 * EPS)


def test_memory_held_is_linear_in_the_tile():
    o = online_attention(np.ones((3, 4)), np.ones((10, 4)), np.ones((10, 5)), 4)
    assert (o.held, o.full_row, len(o.tiles)) == (2 + 5 + 4, 10, 3)
    assert [(s.start, s.stop) for s in o.tiles] == [(0, 4), (4, 8), (8, 10)]


@pytest.mark.parametrize("tile", [0, -1, 2.5, "3", True, None])
def test_a_bad_tile_is_a_clear_input_error(tile):
    with pytest.raises(InputError, match="tile size"):
        online_attention(np.ones((2, 2)), np.ones((3, 2)), np.ones((3, 2)), tile)


def test_a_fully_masked_row_is_the_same_input_error_as_attention():
    mask = padding_mask(2, 3, 1)
    mask[1, 0] = False  # row 2 may attend to nothing
    Q = K = V = np.ones((2, 2))
    with pytest.raises(InputError) as full:
        attention(Q, K[:2], V[:2], mask=mask[:, :2])
    with pytest.raises(InputError) as online:
        online_attention(Q, K[:2], V[:2], 1, mask=mask[:, :2])
    assert online.value.message == full.value.message


def test_shapes_attention_takes_one_vector_a_row():
    q, K, V = np.array([1.0, 0.5]), np.eye(2), np.array([[1.0], [2.0]])
    o = online_attention(q, K, V, 1)
    assert o.output.shape == (1, 1)
    assert_within(o.output, attention(q, K, V).output, online_bound(q, K, V, n_tiles=2), "1-D q")


@pytest.fixture(scope="module")
def runs():
    d = decoder()
    return [d.run(text) for text in (PARIS, WINOGRAD, "1, 2, 3, 4, 5, 6, 7, 8,")]


def test_every_head_of_the_decoder_on_three_prompts(runs):
    """810 heads, tile sizes 1, 3, 8 and the whole row: within the derived bound."""
    worst = worst_bound = 0.0
    for run in runs:
        mask = causal_mask(run.n)
        for layer in range(run.n_layers):
            la = run.layers[layer]
            for head in range(run.n_heads):
                g = run.config.kv_head(head)
                Q, K, V = la.Q[:, head], la.K[:, g], la.V[:, g]
                full = run.head(layer, head).output
                for tile in (1, 3, 8, run.n):
                    o = online_attention(Q, K, V, tile, mask=mask)
                    bound = online_bound(Q, K, V, mask, n_tiles=len(o.tiles))
                    assert_within(o.output, full, bound, f"layer {layer}, head {head}, {tile}")
                    worst = max(worst, float(np.abs(o.output - full).max()))
                    worst_bound = max(worst_bound, float(bound.max()))
    print(f"worst difference {worst:.2e} (issue 44's target {ISSUE_TARGET:.0e}), "
          f"worst derived bound {worst_bound:.2e}")  # fmt: skip
    assert worst <= ISSUE_TARGET, f"measured {worst:.2e} > the issue's {ISSUE_TARGET:.0e}"
