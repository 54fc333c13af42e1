"""Figures on narrow screens and long sequences: titles clear of the labels, legible cells."""

from __future__ import annotations

import numpy as np

from attention_core import PRESETS, random_scenario
from attention_ui.draw import figures as fig
from attention_ui.draw import phone
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels


def test_heatmap_titles_push_the_margin_instead_of_covering_the_labels() -> None:
    """64 tokens: upright key labels below the title, in a top margin that holds them all."""
    s = random_scenario(n_tokens=64)
    figure = sf.softmax_summary(Labels.of(s), s.trace())
    longest = max(len(label) for label in s.key_labels)
    assert figure.layout.xaxis.tickangle == -90
    assert figure.layout.title.yref == "container" and figure.layout.title.y == 1.0
    room = figure.layout.margin.t - fig.TITLE_ROOM  # what is left below the title
    assert room >= 14 + 0.6 * 14 * longest  # the axis title and the longest label
    short = sf.softmax_summary(*_labels_trace(4))
    assert short.layout.xaxis.tickangle == 0 and short.layout.margin.t < 80


def test_phone_figures_print_two_decimals_and_scroll_instead_of_squeezing() -> None:
    s = PRESETS["cat_mat"].build().replace(mask_kind="causal")
    t = s.trace()
    figure = phone.for_phone(sf.softmax_summary(Labels.of(s), t))
    texts = np.array(figure.data[0].text)
    assert texts[1, 1] == f"{t.weights[1, 1]:.2f}" and texts[0, 1] == fig.MASKED_TEXT
    assert figure.data[0].textfont.size <= 12
    assert figure.layout.width >= 6 * phone.PHONE_CELL  # a fixed width: the page scrolls it
    wide = phone.for_phone(sf.softmax_summary(*_labels_trace(24)))
    assert wide.layout.width >= 24 * phone.PHONE_CELL > 390


def test_a_grid_too_wide_for_a_phone_shows_its_values_on_a_tap_and_keeps_every_key() -> None:
    """A phone fits the chart to its 358 px: 15 columns beside 110 px of margins get 16.5 px
    each, too narrow for "−0.91" (30 px); 6 columns get 41 px and keep their numbers."""
    narrow = phone.for_phone(sf.scores_figure(*_labels_trace(6)))
    assert narrow.data[0].texttemplate != "" and narrow.layout.xaxis.dtick is None
    labels, t = _labels_trace(15)
    wide = phone.for_phone(sf.scores_figure(labels, t))
    assert wide.data[0].texttemplate == ""  # nothing printed: no numbers over each other
    assert np.array(wide.data[0].text).shape == (15, 15)  # the values, for the tap
    assert wide.layout.xaxis.tickmode == "linear" and wide.layout.xaxis.dtick == 1
    assert list(wide.data[0].x) == list(labels.keys)  # every key is a tick


def test_phone_leaves_whole_numbers_alone() -> None:
    mask = np.tril(np.ones((3, 3)))
    figure = phone.for_phone(fig.heatmap(mask, list("abc"), list("abc"), "Mask", digits=0))
    assert figure.data[0].text[2][0] == "1"


def _labels_trace(n: int) -> tuple:
    s = random_scenario(n_tokens=n)
    return Labels.of(s), s.trace()


def test_a_phone_grid_prints_numbers_only_where_the_widest_fits_its_column() -> None:
    """The multi-head lab's head 1 on a phone: 6 columns beside its row labels (78 px for
    "purred" in 12 px type and the axis title) and a colour bar (70 px) get 35 px each of
    the 358: "−1.25" (31 px, and 2 of air) fits, "−18.00" (38 px) does not, so that grid
    shows its values on a tap (it printed −12.00−18.00 as one run of digits)."""
    keys = ["the", "cat", "sat", "and", "it", "purred"]
    small = np.full((6, 6), -1.25)
    big = small.copy()
    big[0, 3] = -18.0
    kept = phone.for_phone(fig.heatmap(small, keys, keys, "Raw scores", colorbar_title="score"))
    assert kept.data[0].texttemplate != "" and kept.data[0].text[0][0] == "−1.25"
    tapped = phone.for_phone(fig.heatmap(big, keys, keys, "Raw scores", colorbar_title="score"))
    assert tapped.data[0].texttemplate == "" and tapped.data[0].text[0][3] == "−18.00"
    assert tapped.layout.margin.l == 78
    assert fig.text_px("−18.00", 12) + 2 > (358 - 78 - 70) / 6 >= fig.text_px("−1.25", 12) + 2


def test_a_long_token_gets_its_room_on_a_phone_and_the_grid_keeps_its_width() -> None:
    """A 16-character token needs 148 px of row labels in 12 px type: the figure asks for
    them on top of 42 px a column, so 3 columns keep 46 px each and print their numbers
    (they were squeezed into 63 px, numbers over each other)."""
    tokens = ["**bold**", "[x](http://x.io)", "cat"]
    w = np.array([[0.11, 0.70, 0.19], [0.03, 0.31, 0.66], [0.03, 0.73, 0.24]])
    figure = phone.for_phone(fig.weights_heatmap(w, tokens, tokens, "Attention weights"))
    assert figure.layout.margin.l == 148  # 12 * (15 * 0.62 + 0.28 for the point) + 6 + 12 + 16
    assert figure.layout.width == 148 + 70 + 3 * phone.PHONE_CELL
    assert figure.data[0].texttemplate != ""  # (358 - 148 - 70) / 3 = 46 px a column


def test_a_grid_knows_whether_it_prints_its_numbers_on_each_screen() -> None:
    """What the caption above a score grid is said from (``stage_views.how_to_read``): a
    phone's grid whose numbers do not fit shows them on a tap (it said "Click a cell")."""
    keys = ["the", "cat", "sat", "and", "it", "purred"]
    big = np.full((6, 6), -1.25)
    big[0, 3] = -18.0
    desktop = fig.heatmap(big, keys, keys, "Raw scores", colorbar_title="score")
    tapped = phone.for_phone(fig.heatmap(big, keys, keys, "Raw scores", colorbar_title="score"))
    assert fig.prints_numbers(desktop) and not fig.prints_numbers(tapped)
    assert not fig.prints_numbers(sf.scores_figure(*_labels_trace(fig.MAX_PRINTED + 1)))
