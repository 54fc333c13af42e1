"""The Decoder lab's figures read back from the go.Figure (constructed arrays: no model, no
Streamlit), and its data step on a real run (needs the decoder)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_ui.decoder import data
from attention_ui.decoder import figures as df
from tests.core import smollm2
from tests.core.smollm2 import rope_float32_error
from tests.tolerance import gamma

RNG = np.random.default_rng(7)


def causal_weights(layers: int, heads: int, n: int) -> np.ndarray:
    """Random rows that sum to 1 over keys 0..i (exactly 0 above the diagonal)."""
    W = RNG.random((layers, heads, n, n)) * np.tril(np.ones((n, n)))
    return W / W.sum(axis=-1, keepdims=True)


# ---- figures (no model) ----
def test_next_tokens_are_bars_likeliest_on_top_with_their_probabilities():
    figure = df.next_tokens_bar(["␣Paris", "␣the", "<b>"], [0.77, 0.06, 0.01], "Next")
    bar = figure.data[0]
    assert list(bar.y) == ["1. ␣Paris", "2. ␣the", "3. &lt;b&gt;"]  # learner text escaped
    assert list(bar.x) == [0.77, 0.06, 0.01] and list(bar.text) == ["0.770", "0.060", "0.010"]
    assert figure.layout.yaxis.autorange == "reversed"  # the first bar on top


def test_the_pattern_map_has_a_cell_per_head_coloured_by_pattern():
    codes = np.zeros((30, 9), dtype=int)
    codes[29, 8] = data.PATTERN_CODES["sink"]
    names = [["" for _ in range(9)] for _ in range(30)]
    names[29][8] = "first-token sink"
    figure = df.pattern_map(codes, names, "Patterns")
    heat = figure.data[0]
    np.testing.assert_array_equal(heat.z, codes)
    assert heat.text[29][8] == "sink" and list(heat.x) == [f"H{i}" for i in range(1, 10)]
    assert heat.y[0] == "L1" and heat.y[29] == "L30"
    assert heat.zmin == -0.5 and heat.zmax == len(df.PATTERN_COLOURS) - 0.5  # a colour per code


def test_the_gallery_places_each_heads_map_and_names_it():
    W = causal_weights(10, 9, 5)
    names = [[f"p{layer}-{h}" if (layer + h) % 4 == 0 else "" for h in range(9)]
             for layer in range(10)]  # fmt: skip
    figure = df.gallery(W, names, first_layer=10, title="Layers 11-20")
    z = np.asarray(figure.data[0].z, dtype=float)
    step_y = z.shape[0] // 10
    for layer, head in ((0, 0), (3, 8), (9, 4)):
        block = z[layer * step_y : layer * step_y + 5, head * 6 : head * 6 + 5]
        np.testing.assert_allclose(block, W[layer, head], rtol=1e-6)  # stored as float32
        assert (np.triu(block, 1) == 0).all()
    assert list(figure.layout.yaxis.ticktext) == [f"L{i}" for i in range(11, 21)]
    written = [a.text for a in figure.layout.annotations]
    assert written == [x for row in names for x in row if x]


def test_the_head_grid_holds_each_heads_value_and_outlines_the_pick():
    values = RNG.random((30, 9))
    figure = df.head_grid(values, "On trophy", pick=(16, 3))
    np.testing.assert_array_equal(figure.data[0].z, values)
    assert figure.data[0].text[16][3] == f"{values[16, 3]:.2f}"  # on hover
    assert figure.data[0].texttemplate == ""  # 270 printed numbers: the table has them
    labelled = df.head_grid(values, "Strongest", text=[["<b>it"] * 9] * 30)
    assert (
        labelled.data[0].texttemplate == "%{text}" and labelled.data[0].text[0][0] == "&lt;b&gt;it"
    )
    (outline,) = figure.layout.shapes
    assert (outline.x0, outline.x1, outline.y0, outline.y1) == (2.5, 3.5, 15.5, 16.5)
    phone = df.head_grid(values, "On trophy", phone=True)
    assert phone.data[0].texttemplate == "" and phone.layout.width == df.PHONE_WIDTH


def test_the_rope_curve_against_the_flat_score_without_rope():
    distances = np.arange(64)
    scores = np.cos(distances / 10.0)
    figure = df.rope_distance(distances, scores, 0.5, (12, float(scores[12])), "RoPE")
    curve, flat, here = figure.data
    np.testing.assert_array_equal(curve.y, scores)
    assert list(flat.y) == [0.5, 0.5] and list(flat.x) == [0, 63]
    assert list(here.x) == [12] and here.y[0] == scores[12]


@pytest.mark.parametrize("pick", [0, 4, 8])
def test_the_gqa_diagram_joins_each_query_head_to_its_key_value_head(pick: int):
    figure = df.gqa_diagram(9, 3, pick, "GQA")
    lines, queries, kvs = figure.data[:9], figure.data[9], figure.data[10]
    for h, line in enumerate(lines):
        assert line.x[0] == h and line.x[1] == kvs.x[h // 3]  # head h -> key/value head h // 3
        strong = h // 3 == pick // 3
        assert (line.line.color != "#BBBBBB") == strong
    assert list(queries.text) == [f"Q{h}" for h in range(1, 10)]
    assert list(kvs.text) == ["K/V 1", "K/V 2", "K/V 3"]
    assert queries.marker.color[pick] == df.fig.OKABE_ITO[3]


def test_a_causal_map_greys_the_future_and_an_encoders_does_not():
    W = causal_weights(1, 1, 4)[0, 0]
    causal = np.asarray(df.mean_attention(W, list("abcd"), "Decoder", True).data[0].z, float)
    assert np.isnan(causal[np.triu_indices(4, 1)]).all()
    np.testing.assert_array_equal(causal[np.tril_indices(4)], W[np.tril_indices(4)])
    full = np.asarray(df.mean_attention(W + 0.1, list("abcd"), "Encoder", False).data[0].z)
    assert not np.isnan(full).any()
    three = df.group_weights([W, W, W], list("abcd"), [3, 4, 5], pick=4)
    assert [f.layout.title.text for f in three] == ["Head 4", "Head 5 (this one)", "Head 6"]


# ---- the data step on a real run ----
@pytest.fixture(scope="module")
def winograd():
    # skips with the reason when the decoder is absent; fails under CI=true
    return smollm2.decoder().run(smollm2.WINOGRAD)


def test_defaults_are_it_and_trophy(winograd):
    query = data.default_query(winograd)
    assert winograd.labels[query] == "it"
    assert winograd.labels[data.default_target(winograd, query)] == "trophy"


def test_strongest_keys_never_lie_ahead_of_the_query(winograd):
    target, weight = data.strongest_keys(winograd, 4)
    assert target.shape == (30, 9) and (target <= 4).all()
    np.testing.assert_array_equal(weight, winograd.weights[:, :, 4, :5].max(axis=-1))


def test_the_encoder_sends_attention_ahead_and_the_decoder_never(winograd):
    assert data.later_share(winograd.weights) == 0.0
    assert data.later_share(np.full((1, 1, 3, 3), 1 / 3)) == pytest.approx(1 / 3)
    assert data.mean_head(winograd.weights).shape == (winograd.n, winograd.n)


def test_pattern_counts_add_up_to_270(winograd):
    counts = data.pattern_counts(winograd)
    assert sum(counts.values()) == 270
    assert counts["first-token sink"] > 135  # most heads of this prompt are sinks
    assert 0.5 < data.sink_share(winograd) <= 1.0


def test_the_rope_curve_at_the_pairs_real_distance_is_its_score(winograd):
    distances, scores, plain, actual = data.rope_curve(winograd, 16, 3, 12, 1)
    assert distances[0] == 0 and scores.shape == distances.shape
    la = winograd.layers[16]
    q, k = la.Q_pre[12, 3], la.K_pre[1, 1]
    assert abs(scores[11] - actual) <= rope_float32_error(q, k, 12, 1)
    # no distance, no turn: the same 64 products summed in two orders (float64), within
    # twice gamma_64 of the sum of their magnitudes, over sqrt(64)
    magnitude = float(np.abs(q.astype(float)) @ np.abs(k.astype(float))) / 8
    assert abs(scores[0] - plain) <= 2 * gamma(64, np.float64) * magnitude
    assert data.group_of(winograd, 4) == [3, 4, 5]


def test_tokens_line_joins_pieces_and_shows_spaces(winograd):
    assert "suit·case" in data.tokens_markdown(winograd)
    assert data.visible(" Paris\n") == "␣Paris⏎"
