"""The walkthrough's figures, inspected without a browser: they show the core's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import PRESETS
from attention_ui.draw import figures as fig
from attention_ui.stages.data import Labels, contributions
from attention_ui.stages.registry import stage_figure
from tests.tolerance import assert_within, matmul_bound

CAT = PRESETS["cat_mat"].build()


def z_of(figure) -> np.ndarray:
    return np.asarray(figure.data[0].z, dtype=float)


@pytest.mark.parametrize(
    ("stage", "attr"),
    [("scores", "scores"), ("scaling", "scaled_scores"), ("softmax", "weights"),
     ("output", "output"), ("projections", "Q")],
)  # fmt: skip
def test_stage_figures_hold_the_trace(stage: str, attr: str) -> None:
    t = CAT.trace()
    np.testing.assert_array_equal(z_of(stage_figure(stage, Labels.of(CAT), t)), getattr(t, attr))


def test_cells_print_their_values_and_labels_keep_repeats_apart() -> None:
    t = CAT.trace()
    f = stage_figure("scores", Labels.of(CAT), t)
    assert list(f.data[0].y) == ["the (1)", "cat", "sat", "on", "the (2)", "mat"]
    assert f.data[0].text[2][1] == f"{t.scores[2, 1]:.2f}"
    assert f.layout.yaxis.range == (5.5, -0.5)  # first query on top, as in the matrix


def test_diverging_scale_is_centred_on_zero_and_weights_use_0_to_1() -> None:
    t = CAT.trace()
    scores = stage_figure("scores", Labels.of(CAT), t).data[0]
    assert scores.zmid == 0.0 and scores.zmin == -scores.zmax
    assert scores.zmax == np.abs(t.scores).max()  # the same max of the same numbers
    weights = stage_figure("softmax", Labels.of(CAT), t).data[0]
    assert (weights.zmin, weights.zmax) == (0.0, 1.0)


def test_masked_cells_are_gaps_labelled_minus_infinity() -> None:
    s = CAT.replace(mask_kind="causal")
    t = s.trace()
    f = stage_figure("mask", Labels.of(s), t)
    z = z_of(f)
    assert np.isnan(z[~t.mask]).all()
    np.testing.assert_array_equal(z[t.mask], t.masked_scores[t.mask])
    assert f.data[0].text[0][3] == fig.MASKED_TEXT and f.data[0].text[3][0] != fig.MASKED_TEXT


def test_weights_heatmap_writes_each_row_sum() -> None:
    t = CAT.trace()
    f = stage_figure("softmax", Labels.of(CAT), t)
    sums = [a.text for a in f.layout.annotations]
    assert sums == [f"Σ = {x:.3f}" for x in t.weights.sum(axis=1)] == ["Σ = 1.000"] * 6


def test_contributions_add_up_to_the_output_row() -> None:
    t = CAT.trace()
    f = fig.contributions_bar(contributions(t, 2), t.weights[2], CAT.key_labels, "sat")
    bars = np.array([np.asarray(b.y, dtype=float) for b in f.data if b.type == "bar"])
    np.testing.assert_array_equal(bars, t.weights[2][:, None] * t.V)  # the same products
    diamonds = next(d for d in f.data if d.type == "scatter")
    # their sum against the core's w @ V: two evaluations of n_k-term dot products
    bound = matmul_bound(t.weights[2:3], t.V)[0]
    assert_within(np.asarray(diamonds.y, dtype=float), t.output[2], bound, "output row")


def test_a_clickable_heatmap_is_its_own_click_layer() -> None:
    """No marker per cell (issue 21: 225 of them cost as much as the floor's whole chart);
    views/cell_pick hears plotly_click on the heatmap, and the hover says so."""
    f = fig.heatmap(np.arange(6.0).reshape(2, 3), ["a", "b"], ["x", "y", "z"], "t", clickable=True)
    assert [trace.type for trace in f.data] == ["heatmap"]
    assert "click to break it down" in f.data[0].hovertemplate
    plain = fig.heatmap(np.arange(6.0).reshape(2, 3), ["a", "b"], ["x", "y", "z"], "t")
    assert "click" not in plain.data[0].hovertemplate


def test_learner_text_reaches_plotly_escaped() -> None:
    hostile = ["<b>bold</b>", '<a href="javascript:alert(1)">x</a>']
    f = fig.heatmap(np.eye(2), hostile, hostile, "<i>title</i>")
    assert list(f.data[0].y) == [
        "&lt;b&gt;bold&lt;/b&gt;",
        '&lt;a href="javascript:alert(1)"&gt;x&lt;/a&gt;',
    ]
    assert f.layout.title.text == "&lt;i&gt;title&lt;/i&gt;"
    w = fig.weights_heatmap(np.eye(2), hostile, hostile, "w")
    assert {a.y for a in w.layout.annotations} == set(w.data[0].y)
    bars = fig.contributions_bar(np.eye(2) * 0.5, np.array([0.5, 0.5]), hostile, "<b>x</b>")
    assert all("<" not in b.name for b in bars.data)


def test_cell_text_format() -> None:
    assert fig.cell_texts(np.array([[-1.234, 0.004, 2e7]]), 2) == [
        ["−1.23", "4.00e−03", "2.00e+07"]
    ]
