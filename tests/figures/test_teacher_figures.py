"""Issue 22, what a new teacher hit, checked on the figures themselves (no browser).

Weights print a fixed number of decimals with the exact value on hover; titles keep clear
of the axis titles beneath them; the Start page's bars keep room for their labels.
"""

from __future__ import annotations

import numpy as np

from attention_core import Scenario
from attention_ui.draw import figures as fig
from attention_ui.draw import phone
from attention_ui.multi_head import figures as mhf
from attention_ui.real_model import figures as rmf
from attention_ui.stages.data import Labels
from attention_ui.stages.registry import stage_figure

# One query over three keys whose weights are written out by hand: e^0 : e^-8 : e^-9.
# 1 / (1 + e^-8 + e^-9) = 0.999541..., e^-8 / (...) = 3.35309e-4, e^-9 / (...) = 1.23353e-4.
TINY = Scenario(
    name="tiny",
    mode="direct",
    query_tokens=("q",),
    tokens=("a", "b", "c"),
    Q=np.array([[1.0]]),
    K=np.array([[0.0], [-8.0], [-9.0]]),  # d_k = 1: scale 1, scores 0, -8, -9
    V=np.eye(3),
)


def test_a_tiny_weight_prints_fixed_decimals_and_its_exact_value_on_hover() -> None:
    t = TINY.trace()
    figure = stage_figure("softmax", Labels.of(TINY), t)
    heat = figure.data[0]
    assert [list(r) for r in heat.text] == [["1.000", "0.000", "0.000"]]  # not 3.354e−04
    # six significant digits of the weights worked out above
    assert [list(r) for r in heat.customdata] == [["0.999541", "0.000335309", "0.000123353"]]
    assert "%{customdata}" in heat.hovertemplate and "%{text}" not in heat.hovertemplate


def test_every_weight_cell_is_as_narrow_as_its_neighbours() -> None:
    """A 15-token head's weights span 1e-6 to 1: every printed cell is d.ddd (5 characters)."""
    weights = np.geomspace(1e-6, 1.0, 225).reshape(15, 15)
    labels = [f"t{i}" for i in range(15)]
    heat = fig.weights_heatmap(weights, labels, labels, "w").data[0]
    assert {len(cell) for row in heat.text for cell in row} == {5}
    assert all("e" not in cell for row in heat.text for cell in row)


def test_masked_weights_still_read_minus_infinity_in_cell_and_hover() -> None:
    mask = np.array([[True, False]])
    heat = fig.weights_heatmap(np.array([[1.0, 0.0]]), ["q"], ["a", "b"], "w", mask=mask).data[0]
    assert list(heat.text[0]) == ["1.000", fig.MASKED_TEXT]
    assert list(heat.customdata[0]) == ["1", fig.MASKED_TEXT]


def test_on_a_phone_a_tiny_weight_reads_two_decimals_and_keeps_its_hover() -> None:
    figure = phone.for_phone(stage_figure("softmax", Labels.of(TINY), TINY.trace()))
    heat = figure.data[0]
    assert list(heat.text[0]) == ["1.00", "0.00", "0.00"]
    assert list(heat.customdata[0]) == ["0.999541", "0.000335309", "0.000123353"]


def test_a_heads_small_multiple_prints_plain_weights_with_the_exact_one_on_hover() -> None:
    weights = np.array([[0.9996, 0.0004], [0.5, 0.5]])
    heat = mhf.heads_figure([weights], [None], ["a", "b"], ["a", "b"], 2).data[0]
    assert [list(r) for r in heat.text] == [["1.00", "0.00"], ["0.50", "0.50"]]
    assert [list(r) for r in heat.customdata] == [["0.9996", "0.0004"], ["0.5", "0.5"]]


def test_scores_keep_their_own_format() -> None:
    """Only weights are fixed: a score of 4e-3 still says so (the walkthrough's format)."""
    assert fig.cell_texts(np.array([[0.004]]), 2) == [["4.00e−03"]]
    heat = fig.heatmap(np.array([[0.004]]), ["q"], ["k"], "s").data[0]
    assert heat.customdata is None and "%{text}" in heat.hovertemplate


def test_a_head_grids_title_has_its_own_line_above_the_axis_title() -> None:
    """'…per head' ran into the 'head' axis title ('…per headhead'): both sat in a 70 px
    margin with the title placed by Plotly over the axis. Now the title is pinned to the
    top of the figure, and the margin below it holds the axis title and the tick labels."""
    grid = rmf.head_grid(np.zeros((6, 12)), "How much the attention of “it” changes, per head")
    title, margin = grid.layout.title, grid.layout.margin
    assert (title.yref, title.y, title.yanchor) == ("container", 1.0, "top")
    assert grid.layout.xaxis.title.text == "head" and grid.layout.xaxis.side == "top"
    line = fig.FONT["size"]  # px: one line of the figure's text
    assert margin.t >= fig.TITLE_ROOM + 2 * line  # the title, then the axis title and ticks
    targets = rmf.targets_grid(np.zeros((6, 12)), [["a"] * 12] * 6, "t")
    assert targets.layout.title.yref == "container" and targets.layout.margin.t == margin.t


def test_the_start_pages_bars_leave_room_for_their_labels() -> None:
    bars = fig.row_bars(np.array([0.8, 0.2]), ["animal", "jungle"], "t", "weight")
    assert bars.layout.xaxis.automargin is True  # the labels' descenders ("j") fit below


def test_the_recipe_diagram_is_drawn_in_the_themes_ink() -> None:
    from attention_ui.draw.diagram import pipeline_svg

    for palette in (fig.LIGHT, fig.DARK):
        svg = pipeline_svg(palette)
        assert svg.count(f'color="{palette.ink}"') == 1  # the root's, which currentColor takes
        assert "#FFFFFF" not in svg.upper() and "#333" not in svg  # no white card, no fixed ink
        assert 'fill="currentColor"' in svg and 'stroke="currentColor"' in svg
