"""The multi-head lab's figures, inspected without a browser (and without Streamlit)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_ui.multi_head import figures as mf

rng = np.random.default_rng(2)
LABELS = ["the", "cat", "<b>sat</b>"]


def z_of(figure, trace: int = 0) -> np.ndarray:
    return np.asarray(figure.data[trace].z, dtype=float)


@pytest.mark.parametrize(("width", "n_heads"), [(4, 1), (4, 2), (6, 3), (8, 8)])
def test_split_colours_each_column_by_its_head(width: int, n_heads: int) -> None:
    Ws = {n: rng.normal(size=(5, width)) for n in "QKV"}
    figure = mf.split_figure(Ws, n_heads)
    d_head = width // n_heads
    assert [a.text for a in figure.layout.annotations] == [f"W_{n} (5 × {width})" for n in "QKV"]
    want = np.array([[c // d_head for c in range(width)]] * 5)  # column c -> head c // d_head
    for heat, W in zip(figure.data, Ws.values(), strict=True):
        np.testing.assert_array_equal(np.asarray(heat.z), want)
        assert heat.text[1][0] == f"{W[1, 0]:.2f}".replace("-", "−")  # the weight printed
        assert (heat.zmin, heat.zmax) == (-0.5, n_heads - 0.5)
        assert list(heat.x)[:d_head] == [f"h1·{m + 1}" for m in range(d_head)]
        assert list(heat.x)[-1] == f"h{n_heads}·{d_head}"


def test_split_colour_scale_gives_each_head_its_own_band() -> None:
    figure = mf.split_figure({"Q": np.ones((2, 4))}, 2)
    scale = [tuple(step) for step in figure.data[0].colorscale]
    assert scale == [(0.0, mf.HEAD_COLOURS[0]), (0.5, mf.HEAD_COLOURS[0]),
                     (0.5, mf.HEAD_COLOURS[1]), (1.0, mf.HEAD_COLOURS[1])]  # fmt: skip


def test_small_multiples_use_the_shared_scale_and_token_axes() -> None:
    weights = np.array([[0.2, 0.8, 0.0], [0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    mask = np.array([[1, 1, 0], [1, 1, 0], [1, 1, 1]], dtype=bool)
    figure = mf.heads_figure([weights, weights[::-1]], [mask, None], LABELS, LABELS, 2)
    assert figure.layout.title.text == "Every head's weights"
    assert [a.text for a in figure.layout.annotations] == ["Head 1", "Head 2"]
    first, second = figure.data
    for heat in figure.data:
        assert (heat.zmin, heat.zmax) == (0.0, 1.0) and heat.showscale is False
        assert list(heat.y) == ["the", "cat", "&lt;b&gt;sat&lt;/b&gt;"]  # learner text inert
    assert np.isnan(z_of(figure)[0, 2]) and first.text[0][2] == "−∞"
    assert first.text[0][1] == "0.80" and second.text[0][1] == "0.33"  # each its own head
    assert (first.xaxis, second.xaxis) == ("x", "x2")  # a panel each, not overlaid
    assert "Head 2 (d_head = 2): query" in second.hovertemplate
    tiny = mf.heads_figure([np.array([[1 - 3e-7, 3e-7]])], [None], ["a"], ["a", "b"], 1)
    assert [list(row) for row in tiny.data[0].text] == [["1.00", "0.00"]]  # no e-notation


def test_concat_labels_columns_by_head_and_draws_borders() -> None:
    concat = np.arange(12.0).reshape(2, 6)
    figure = mf.output_figure(concat, np.eye(6), concat, ["a", "b"], 3)
    heat = figure.data[0]
    assert list(heat.x) == ["h1·1", "h1·2", "h2·1", "h2·2", "h3·1", "h3·2"]
    np.testing.assert_array_equal(z_of(figure), concat)
    assert [s.x0 for s in figure.layout.shapes] == [1.5, 3.5]
    assert {s.xref for s in figure.layout.shapes} == {"x"}  # on the concatenation's panel
    assert figure.layout.annotations[0].text == "Concat (2 × 6)"
    assert heat.text[1][0] == "6.00"


def test_output_and_residual_rows() -> None:
    concat, W_o = rng.normal(size=(3, 4)), rng.normal(size=(4, 5))
    output = rng.normal(size=(3, 5))
    figure = mf.output_figure(concat, W_o, output, LABELS, 2)
    _, w, out = figure.data
    np.testing.assert_array_equal(np.asarray(w.z), W_o)
    np.testing.assert_array_equal(np.asarray(out.z), output)
    assert list(w.y) == ["h1·1", "h1·2", "h2·1", "h2·2"]
    titles = [a.text for a in figure.layout.annotations]
    assert titles == ["Concat (3 × 4)", "W_O (4 × 5)", "<b>×</b>", "Output (3 × 5)", "<b>=</b>"]
    X = rng.normal(size=(3, 5))
    residual = mf.residual_figure(X, output, LABELS)
    np.testing.assert_array_equal(np.asarray(residual.data[2].z), X + output)
    assert residual.layout.annotations[-2].text == "X + output (3 × 5)"


def test_a_grid_says_every_panel_and_tables_every_number() -> None:
    weights = [np.array([[0.25, 0.75], [1.0, 0.0]]), np.array([[0.5, 0.5], [0.1, 0.9]])]
    alt = mf.alternative_of(mf.heads_figure(weights, [None, None], ["a", "<b>"], ["a", "<b>"], 1))
    assert alt.text.startswith("2 heatmaps in one figure, “Every head's weights”.")
    assert "Rows: query. Columns: key." in alt.text
    assert "Head 1, 2 × 2: largest 1.00 (&lt;b&gt;, a)" not in alt.text  # unescaped
    assert "Head 1, 2 × 2: largest 1.00 (<b>, a), smallest 0.00 (<b>, <b>); every row" in alt.text
    assert "Head 2, 2 × 2: largest 0.90 (<b>, <b>), smallest 0.10 (<b>, a)" in alt.text
    assert alt.table.shape == (4, 2) and list(alt.table.columns) == ["a", "<b>"]
    assert alt.table.loc["Head 2: <b>", "<b>"] == "0.90"


def test_head_colours_wrap_beyond_eight_heads() -> None:
    assert mf.head_colour(8) == mf.head_colour(0)
    assert len(set(mf.HEAD_COLOURS)) == len(mf.HEAD_COLOURS)
