"""The scaling lab's figures show the sweep's numbers (no browser: read the go.Figure)."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

from attention_core import saturation_sweep
from attention_core.saturation import DK_POWERS, sample_scores, softmax_stats
from attention_ui.scaling_lab import figures as sf
from tests.spec import decode
from tests.tolerance import gamma

UNSCALED, SCALED = "#D55E00", "#0072B2"


@pytest.fixture(scope="module")
def sweep() -> pd.DataFrame:
    return saturation_sweep(DK_POWERS, seed=2)


def row(sweep: pd.DataFrame, d_k: int, scaled: bool) -> pd.Series:
    return sweep[(sweep["d_k"] == d_k) & (sweep["scaled"] == scaled)].iloc[0]


@pytest.mark.parametrize(("d_k", "scaled"), [(64, False), (64, True), (512, False), (1, True)])
def test_histogram_is_a_density_with_the_theory_curve(
    sweep: pd.DataFrame, d_k: int, scaled: bool
) -> None:
    raw = sample_scores([d_k], seed=2)[0]  # (2000, 8): the sweep's own samples
    logits = raw / np.sqrt(d_k) if scaled else raw
    fig = sf.score_histogram(logits, d_k, scaled)
    bars, curve = fig.data
    assert (bars.type, curve.type) == ("bar", "scatter")
    # Densities are over every sample, on the fixed axis (issue 22): the bars' areas are the
    # share of samples inside ±AXIS, all of them once scaled. density_i width =
    # (c_i / N) width / width: the product, the division and the bins-term sum add
    # 3u + gamma_{bins-1}, and each linspace edge is within 3uE of i step - E.
    bins = len(bars.y)
    area = float(np.sum(bars.y) * bars.width)
    inside = float(np.mean(np.abs(logits) <= sf.AXIS))
    assert area == pytest.approx(inside, rel=gamma(7 * bins + 5, np.float64))
    var = 1.0 if scaled else d_k
    # The grid's middle point is 0 to within a few u E, where exp(-x^2/2) rounds to 1; sd,
    # sqrt(2 pi), their product and the division (4u) against 2 pi var, its sqrt and 1 / it
    # (2.5u): within gamma_7.
    peak = 1 / np.sqrt(2 * np.pi * var)
    assert float(np.max(curve.y)) == pytest.approx(peak, rel=gamma(7, np.float64))
    # named by its formula (a legend keeps its words while the chart's slider moves)
    assert curve.name == ("theory N(0, 1), std 1" if scaled else "theory N(0, d_k), std √d_k")
    expected = row(sweep, d_k, scaled)["score_std"]
    assert fig.layout.title.text == f"Scores: std {expected:.2f}"
    assert bars.marker.color == (SCALED if scaled else UNSCALED)
    if scaled:  # every sample on the axis: the bars' own spread agrees with the samples
        centres = np.asarray(bars.x)
        p = np.asarray(bars.y) * bars.width
        # A binning tolerance, not a rounding one: each sample moved to its bin centre (width
        # w = 0.4) adds about w^2/12 to the second moment (Sheppard), under 1.5 % of the
        # std of 1; the rms about 0 also holds the sample mean, under 0.02 %.
        assert np.sqrt(np.sum(p * centres**2)) == pytest.approx(np.std(logits), rel=0.05)


def test_bars_show_one_querys_weights() -> None:
    raw = sample_scores([1024])[0]
    for scaled in (False, True):
        w = softmax_stats(raw[0] / (32 if scaled else 1))["weights"]
        fig = sf.softmax_bars(w, scaled)
        bar = fig.data[0]
        np.testing.assert_array_equal(bar.y, w)  # copied, no arithmetic
        assert list(bar.x) == list(range(8))  # on a numeric axis named by the keys
        assert list(fig.layout.xaxis.ticktext) == [f"k{j}" for j in range(1, 9)]
        assert list(bar.customdata) == [f"k{j}" for j in range(1, 9)]  # and in the hover
        assert list(bar.text) == [f"{v:.2f}" for v in w]
        assert fig.layout.title.text == f"One query: max weight {w.max():.2f}"
        assert tuple(fig.layout.yaxis.range) == (0, 1.12)  # fixed: saturation is visible
        assert fig.layout.shapes[0].y0 == 1 / 8  # the uniform line (exact in binary)
        assert bar.marker.color == (SCALED if scaled else UNSCALED)
    saturated = sf.softmax_bars(softmax_stats(raw[0])["weights"], False).data[0].y
    assert np.max(saturated) > 0.9  # this sampled query is saturated at d_k = 1024


@pytest.mark.parametrize("metric", list(sf.METRICS))
@pytest.mark.parametrize("d_k", [1, 64, 1024])
def test_curves_show_the_sweep_and_mark_dk(sweep: pd.DataFrame, metric: str, d_k: int) -> None:
    fig = sf.metric_curve(sweep, metric, d_k)
    unscaled, scaled, marker = fig.data
    for trace, flag, colour in ((unscaled, False, UNSCALED), (scaled, True, SCALED)):
        part = sweep[sweep["scaled"] == flag]
        np.testing.assert_array_equal(trace.x, part["d_k"].to_numpy())
        np.testing.assert_array_equal(trace.y, part[metric].to_numpy())  # copied
        assert trace.line.color == colour
    np.testing.assert_array_equal(marker.x, [d_k, d_k])
    expected = [row(sweep, d_k, False)[metric], row(sweep, d_k, True)[metric]]
    np.testing.assert_array_equal(marker.y, expected)  # copied
    assert list(marker.text) == [f"{v:.2f}" for v in expected]
    assert fig.layout.xaxis.type == "log"
    assert [s.x0 for s in fig.layout.shapes] == [d_k]  # the vertical marker line
    assert fig.layout.title.text == sf.METRICS[metric]


def test_curve_axes_fit_the_numbers(sweep: pd.DataFrame) -> None:
    for metric in sf.METRICS:
        fig = sf.metric_curve(sweep, metric, 64)
        lo, hi = fig.layout.yaxis.range
        assert lo < 0 < sweep[metric].max() < hi


def test_figures_use_graph_objects_only() -> None:
    assert "plotly.express" not in inspect.getsource(sf)


def test_combined_keeps_each_panel_on_its_own_axes() -> None:
    """The lab's one chart: every trace, shape and note of panel k is on axes k, the titles
    are named in order, and a series drawn twice in one legend is one entry."""
    logits = np.random.default_rng(3).normal(size=(50, 8)) * 8  # (S, n_keys)
    hist = sf.score_histogram(logits, 64, False)
    bars = sf.softmax_bars(softmax_stats(logits[0])["weights"], False)
    panel = sf.combined([hist, bars])
    assert panel.layout.meta["panels"] == [hist.layout.title.text, bars.layout.title.text]
    assert [t.xaxis for t in panel.data] == ["x", "x", "x2"]  # bars, theory curve; weights
    assert [t.yaxis for t in panel.data] == ["y", "y", "y2"]
    np.testing.assert_array_equal(panel.data[2].y, bars.data[0].y)
    zones = [s for s in panel.layout.shapes if s.type == "rect"]
    assert {(s.xref, s.yref) for s in zones} == {("x", "y domain")}  # the histogram's
    (uniform,) = [s for s in panel.layout.shapes if s.type == "line"]
    assert (uniform.xref, uniform.yref) == ("x2 domain", "y2") and uniform.y0 == 1 / 8
    top, bottom = panel.layout.yaxis.domain, panel.layout.yaxis2.domain
    assert bottom[1] < top[0]  # the bars sit under the histogram, apart
    sweep = saturation_sweep(DK_POWERS, n_keys=8, n_samples=200, seed=0)
    scores = sample_scores(DK_POWERS, 8, 200, 0)
    lab = sf.lab_figures(DK_POWERS, scores, sweep)["64"]
    shown = [(t.legend, t.name) for t in lab.data if t.showlegend is not False]
    assert shown == [("legend", "sampled scores"), ("legend", "theory N(0, d_k), std √d_k"),
                     ("legend2", "sampled scores"), ("legend2", "theory N(0, 1), std 1"),
                     ("legend3", "without scaling"), ("legend3", "with 1/√d_k")]  # fmt: skip
    curves = [lab.layout[f"xaxis{a}"].domain[0] for a in ("5", "6", "7")]
    assert curves == sorted(curves) and len(set(curves)) == 3  # side by side
    phone = sf.lab_figures(DK_POWERS, scores, sweep, phone=True)["64"]
    assert {phone.layout[f"xaxis{a}"].domain for a in ("", "2", "5", "7")} == {(0.0, 1.0)}


def _at_frame(figure, name: str) -> dict:
    """The figure as Plotly draws it once its slider reached frame ``name``: the frame's
    traces and notes merged item by item into the figure's, as plotly.js's animate does
    (Plots.extendTrace, Plots.extendLayout)."""
    drawn = figure.to_plotly_json()
    (frame,) = [f for f in drawn["frames"] if f["name"] == name]
    for j, trace in zip(frame["traces"], frame["data"], strict=True):
        drawn["data"][j] = {**drawn["data"][j], **trace}
    assert not frame.get("layout"), "a frame that changes the layout needs a full redraw"
    return drawn


def _on_axis(drawn: dict, k: int) -> list[dict]:
    """The traces of panel k (0-based) of a combined figure: the named ones (the notes and
    lines that move are unnamed traces on the first panel's axes)."""
    axis = "x" if k == 0 else f"x{k + 1}"
    return [t for t in drawn["data"] if t.get("xaxis", "x") == axis and "name" in t]


@pytest.mark.parametrize("opened_at", [64, 1])
def test_every_frame_draws_the_cores_numbers_for_its_d_k(opened_at: int) -> None:
    """Issue 43: each step of the chart's own slider draws, for its d_k, the histograms of
    the core's sampled scores, the first query's softmax and the sweep's values, whatever
    d_k the page opened it at. Expected numbers from attention_core and NumPy, not from
    the figure code."""
    n_keys, n_samples, seed = 8, 400, 5
    sweep = saturation_sweep(DK_POWERS, n_keys=n_keys, n_samples=n_samples, seed=seed)
    scores = sample_scores(DK_POWERS, n_keys, n_samples, seed)
    figure = sf.lab_figures(DK_POWERS, scores, sweep)[str(opened_at)]
    (slider,) = figure.layout.sliders
    assert slider.active == DK_POWERS.index(opened_at)
    assert [s.label for s in slider.steps] == [str(d) for d in DK_POWERS]
    assert all(s.method == "animate" and s.args[1]["mode"] == "immediate" for s in slider.steps)
    for d_k in DK_POWERS:
        drawn = _at_frame(figure, str(d_k))
        raw = sample_scores([d_k], n_keys, n_samples, seed)[0]  # (S, n_keys), the core's
        # the titles that change are drawn as one text trace (sliding), after the panels'
        notes = [t for t in drawn["data"] if t.get("mode") == "text"]
        titles = [a["text"] for a in drawn["layout"]["annotations"]]
        titles += [str(t) for trace in notes for t in trace["text"]]
        for k, scaled in enumerate((False, True)):
            x = raw / np.sqrt(d_k) if scaled else raw
            counts, edges = np.histogram(x, bins=40, range=(-sf.AXIS, sf.AXIS))
            hist, theory = _on_axis(drawn, k)
            density = counts / (x.size * (edges[1] - edges[0]))
            np.testing.assert_allclose(decode(hist["y"]), density, rtol=1e-12)
            var = 1 if scaled else d_k  # the theory curve is N(0, var)'s density
            grid = decode(theory["x"])
            pdf = np.exp(-(grid**2) / (2 * var)) / np.sqrt(2 * np.pi * var)
            np.testing.assert_allclose(decode(theory["y"]), pdf, rtol=1e-12)
            assert f"Scores: std {np.std(x):.2f}" in titles
            (bars,) = _on_axis(drawn, 2 + k)
            w = softmax_stats(x[0])["weights"]  # the first query's softmax
            np.testing.assert_allclose(decode(bars["y"]), w, rtol=1e-12)
            assert list(bars["text"]) == [f"{v:.2f}" for v in w]
            assert f"One query: max weight {w.max():.2f}" in titles
        here = sweep[sweep["d_k"] == d_k].sort_values("scaled")
        for k, metric in enumerate(sf.METRICS, start=4):
            marker = _on_axis(drawn, k)[2]
            np.testing.assert_array_equal(decode(marker["x"]), [d_k, d_k])
            np.testing.assert_array_equal(decode(marker["y"]), here[metric].to_numpy())
            assert list(marker["text"]) == [f"{v:.2f}" for v in here[metric]]
        lines = [t for t in drawn["data"] if t.get("mode") == "lines" and None in list(t["x"])]
        # a d_k line on each curve's own panel (drawn on its axes: plotly.js draws nothing of
        # a trace outside its own panel's x range), standing at the slider's d_k
        assert len({(t["xaxis"], t["yaxis"]) for t in lines}) == len(lines) == 3
        for line in lines:
            assert [x for x in line["x"] if x is not None] == [d_k, d_k]


def test_frames_carry_no_colour() -> None:
    """The theme colours the figure once; a frame that carried a colour would undo it."""
    sweep = saturation_sweep(DK_POWERS, n_keys=8, n_samples=100, seed=0)
    figure = sf.lab_figures(DK_POWERS, sample_scores(DK_POWERS, 8, 100, 0), sweep)["64"]
    text = str([f.to_plotly_json() for f in figure.frames])
    assert "color" not in text and "#" not in text
