"""Every number printed in a heatmap cell reads at 4.5:1 or more against its cell (WCAG 1.4.3).

Checked cell by cell on every kind of heatmap the app draws, themed light and dark, on a
desktop and on a phone (masked cells on the theme's grey too). The cell's colour comes from
an independent interpolation (``reference_cell``), not from the app's
``contrast.scale_colour``, which is itself checked against Plotly's own sampler.
"""

from __future__ import annotations

import numpy as np
import plotly.colors as pc
import plotly.graph_objects as go
import pytest

from attention_core import PRESETS, Scenario, random_scenario
from attention_ui.draw import contrast
from attention_ui.draw import figures as fig
from attention_ui.draw.phone import for_phone
from attention_ui.multi_head import figures as mhf
from attention_ui.real_model import figures as rmf
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels

PALETTES = (fig.LIGHT, fig.DARK)


def scenarios() -> dict[str, Scenario]:
    cat = PRESETS["cat_mat"].build()
    return {
        "cat_mat": cat,
        "causal": cat.replace(mask_kind="causal"),
        "padding": cat.replace(mask_kind="padding", n_valid=3),
        "paper_toy": PRESETS["paper_toy"].build(),
        "random": random_scenario(seed=11, n_tokens=7, d_model=5, d_k=4, d_v=3),
    }


def stage_figures(s: Scenario) -> dict[str, go.Figure]:
    """Every heatmap of the walkthrough and presentation mode for one scenario."""
    t, labels = s.trace(), Labels.of(s)
    out = {
        "scores": sf.scores_figure(labels, t, pick=(0, 1), clickable=True),
        "scaling_raw": sf.scaling_pair(labels, t)[0],
        "scaling_scaled": sf.scaling_pair(labels, t)[1],
        "scaling_summary": sf.scaling_summary(labels, t),
        "mask": sf.mask_summary(labels, t),
        "softmax": sf.softmax_summary(labels, t),
        "output": sf.output_summary(labels, t),
        **{f"qkv_{k}": f for k, f in sf.qkv_figures(labels, t).items()},
    }
    if s.mode == "embeddings":
        for n, f in enumerate(sf.projection_figures(s.X, s.W_q, t.Q, "Q", labels)):
            out[f"projection_{n}"] = f
    if t.mask is not None:
        out["mask_grid"] = fig.heatmap(t.mask.astype(float), labels.queries, labels.keys,
                                       "Mask", signed=False, digits=0)  # fmt: skip
    return out


def lab_figures() -> dict[str, go.Figure]:
    """The multi-head lab's and the real model's heatmaps that print numbers."""
    rng = np.random.default_rng(5)
    labels = ["the", "cat", "sat", "on"]
    w = rng.random((4, 4))
    w /= w.sum(axis=1, keepdims=True)
    causal = np.tril(np.ones((4, 4), dtype=bool))
    concat, W_o = rng.normal(size=(4, 6)), rng.normal(size=(6, 5))
    grid = rng.random((6, 12))
    return {
        "split": mhf.split_figure({"K": rng.normal(size=(5, 8)), "V": rng.normal(size=(5, 8))}, 4),
        "head_weights": mhf.heads_figure([w, w[::-1]], [causal, None], labels, labels, 2),
        "mh_out": mhf.output_figure(concat, W_o, concat @ W_o, labels, 3),
        "head_grid": rmf.head_grid(grid, "weight on 'it'", pick=(2, 3)),
        "targets_grid": rmf.targets_grid(grid, [["<b>it</b>"] * 12] * 6, "top keys"),
    }


def every_figure() -> dict[str, go.Figure]:
    """Built once; each test themes its own copy."""
    figures = {f"{name}/{key}": f for name, s in scenarios().items()
               for key, f in stage_figures(s).items()}  # fmt: skip
    return figures | {f"lab/{key}": f for key, f in lab_figures().items()}


FIGURES = every_figure()


def reference_cell(trace: go.Heatmap, value: float) -> tuple[float, float, float]:
    """The cell colour of ``value``: each channel interpolated with np.interp between the
    scale's stops (reversescale: read at 1 - t), independently of contrast.scale_colour."""
    lo, hi = trace.zmin, trace.zmax
    t = 0.5 if hi == lo else min(max((value - lo) / (hi - lo), 0.0), 1.0)
    t = 1 - t if trace.reversescale else t
    positions = [float(p) for p, _ in trace.colorscale]
    channels = np.array([pc.hex_to_rgb(c) if c.startswith("#") else pc.unlabel_rgb(c)
                         for _, c in trace.colorscale], dtype=float)  # fmt: skip
    return tuple(float(np.interp(t, positions, channels[:, k])) for k in range(3))


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("palette", PALETTES, ids=lambda p: p.name)
@pytest.mark.parametrize("name", list(FIGURES))
def test_every_printed_cell_number_reads_at_4_5_to_1(name: str, palette, phone: bool) -> None:
    figure = go.Figure(FIGURES[name])  # a copy
    if phone:
        for_phone(figure)
    heats = [tr for tr in figure.data if tr.type == "heatmap"]  # a lab's grid has several
    before = [[list(map(str, row)) for row in heat.text] for heat in heats]
    fig.themed(figure, palette)
    for heat, was in zip(heats, before, strict=True):
        assert heat.zmin is not None and heat.zmax is not None, "every heatmap fixes its scale"
        if phone and heat.texttemplate == "":
            continue  # too wide for a phone: nothing printed, each value on a tap
        z = np.asarray(heat.z, dtype=float)
        checked = 0
        for i, row in enumerate(heat.text):
            for j, text in enumerate(row):
                assert contrast.plain(text) == was[i][j]  # the numbers are unchanged
                inks = contrast.inks(heat, text)
                assert inks and len(inks) == len(was[i][j].split("<br>")), text
                cell = palette.masked if not np.isfinite(z[i, j]) else reference_cell(heat, z[i, j])
                for ink in inks:
                    assert contrast.ratio(ink, cell) >= contrast.AA_TEXT, (name, i, j, ink, cell)
                checked += 1
        assert checked == z.size


def test_masked_cells_are_written_on_the_themes_grey() -> None:
    s = scenarios()["causal"]
    for palette in PALETTES:
        figure = fig.themed(sf.softmax_summary(Labels.of(s), s.trace()), palette)
        masked = figure.data[0].text[0][3]  # row 0 may not look ahead at key 3
        assert contrast.plain(masked) == fig.MASKED_TEXT
        assert contrast.inks(figure.data[0], masked) == [contrast.text_on(palette.masked)]
    # the light grey takes black, the dark one white (6.3:1; black would be 3.3:1)
    assert contrast.text_on(fig.LIGHT.masked) == contrast.BLACK
    assert contrast.text_on(fig.DARK.masked) == contrast.WHITE


def test_a_heatmap_without_printed_numbers_is_left_alone() -> None:
    big = np.arange(30 * 30, dtype=float).reshape(30, 30) / 900  # > MAX_PRINTED: hover only
    labels = [f"t{k}" for k in range(30)]
    figure = fig.themed(fig.heatmap(big, labels, labels, "big", signed=False), fig.LIGHT)
    assert figure.data[0].texttemplate == ""
    assert contrast.printed_colours(str(figure.data[0].text[0][0])) == []


def test_theming_twice_keeps_one_colour_per_line() -> None:
    s = scenarios()["cat_mat"]
    figure = sf.scores_figure(Labels.of(s), s.trace())
    once = fig.themed(figure, fig.LIGHT).data[0].text
    twice = fig.themed(figure, fig.DARK).data[0].text
    assert [contrast.plain(t) for t in twice[0]] == [contrast.plain(t) for t in once[0]]
    assert all(len(contrast.inks(figure.data[0], t)) == 1 for t in twice[0])
    assert all(len(contrast.printed_colours(t)) <= 1 for t in twice[0])  # no span in a span


# ---- the arithmetic --------------------------------------------------------------------
def test_luminance_and_ratio_match_wcag() -> None:
    assert contrast.luminance("#FFFFFF") == 1.0 and contrast.luminance("#000000") == 0.0
    assert contrast.ratio("#000000", "#FFFFFF") == 21.0  # (1 + 0.05) / (0 + 0.05), exact
    # Streamlit's caption grey on white: axe-core reports 3.88 (it truncates to 2 decimals)
    assert int(contrast.ratio("#828180", "#FFFFFF") * 100) == 388
    assert contrast.ratio("rgb(255, 255, 255)", "#FFFFFF") == 1.0


def test_the_better_of_black_and_white_never_falls_below_4_58() -> None:
    greys = [f"#{v:02X}{v:02X}{v:02X}" for v in range(256)]
    worst = min(max(contrast.ratio(g, contrast.BLACK), contrast.ratio(g, contrast.WHITE))
                for g in greys)  # fmt: skip
    bound = np.sqrt(0.0525) / 0.05  # 4.5826: where (L + 0.05)^2 = 0.0525, the two ratios meet
    # ratio() is a few float operations on numbers below 1.05: its error is a few ulps of
    # 4.58 (about 1e-15); 1e-12 leaves room for that and nothing else.
    assert worst >= bound - 1e-12
    # The bound is tight: near L = 0.18 neighbouring greys are at most 0.0045 apart in
    # luminance, so one lies within 0.0023 of the meeting point, where the ratio moves by
    # 4.58 / 0.229 = 20 per unit of L: within 0.046 of the bound.
    assert worst - bound <= 0.046


@pytest.mark.parametrize("scale", ["RdBu", "Viridis"])
def test_scale_colour_agrees_with_plotlys_sampler(scale: str) -> None:
    stops = pc.get_colorscale(scale)
    for t in np.linspace(0, 1, 41):
        ours = contrast.scale_colour(stops, t)
        theirs = contrast.rgb(pc.sample_colorscale(stops, [t])[0])
        # Both interpolate the same two stops linearly; Plotly's sampler then rounds each
        # channel to a whole number (and ours does not), so they differ by at most 0.5,
        # plus float rounding of a + w (b - a) on numbers up to 255 (255 * 4 eps).
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=0.5 + 255 * 4 * np.finfo(float).eps)


@pytest.mark.parametrize("palette", PALETTES, ids=lambda p: p.name)
def test_the_formula_accent_reads_on_its_theme(palette) -> None:
    background = {"light": "#FFFFFF", "dark": "#171614"}[palette.name]  # Streamlit 1.67's
    assert contrast.ratio(palette.accent, background) >= contrast.AA_TEXT
