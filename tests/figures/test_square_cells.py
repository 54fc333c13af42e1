"""Issue 34: every heatmap keeps square cells whatever its shape (1 × n, n × 1, 1 × 1,
64 × 64), on a desktop and on a phone; the "it" example (1 × 3) was drawn as tall bars on a
phone and its title cut to "Raw scores Q Kᵀ (1 × 3".

Read from the figure's layout: Plotly keeps the cells square when the y axis is anchored to
the x axis at ratio 1 (with ``constrain="domain"`` it shrinks the plot, never the ratio), and
the figure asks for enough width and height for its cells, no more than a row's worth."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from attention_core import PRESETS
from attention_ui.draw import figures as fig
from attention_ui.draw import phone, widths
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels

SHAPES = [(1, 3), (3, 1), (1, 1), (2, 6), (6, 6), (64, 64), (1, 64), (64, 1)]


def grid(shape: tuple[int, int], showscale: bool = True) -> go.Figure:
    n_rows, n_cols = shape
    M = np.arange(n_rows * n_cols, dtype=float).reshape(shape) - n_rows * n_cols / 2
    rows, cols = [f"q{i}" for i in range(n_rows)], [f"k{j}" for j in range(n_cols)]
    return fig.heatmap(M, rows, cols, f"Raw scores Q Kᵀ ({n_rows} × {n_cols})",
                       colorbar_title="score", showscale=showscale)  # fmt: skip


def plot_area(figure: go.Figure, bar: int, screen: float = 1e9) -> tuple[float, float]:
    """The px Plotly gives the plot (width, height): the figure, fitted to a ``screen`` px
    wide (Streamlit fits a chart to its column; no width: the column's), less its margins
    and colour bar."""
    layout = figure.layout
    width = min(layout.width or screen, screen) - layout.margin.l - layout.margin.r - bar
    return width, layout.height - layout.margin.t - layout.margin.b


def assert_square(figure: go.Figure, shape: tuple[int, int], bar: int, screen: float = 1e9,
                  least: float = 8) -> float:  # fmt: skip
    """The cells are square, at least ``least`` px and no larger than the plot's 120 px
    (a colour bar's least height) or MAX_CELL; returns their side."""
    assert figure.layout.yaxis.scaleanchor == "x" and figure.layout.yaxis.scaleratio == 1
    assert figure.layout.yaxis.constrain == "domain" == figure.layout.xaxis.constrain
    width, height = plot_area(figure, bar, screen)
    side = min(width / shape[1], height / shape[0])  # what Plotly draws: squares of this side
    assert least <= side <= max(fig.MAX_CELL, fig.BAR_PX)
    # The figure asks for its cells' width (or its title's, if wider), and its cells'
    # height (or the colour bar's 120 px): not a tall column nor a long bar of empty plot.
    assert width / shape[1] <= side + 1 or figure.layout.width == title_width(figure)
    assert height / shape[0] <= side + 1 or height == fig.BAR_PX
    return side


def title_width(figure: go.Figure) -> int:
    return fig.grid_width(figure.layout.title.text, 0, 0, 0, figure.layout.font.size or 14)


SQUARE = [s for s in SHAPES if fig.cell_px(s) >= fig.ROW_PX]
LONG = [s for s in SHAPES if s not in SQUARE]  # squares too short for a row's label


def test_the_shapes_cover_both_cases() -> None:
    assert SQUARE == [(1, 3), (3, 1), (1, 1), (2, 6), (6, 6)]
    assert LONG == [(64, 64), (1, 64), (64, 1)]


@pytest.mark.parametrize("shape", SQUARE)
def test_a_heatmap_asks_for_square_cells_on_a_desktop(shape: tuple[int, int]) -> None:
    side = assert_square(grid(shape), shape, fig.COLORBAR)
    assert side == fig.cell_px(shape) or side == fig.BAR_PX  # a 1 × 1 beside its bar
    assert assert_square(grid(shape, showscale=False), shape, 0) == fig.cell_px(shape)


@pytest.mark.parametrize("shape", SQUARE)
def test_a_heatmap_keeps_square_cells_on_a_phone(shape: tuple[int, int]) -> None:
    """A phone fits the chart to its 358 px: the rows get what a column gets there."""
    figure = phone.for_phone(grid(shape))
    screen = phone.PHONE_SCREEN
    side = assert_square(figure, shape, 70, screen, least=3)
    fitted = (screen - figure.layout.margin.l - figure.layout.margin.r - 70) / shape[1]
    assert side == pytest.approx(min(phone.PHONE_CELL, fitted), abs=1) or side == fig.BAR_PX


@pytest.mark.parametrize("shape", LONG)
def test_a_grid_of_many_tokens_keeps_rows_its_labels_fit_and_cells_near_square(
    shape: tuple[int, int],
) -> None:
    """64 rows or columns: squares would be 10 px, too short for a token's label (a 13 x 64
    RoPE grid in half a page showed 4 of its 13 tokens), so rows are ROW_PX and columns as
    wide as the page gives them: on a projector (a main column of 800 px), between half and
    twice a row."""
    figure = grid(shape)
    assert figure.layout.yaxis.scaleanchor is None
    width, height = plot_area(figure, fig.COLORBAR if figure.data[0].showscale else 0, 800)
    if figure.data[0].showscale:
        assert height == max(shape[0] * fig.ROW_PX, fig.BAR_PX)
    else:  # one row of 18 px has no room for a colour bar: the Numbers table has the values
        assert height == shape[0] * fig.ROW_PX
    column = width / shape[1] if figure.layout.width is None else fig.ROW_PX
    assert fig.ROW_PX / 2 <= column <= 2 * fig.ROW_PX
    rows = phone.for_phone(grid(shape))
    assert (rows.layout.height - rows.layout.margin.t - rows.layout.margin.b) / shape[0] >= (
        fig.ROW_PX
    )


def test_the_one_query_example_is_one_row_of_squares_with_its_whole_title() -> None:
    s = PRESETS["hungry"].build()  # "it" against animal, jungle and hunt: 1 × 3
    desktop = sf.scores_figure(Labels.of(s), s.trace())
    on_phone = phone.for_phone(sf.scores_figure(Labels.of(s), s.trace()))
    for figure, screen in ((desktop, 700), (on_phone, phone.PHONE_SCREEN)):
        assert figure.layout.title.text == "Raw scores Q Kᵀ (1 × 3)"
        assert fig.text_px("Raw scores Q Kᵀ (1 × 3)", 1.2 * figure.layout.font.size) < min(
            figure.layout.width, screen
        )
        width, height = plot_area(figure, 70, screen)
        assert width / 3 <= height + 1  # three squares across, not three tall bars
        assert figure.layout.yaxis.scaleanchor == "x"


@pytest.mark.parametrize("shape", [(4, 64), (13, 64), (64, 64), (1, 64)])
@pytest.mark.parametrize("on_phone", [False, True], ids=["desktop", "phone"])
def test_a_grid_too_wide_for_its_page_asks_for_the_width_its_labels_need(
    shape: tuple[int, int], on_phone: bool
) -> None:
    """Columns never narrower than COL_PX, an upright label's height in the figure's type
    (12 px on a phone, 14 px else): a page that gives less scrolls the chart sideways
    (views.chart.sideways), and every column keeps its label (dtick 1)."""
    figure = phone.for_phone(grid(shape)) if on_phone else grid(shape)
    least = widths.min_width(figure)
    font = figure.layout.font.size
    assert font + 2 <= widths.COL_PX  # a label turned upright is its type's height, with air
    assert least is not None
    margins = figure.layout.margin.l + (fig.COLORBAR if figure.data[0].showscale else 0)
    assert (least - margins) / shape[1] >= widths.COL_PX
    assert figure.layout.xaxis.dtick == 1


def test_a_grid_that_fits_a_phone_asks_for_no_width() -> None:
    assert widths.min_width(grid((2, 3))) is None
    assert widths.min_width(grid((1, 3))) is None


@pytest.mark.parametrize("shape", [(6, 6), (3, 12), (12, 12)])
def test_printed_numbers_keep_their_width_on_a_narrow_page(shape: tuple[int, int]) -> None:
    """A grid whose cells print numbers is never drawn narrower than those numbers need
    (a 6 x 6 grid squeezed into a 390 px window printed them over each other): a page that
    gives less scrolls it sideways. A desktop page wide enough for it is not affected."""
    figure = grid(shape)
    least, font = widths.min_width(figure), figure.data[0].textfont.size
    assert least is not None and least <= figure.layout.width
    widest = max(fig.text_px(t, font) for row in figure.data[0].text for t in row)
    plot = least - figure.layout.margin.l - figure.layout.margin.r - fig.COLORBAR
    assert plot / shape[1] >= widest + 6
