"""Every figure's text alternative and table, computed from the figure (no Streamlit)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import PRESETS
from attention_core.presets import hungry
from attention_ui.draw import describe
from attention_ui.draw import figures as fig
from attention_ui.multi_head import figures as mhf
from attention_ui.real_model import figures as rmf
from attention_ui.scaling_lab import figures as slf
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels, contributions


@pytest.fixture
def causal():
    s = PRESETS["cat_mat"].build().replace(mask_kind="causal")
    return s.trace(), Labels.of(s)


def test_a_heatmap_names_its_shape_labels_extremes_and_masked_cells(causal) -> None:
    t, labels = causal
    figure = fig.themed(sf.mask_summary(labels, t), fig.DARK)  # themed: colours in the text
    alt = describe.alternative(figure)
    assert alt.name == "Masked scores"
    i, j = np.unravel_index(np.nanargmax(np.where(t.mask, t.masked_scores, np.nan)), t.mask.shape)
    lo = np.unravel_index(np.nanargmin(np.where(t.mask, t.masked_scores, np.nan)), t.mask.shape)
    assert alt.text.startswith("Heatmap “Masked scores”, 6 × 6. Rows (query): the (1), cat,")
    largest = f"{t.masked_scores[i, j]:.2f} ({labels.queries[i]}, {labels.keys[j]})"
    smallest = f"{t.masked_scores[lo]:.2f} ({labels.queries[lo[0]]}, {labels.keys[lo[1]]})"
    assert f"Largest {largest}; smallest {smallest}." in alt.text
    assert f"{int((~t.mask).sum())} of 36 cells masked." in alt.text  # 15, causal 6 x 6
    assert alt.text.endswith("Rows do not sum to 1.")
    # the table: tokens as headers, the numbers as printed, masked cells as −∞
    assert list(alt.table.index) == labels.queries and list(alt.table.columns) == labels.keys
    assert alt.table.index.name == "query" and alt.table.columns.name == "key"
    assert alt.table.iloc[i, j] == f"{t.masked_scores[i, j]:.2f}"
    assert alt.table.iloc[0, 3] == fig.MASKED_TEXT


def test_softmax_weights_say_every_row_sums_to_one(causal) -> None:
    t, labels = causal
    alt = describe.alternative(sf.softmax_summary(labels, t))
    assert alt.text.endswith("Every row sums to 1.")
    assert alt.table.loc["cat", "cat"] == f"{t.weights[1, 1]:.3f}"


def test_rows_sum_tolerance_follows_the_printed_digits() -> None:
    # printed with 2 decimals, a row of 3 may be off by 3 * 0.005 = 0.015
    near = np.array([[0.33, 0.33, 0.33]])  # sums to 0.99: rounding of thirds
    assert describe.rows_sum_to_one(near, [["0.33"] * 3], np.dtype(float))
    off = np.array([[0.33, 0.33, 0.32]])  # 0.98: more than rounding
    assert not describe.rows_sum_to_one(off, [["0.33", "0.33", "0.32"]], np.dtype(float))
    # unprinted float32 weights: within 2 n eps32
    w = np.full((1, 3), np.float32(1) / np.float32(3), dtype=np.float32)
    assert describe.rows_sum_to_one(w, None, w.dtype)
    assert not describe.rows_sum_to_one(w * np.float32(1.001), None, w.dtype)


def test_learner_text_comes_back_plain() -> None:
    figure = fig.heatmap(np.eye(2), ["<b>x</b>", "y&z"], ["a", "b"], "<i>title</i>")
    alt = describe.alternative(figure)
    assert alt.name == "<i>title</i>"  # unescaped: the page escapes it where it writes it
    assert list(alt.table.index) == ["<b>x</b>", "y&z"]


def test_the_multi_head_split_reads_its_printed_weights_not_its_head_colours() -> None:
    W = np.array([[0.5, -2.0], [1.25, 0.0]])
    alt = mhf.alternative_of(mhf.split_figure({"K": W, "V": -W}, 2))
    assert "W_K (2 × 2): largest 1.25 (e2, h1·1), smallest −2.00 (e1, h2·1)." in alt.text
    assert "W_V (2 × 2): largest 2.00 (e1, h2·1), smallest −1.25 (e2, h1·1)." in alt.text
    assert alt.table.loc["W_K (2 × 2): e1", "h2·1"] == "−2.00"
    assert alt.table.loc["W_V (2 × 2): e1", "h2·1"] == "2.00"


def test_long_label_lists_are_cut_with_their_count() -> None:
    n = 15
    labels = [f"t{k}" for k in range(n)]
    alt = describe.alternative(fig.heatmap(np.eye(n), labels, labels, "big"))
    assert f"t11, … ({n} in all)." in alt.text and "t12" not in alt.text.split("Largest")[0]


def test_bars_read_each_bar() -> None:
    w = hungry().trace().weights[0]
    figure = fig.row_bars(w, ["animal", "jungle", "hunt"], "Attention of 'it'", "weight")
    alt = describe.alternative(figure)
    assert alt.text == (
        f"Bar chart “Attention of 'it'”. weight: animal {w[0]:.3g}, jungle {w[1]:.3g}, "
        f"hunt {w[2]:.3g}."
    )
    assert alt.table["weight"].tolist() == [f"{v:.4g}" for v in w]


def test_stacked_contributions_name_their_series_and_tabulate_them(causal) -> None:
    t, labels = causal
    parts = contributions(t, 2)  # (n_k, d_v)
    alt = describe.alternative(fig.contributions_bar(parts, t.weights[2], labels.keys, "Out"))
    assert alt.text.startswith("Stacked bar chart “Out”: 7 series (")  # 6 keys + the sum
    assert list(alt.table.index) == ["out1", "out2", "out3", "out4"]
    total = parts.sum(axis=0)
    assert alt.table["output (sum)"].tolist() == [describe.num(v, 4) for v in total]  # the diamonds


def test_lines_leave_out_guides_that_take_no_hover() -> None:
    rng = np.random.default_rng(0)
    alt = describe.alternative(slf.score_histogram(rng.normal(size=400), 16, True))
    assert alt.text.startswith("Chart “Scores: std")
    assert "by score / √d_k" in alt.text and "sampled scores: 40 points" in alt.text
    assert list(alt.table.columns) == ["sampled scores"]  # the theory curve is a guide
    assert len(alt.table) == 40


def test_the_gallery_names_its_patterns() -> None:
    names = [["" for _ in range(12)] for _ in range(6)]
    names[0][2] = "previous token"
    alt = rmf.gallery_alternative(names, 9, "Every head")
    assert alt.text == (
        "Every head: 6 layers × 12 heads, each a 9 × 9 map of weights from 0 to 1. "
        "1 head with a clear pattern: L1 H3 previous token."
    )
    assert alt.table.loc["L1", "H3"] == "previous token" and alt.table.loc["L2", "H1"] == "—"
