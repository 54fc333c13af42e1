"""AppTest of the scaling lab: widgets, URL, the numbers on the page and in every chart."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS, attention, saturation_sweep
from attention_core.saturation import DK_POWERS
from attention_ui.frame.pages import BY_KEY
from attention_ui.scaling_lab.figures import METRICS
from tests.spec import chart_specs, decode, numeric
from tests.tolerance import row_sum_bound

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = BY_KEY["scaling-lab"].path


def open_lab(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def panels(at: AppTest) -> list[dict]:
    """Every chart's panels in page order, each as {"title", "data"}: a combined chart
    (scaling_lab.figures.combined) names its panels in layout.meta, and panel k's traces
    are on axes x{k+1}."""
    out = []
    for spec in chart_specs(at):
        titles = (spec["layout"].get("meta") or {}).get("panels")
        if titles is None:
            out.append({"title": spec["layout"]["title"]["text"], "data": spec["data"]})
            continue
        for k, title in enumerate(titles):
            axis = "x" if k == 0 else f"x{k + 1}"
            out.append(
                {"title": title, "data": [t for t in spec["data"] if t.get("xaxis", "x") == axis]}
            )
    return out


def charts(at: AppTest, title_start: str) -> list[dict]:
    found = [p for p in panels(at) if p["title"].startswith(title_start)]
    assert found, f"no chart titled {title_start!r}"
    return found


def metrics(at: AppTest) -> list[str]:
    return [m.value for m in at.metric]


def expected_metrics(d_k: int, seed: int = 0) -> list[str]:
    sweep = saturation_sweep(DK_POWERS, seed=seed)
    out = []
    for scaled in (False, True):
        r = sweep[(sweep["d_k"] == d_k) & (sweep["scaled"] == scaled)].iloc[0]
        out += [f"{r.score_std:.2f}", f"{r.max_weight:.3f}", f"{r.entropy:.3f}",
                f"{r.grad_norm:.3f}"]  # fmt: skip
    return out


def test_page_renders_with_defaults() -> None:
    at = open_lab()
    assert at.title[0].value == "Scaling lab"
    slider = at.select_slider(key="lab_dk")
    assert slider.value == 64 and list(slider.options) == [str(d) for d in DK_POWERS]
    assert at.number_input(key="lab_seed").value == 0
    # one chart for every panel the d_k slider moves (issue 43), 4 heatmaps
    assert len(at.get("plotly_chart")) == 5
    starts = ["Scores: std"] * 2 + ["One query: max weight"] * 2 + list(METRICS.values())
    titles = [p["title"] for p in panels(at)][:7]
    assert all(t.startswith(w) for t, w in zip(titles, starts, strict=True)), titles
    assert metrics(at) == expected_metrics(64)
    assert [h.value for h in at.subheader][:2] == [
        "Without scaling: softmax(q·k)", "With scaling: softmax(q·k / √d_k)"
    ]  # fmt: skip
    text = " ".join(m.value for m in at.markdown)
    assert "What if we remove the scaling?" in [h.value for h in at.subheader]
    for phrase in ("vanishing-gradient", "training stalls", "gradient-norm chart"):
        assert phrase in text, phrase


def test_slider_moves_every_lab_chart() -> None:
    at = open_lab()
    at.select_slider(key="lab_dk").set_value(512).run()
    assert not at.exception
    assert metrics(at) == expected_metrics(512)
    unscaled_hist, scaled_hist = charts(at, "Scores: std")
    assert unscaled_hist["data"][1]["name"] == "theory N(0, d_k), std √d_k"
    assert scaled_hist["data"][1]["name"] == "theory N(0, 1), std 1"
    sweep = saturation_sweep(DK_POWERS)
    here = sweep[sweep["d_k"] == 512]
    for spec, metric in zip(charts(at, ""), [None] * 4 + ["max_weight", "entropy", "grad_norm"],
                            strict=False):  # fmt: skip
        if metric is None:
            continue
        marker = spec["data"][2]
        np.testing.assert_array_equal(decode(marker["x"]), [512, 512])
        # the sweep's numbers, computed the same way and copied into the chart: exact
        np.testing.assert_array_equal(decode(marker["y"]), here[metric].to_numpy())
        np.testing.assert_array_equal(decode(spec["data"][0]["y"]),
                                      sweep[~sweep["scaled"]][metric].to_numpy())  # fmt: skip
    bars = charts(at, "One query: max weight")
    unscaled_w, scaled_w = (decode(b["data"][0]["y"]) for b in bars)
    assert unscaled_w.max() > scaled_w.max()
    for w in (unscaled_w, scaled_w):
        assert w.sum() == pytest.approx(1, rel=0, abs=row_sum_bound(w.size))


def test_seed_changes_the_samples_not_the_pattern() -> None:
    at = open_lab()
    at.number_input(key="lab_seed").set_value(5).run()
    assert not at.exception
    assert metrics(at) == expected_metrics(64, seed=5)
    assert metrics(at) != expected_metrics(64, seed=0)


def test_dk_and_seed_come_from_the_url() -> None:
    """A shared link opens the lab where it was. (The other direction, widget -> URL, is
    written by the browser; AppTest does not show it, so the browser test checks it.)"""
    at = open_lab({"lab_dk": "256", "lab_seed": "7"})
    assert at.select_slider(key="lab_dk").value == 256
    assert at.number_input(key="lab_seed").value == 7
    assert metrics(at) == expected_metrics(256, seed=7)


def test_a_bad_dk_in_the_url_falls_back_to_the_default() -> None:
    at = open_lab({"lab_dk": "100", "lab_seed": "-5"})
    assert at.select_slider(key="lab_dk").value == 64
    notes = [c.value for c in at.caption if "link's" in c.value]
    assert (
        notes[0]
        == "The link's lab_dk = 100 is not a power of two from 1 to 1024, so the default is shown."
    )
    assert "lab_seed" in notes[1]


def test_dk_survives_a_trip_to_another_page() -> None:
    at = open_lab()
    at.select_slider(key="lab_dk").set_value(1024).run()
    at.switch_page(BY_KEY["softmax"].path).run()
    at.switch_page(PAGE).run()
    assert at.select_slider(key="lab_dk").value == 1024


@pytest.mark.parametrize("mask_kind", ["none", "causal"])
def test_my_scenario_with_and_without_scaling(mask_kind: str) -> None:
    s = PRESETS["cat_mat"].build().replace(mask_kind=mask_kind, scaled=False)
    at = open_lab({"s": s.to_url()})
    Q, K, V = s.qkv()
    for title, scaled in (("Scores × 1", False), (f"Scores × {1 / np.sqrt(Q.shape[1]):.3g}", True)):
        t = attention(Q, K, V, mask=s.mask(), scaled=scaled)
        (scores,) = charts(at, title)
        weights = charts(at, "Weights")[int(scaled)]
        z_scores, z_weights = numeric(scores["data"][0]["z"]), numeric(weights["data"][0]["z"])
        allowed = np.ones_like(t.weights, bool) if t.mask is None else t.mask
        # the page runs the same attention() on the same Q, K, V: exactly equal
        np.testing.assert_array_equal(z_scores[allowed], t.scaled_scores[allowed])
        np.testing.assert_array_equal(z_weights[allowed], t.weights[allowed])
        assert np.isnan(z_weights[~allowed]).all()  # masked cells are gaps
        assert weights["data"][0]["zmin"] == 0 and weights["data"][0]["zmax"] == 1
        assert list(weights["data"][0]["y"]) == s.query_labels
        assert list(weights["data"][0]["x"]) == s.key_labels
    # unscaled, the weights are sharper on average
    unscaled_w, scaled_w = (numeric(w["data"][0]["z"]) for w in charts(at, "Weights"))
    assert np.nanmean(np.nanmax(unscaled_w, axis=1)) > np.nanmean(np.nanmax(scaled_w, axis=1))


def test_rerun_is_quick() -> None:
    at = open_lab()
    times = []
    for d_k in (128, 256, 512, 1024, 64):
        t0 = time.perf_counter()
        at.select_slider(key="lab_dk").set_value(d_k).run()
        times.append(time.perf_counter() - t0)
    assert not at.exception
    assert min(times) < 0.5, times  # a full AppTest rerun of the page; measured ≈0.1 s idle


def test_each_chart_of_the_lab_has_one_numbers_box_with_its_parts() -> None:
    """One lazy Numbers expander for the lab's one chart (a slider move resends every
    element), holding each panel's table; the curves' tables are the core's sweep, as
    printed (4 significant digits)."""
    at = open_lab()
    boxes = [e.label for e in at.expander if e.label.startswith("Numbers:")][:1]
    assert [label.count(";") for label in boxes] == [6]  # 7 panels
    assert "Largest weight" in boxes[0] and "Gradient norm" in boxes[0]
    at.session_state["lab_charts_numbers"] = True
    at.run()
    box = next(e for e in at.expander if e.label.startswith("Numbers: Scores"))
    tables = [c.value for c in box.children.values() if type(c).__name__ == "Table"][-3:]
    sweep = saturation_sweep(DK_POWERS, seed=0)
    assert len(tables) == len(METRICS)
    for table, metric in zip(tables, METRICS, strict=True):
        assert table.index.tolist() == [str(d) for d in DK_POWERS]
        for column, scaled in zip(table.columns, (False, True), strict=True):
            want = sweep[sweep["scaled"] == scaled].sort_values("d_k")[metric].to_numpy()
            # printed to 4 significant digits: within half a unit of the last one
            half_unit = 0.5 * 10.0 ** (np.floor(np.log10(np.abs(want))) - 3)
            assert np.all(np.abs(table[column].astype(float) - want) <= half_unit * (1 + 1e-9))
