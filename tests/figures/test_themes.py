"""Figures follow the page's theme: transparent background, the theme's ink, readable cells."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import PRESETS
from attention_ui.draw import contrast
from attention_ui.draw import figures as fig
from attention_ui.scaling_lab import figures as scaling_figures
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels, contributions


@pytest.fixture
def trace_and_labels() -> tuple:
    s = PRESETS["cat_mat"].build().replace(mask_kind="causal")
    return s.trace(), Labels.of(s)


@pytest.mark.parametrize("palette", [fig.LIGHT, fig.DARK])
def test_heatmaps_take_the_themes_colours(trace_and_labels, palette: fig.Palette) -> None:
    t, labels = trace_and_labels
    figure = fig.themed(sf.scores_figure(labels, t, pick=(0, 1)), palette)
    layout = figure.layout
    assert layout.paper_bgcolor == "rgba(0,0,0,0)"  # the page's own background shows
    assert layout.font.color == palette.ink
    assert layout.plot_bgcolor == palette.masked  # masked cells and gaps
    assert figure.layout.shapes[0].line.color == palette.ink  # the picked cell's outline
    # not Plotly's own choice per cell (3:1 at worst): the ink most cells need, and the
    # other one in the cells that need it (contrast.label_cells)
    heat = figure.data[0]
    assert heat.textfont.color in (contrast.BLACK, contrast.WHITE)
    assert {ink for row in heat.text for t in row for ink in contrast.inks(heat, t)} <= {
        contrast.BLACK, contrast.WHITE}  # fmt: skip


def test_dark_ink_replaces_black_everywhere(trace_and_labels) -> None:
    t, labels = trace_and_labels
    bars = fig.contributions_bar(contributions(t, 0), t.weights[0], labels.keys, "Output")
    dark = fig.themed(bars, fig.DARK)
    diamond = dark.data[-1]
    assert diamond.marker.color == fig.DARK.ink
    assert dark.layout.plot_bgcolor == "rgba(0,0,0,0)"  # bars: no grey panel
    hist = fig.themed(scaling_figures.score_histogram(np.ones((4, 8)), 16, True), fig.DARK)
    assert hist.data[1].line.color == fig.DARK.ink
    assert hist.layout.legend.bgcolor == fig.DARK.legend_bg
    assert "#000000" not in dark.to_json() + hist.to_json()


def test_dark_masked_grey_differs_from_the_page_and_the_ink() -> None:
    assert fig.DARK.masked not in (fig.DARK.ink, fig.LIGHT.masked)
    assert fig.PALETTES == {"light": fig.LIGHT, "dark": fig.DARK}
