"""Three layouts that printed texts over each other (issue 42, found by the languages walk's
overlap check): an equation's matrices in thirds of a page, a translated y-axis title
taller than its plot, and a wide grid's column labels on a phone."""

from __future__ import annotations

import numpy as np

from attention_core import PRESETS
from attention_core.training import History, TrainSettings
from attention_core.training.trainer import train_both
from attention_ui.draw import figures as fig
from attention_ui.draw import phone
from attention_ui.draw.widths import min_width
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels
from attention_ui.training_lab import figures as tf

EM_DIGIT, EM_POINT = 0.56, 0.28  # widths in em of a digit and a point in sans-serif


def test_an_equations_matrices_are_never_drawn_narrower_than_their_numbers() -> None:
    """X (6 x 4) · W_Q (4 x 3) = Q (6 x 3): each is held at a width whose columns hold
    "0.00" in the cells' type, so a page that gives less scrolls it instead."""
    s = PRESETS["cat_mat"].build()
    t = s.trace()
    for M, figure in zip((s.X, s.W_q, t.Q),
                         sf.projection_figures(s.X, s.W_q, t.Q, "Q", Labels.of(s)),
                         strict=True):  # fmt: skip
        least = min_width(figure)
        assert least is not None, figure.layout.title.text  # held, though under a phone's
        font = figure.data[0].textfont.size
        number = (3 * EM_DIGIT + EM_POINT) * font  # "0.00": three digits and a point
        assert least >= figure.layout.margin.l + M.shape[1] * number


def test_a_long_y_axis_title_wraps_to_the_plots_height_and_widens_the_margin() -> None:
    runs = _runs()
    english = tf.gradient_curves(runs)
    assert "<br>" not in english.layout.yaxis.title.text
    tall = tf._curves(runs, "t", "an axis title far longer than any plot is tall, in any "
                      "language", True, {"grad_q": "W_Q"})  # fmt: skip
    lines = tall.layout.yaxis.title.text.split("<br>")
    plot = tf.HEIGHT - tf.MARGIN["t"] - tf.MARGIN["b"]
    assert len(lines) >= 2 and all(0.5 * 14 * len(line) <= plot for line in lines)
    assert tall.layout.margin.l >= english.layout.margin.l + 18 * (len(lines) - 1)


def test_a_wide_grid_on_a_phone_turns_its_labels_upright() -> None:
    """15 x 32: drawn at 16 px a column (its least width), "d10" is wider than a column."""
    M = np.linspace(-1, 1, 15 * 32).reshape(15, 32)
    cols = [f"d{j + 1}" for j in range(32)]
    figure = phone.for_phone(fig.heatmap(M, [f"t{i}" for i in range(15)], cols, "Q"))
    assert min_width(figure) is not None
    assert figure.layout.xaxis.tickangle == -90
    small = phone.for_phone(fig.heatmap(M[:3, :3], ["a", "b", "c"], cols[:3], "Q"))
    assert small.layout.xaxis.tickangle == 0  # three labels fit their columns across


def _runs() -> tuple[History, History]:
    return train_both(TrainSettings(d_k=8, steps=20, seed=1))
