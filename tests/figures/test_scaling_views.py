"""The scaling views show their own point (issue 22): scores grow with d_k, scaling undoes it.

- The Scaling stage draws raw and scaled scores on ONE colour scale, so the scaled grid is
  paler; each on its own scale, they looked the same colour for colour.
- The Scaling lab's histograms share a fixed axis, so the unscaled spread visibly grows with
  d_k and spills off it; a rescaling axis drew every bell alike.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import PRESETS
from attention_core.saturation import sample_scores
from attention_ui.scaling_lab import figures as lab
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels


def test_raw_and_scaled_scores_share_one_colour_scale() -> None:
    s = PRESETS["cat_mat"].build()
    t = s.trace()
    raw, scaled = sf.scaling_pair(Labels.of(s), t)
    bound = float(np.abs(t.scores).max())  # 5.47 (sat -> cat): the raw grid's largest
    for figure in (raw, scaled):
        heat = figure.data[0]
        assert (heat.zmin, heat.zmax) == (-bound, bound)
    # on that scale the scaled grid reaches only 1/sqrt(3) of the way: visibly paler
    assert float(np.abs(scaled.data[0].z).max()) / bound == pytest.approx(1 / np.sqrt(3))


def _bars(d_k: int, scaled: bool):
    raw = sample_scores([d_k], seed=0)[0]  # (2000, 8)
    return lab.score_histogram(raw / np.sqrt(d_k) if scaled else raw, d_k, scaled), raw


def _spread(figure) -> float:
    """The bars' own spread on the axis: sqrt(sum p x^2 / sum p)."""
    bars = figure.data[0]
    p = np.asarray(bars.y) * bars.width
    return float(np.sqrt(np.sum(p * np.asarray(bars.x) ** 2) / np.sum(p)))


@pytest.mark.parametrize("scaled", [False, True])
@pytest.mark.parametrize("d_k", [4, 64, 1024])
def test_every_histogram_is_drawn_on_the_same_fixed_axis(d_k: int, scaled: bool) -> None:
    figure, raw = _bars(d_k, scaled)
    assert list(figure.layout.xaxis.range) == [-lab.AXIS, lab.AXIS]
    assert list(figure.layout.yaxis.range) == [0, lab.DENSITY_TOP]
    x = raw / np.sqrt(d_k) if scaled else raw
    bars = figure.data[0]
    inside = float(np.sum(bars.y) * bars.width)  # densities over every sample
    assert inside == pytest.approx(np.mean(np.abs(x) <= lab.AXIS), abs=1e-9)


def test_the_unscaled_spread_grows_off_the_axis_and_the_scaled_one_stays() -> None:
    unscaled_4, raw_4 = _bars(4, False)
    unscaled_1024, raw_1024 = _bars(1024, False)
    # std 2 fits in ±8 (a q·k sum of 4 products has heavier tails than a normal: 0.2 %
    # fall past it); std 32 puts about 80 % of the scores off the axis (P(|z| > 1/4))
    assert np.mean(np.abs(raw_4) > lab.AXIS) < 0.01
    assert 0.75 < np.mean(np.abs(raw_1024) > lab.AXIS) < 0.85
    notes = " ".join(a.text for a in unscaled_1024.layout.annotations)
    assert "off the axis" in notes and "off →" in notes
    assert not any("off" in a.text for a in unscaled_4.layout.annotations)
    assert _spread(unscaled_1024) > 2 * _spread(unscaled_4)  # flat across the axis vs a bell
    scaled_4, _ = _bars(4, True)
    scaled_1024, _ = _bars(1024, True)
    assert _spread(scaled_1024) == pytest.approx(_spread(scaled_4), rel=0.1)  # std 1 at both


def test_the_saturating_zone_is_marked_on_both_sides() -> None:
    figure, _ = _bars(64, False)
    zones = [(z.x0, z.x1) for z in figure.layout.shapes]
    assert zones == [(-lab.AXIS, -lab.SATURATES), (lab.SATURATES, lab.AXIS)]
