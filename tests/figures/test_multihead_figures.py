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
    W = rng.normal(size=(5, width))
    figure = mf.split_figure("K", W, n_heads)
    d_head = width // n_heads
    heat = figure.data[0]
    want = np.array([[c // d_head for c in range(width)]] * 5)  # column c -> head c // d_head
    np.testing.assert_array_equal(np.asarray(heat.z), want)
    assert heat.text[1][0] == f"{W[1, 0]:.2f}".replace("-", "−")  # the weight printed
    assert (heat.zmin, heat.zmax) == (-0.5, n_heads - 0.5)
    assert list(heat.x)[:d_head] == [f"h1·{m + 1}" for m in range(d_head)]
    assert list(heat.x)[-1] == f"h{n_heads}·{d_head}"
    assert figure.layout.title.text == f"W_K (5 × {width})"


def test_split_colour_scale_gives_each_head_its_own_band() -> None:
    figure = mf.split_figure("Q", np.ones((2, 4)), 2)
    scale = [tuple(step) for step in figure.data[0].colorscale]
    assert scale == [(0.0, mf.HEAD_COLOURS[0]), (0.5, mf.HEAD_COLOURS[0]),
                     (0.5, mf.HEAD_COLOURS[1]), (1.0, mf.HEAD_COLOURS[1])]  # fmt: skip


def test_small_multiple_uses_the_shared_scale_and_token_axes() -> None:
    weights = np.array([[0.2, 0.8, 0.0], [0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    mask = np.array([[1, 1, 0], [1, 1, 0], [1, 1, 1]], dtype=bool)
    figure = mf.head_weights_figure(weights, LABELS, LABELS, 1, 2, mask)
    heat = figure.data[0]
    assert figure.layout.title.text == "Head 2 (d_head = 2)"
    assert (heat.zmin, heat.zmax) == (0.0, 1.0) and heat.showscale is False
    assert list(heat.y) == ["the", "cat", "&lt;b&gt;sat&lt;/b&gt;"]  # learner text inert
    assert np.isnan(z_of(figure)[0, 2]) and heat.text[0][2] == "−∞"
    assert heat.text[0][1] == "0.80"
    tiny = mf.head_weights_figure(np.array([[1 - 3e-7, 3e-7]]), ["a"], ["a", "b"], 0, 1)
    assert [list(row) for row in tiny.data[0].text] == [["1.00", "0.00"]]  # no e-notation


def test_concat_labels_columns_by_head_and_draws_borders() -> None:
    concat = np.arange(12.0).reshape(2, 6)
    figure = mf.concat_figure(concat, ["a", "b"], 3)
    assert list(figure.data[0].x) == ["h1·1", "h1·2", "h2·1", "h2·2", "h3·1", "h3·2"]
    np.testing.assert_array_equal(z_of(figure), concat)
    assert [s.x0 for s in figure.layout.shapes] == [1.5, 3.5]
    assert figure.layout.title.text == "Concat (2 × 6)"
    assert figure.data[0].text[1][0] == "6.00"


def test_output_and_residual_rows() -> None:
    concat, W_o = rng.normal(size=(3, 4)), rng.normal(size=(4, 5))
    output = rng.normal(size=(3, 5))
    _, w, out = mf.output_figures(concat, W_o, output, LABELS, 2)
    np.testing.assert_array_equal(z_of(w), W_o)
    assert list(w.data[0].y) == ["h1·1", "h1·2", "h2·1", "h2·2"]
    assert w.layout.title.text == "W_O (4 × 5)" and out.layout.title.text == "Output (3 × 5)"
    X = rng.normal(size=(3, 5))
    *_, total = mf.residual_figures(X, output, LABELS)
    np.testing.assert_array_equal(z_of(total), X + output)
    assert total.layout.title.text == "X + output (3 × 5)"


def test_head_colours_wrap_beyond_eight_heads() -> None:
    assert mf.head_colour(8) == mf.head_colour(0)
    assert len(set(mf.HEAD_COLOURS)) == len(mf.HEAD_COLOURS)
