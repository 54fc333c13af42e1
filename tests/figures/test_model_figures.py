"""The real-model page's figures, from constructed weights (no model, no Streamlit)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_ui.real_model import figures as mf
from tests.spec import numeric
from tests.tolerance import eps

EPS32 = eps(np.float32)

L, H, N = 6, 12, 5


@pytest.fixture
def weights() -> np.ndarray:
    rng = np.random.default_rng(0)
    w = rng.random((L, H, N, N))
    return w / w.sum(axis=-1, keepdims=True)  # rows sum to 1, like softmax weights


def test_gallery_places_each_head_in_its_own_block(weights) -> None:
    names = [["" if (la + h) % 3 else "previous token" for h in range(H)] for la in range(L)]
    figure = mf.gallery(weights, names, "every head").to_plotly_json()
    z = numeric(figure["data"][0]["z"])
    step_x, step_y = N + 1, N + mf.gallery_gap(N)
    assert z.shape == (L * step_y, H * step_x - 1)
    for layer, head in [(0, 0), (2, 7), (5, 11)]:
        r, c = layer * step_y, head * step_x
        # float64 weights stored as float32: rounded to nearest, within half an ulp
        block = z[r : r + N, c : c + N]
        np.testing.assert_allclose(block, weights[layer, head], rtol=EPS32 / 2, atol=0)
    assert np.isnan(z[:, N]).all()  # the column between head 1 and head 2 is empty
    assert np.isnan(z[N:step_y]).all()  # the rows under layer 1 hold its labels
    assert len(figure["layout"]["annotations"]) == sum(bool(x) for row in names for x in row)
    assert figure["layout"]["annotations"][0]["text"] == "previous<br>token"
    assert figure["layout"]["xaxis"]["ticktext"][0] == "H1"
    assert figure["layout"]["yaxis"]["ticktext"][-1] == "L6"


def test_wrap_name_keeps_every_pattern_name_readable() -> None:
    assert mf.wrap_name("[CLS]/[SEP] sink") == "[CLS]/<br>[SEP] sink"
    assert mf.wrap_name("same word") == "same<br>word"
    assert mf.wrap_name("broad") == "broad"


def test_head_grid_prints_fixed_point_and_outlines_the_pick() -> None:
    values = np.zeros((L, H))
    values[3, 1], values[0, 0] = 0.64, 1e-16
    figure = mf.head_grid(values, "weight", pick=(3, 1)).to_plotly_json()
    trace = figure["data"][0]
    np.testing.assert_array_equal(numeric(trace["z"]), values)
    assert trace["text"][0][0] == "0.00" and trace["text"][3][1] == "0.64"
    assert trace["y"][3] == "L4" and trace["x"][1] == "H2"
    (shape,) = figure["layout"]["shapes"]
    assert (shape["x0"], shape["y0"]) == (0.5, 2.5)


def test_targets_grid_escapes_and_cuts_token_labels() -> None:
    labels = [["<b>x</b>"] * H for _ in range(L)]
    labels[0][1] = "extraordinarily"
    figure = mf.targets_grid(np.full((L, H), 0.5), labels, "top <i>keys</i>").to_plotly_json()
    text = figure["data"][0]["text"]
    assert text[0][0] == "&lt;b&gt;x&lt;/b&gt;<br>0.50"  # cut before escaping: no broken &gt;
    assert text[0][1].startswith("extraord…<br>")
    assert figure["layout"]["title"]["text"] == "top &lt;i&gt;keys&lt;/i&gt;"


def test_compare_bars_show_both_sentences_on_one_scale() -> None:
    first, second = np.array([0.7, 0.2, 0.1]), np.array([0.1, np.nan, 0.9])
    figure = mf.compare_bars(["a", "<b>", "tired / wide"], first, second, "t").to_plotly_json()
    a, b = figure["data"]
    np.testing.assert_array_equal(numeric(a["y"]), first)
    assert np.isnan(numeric(b["y"])[1])
    assert list(a["x"]) == ["a", "&lt;b&gt;", "tired / wide"]
    assert figure["layout"]["yaxis"]["range"] == [0, 1]
