"""AppTest of presentation mode: steps, Next/Back, ?step= in the URL, figures equal the trace."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS, Scenario
from attention_ui.frame.pages import BY_KEY
from attention_ui.practice import present
from attention_ui.stages.data import Labels
from attention_ui.stages.registry import BY_KEY as STAGES
from attention_ui.stages.registry import stage_figure
from tests.spec import chart_specs, numeric

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = BY_KEY["present"]
CAUSAL = PRESETS["cat_mat"].build().replace(mask_kind="causal")


def open_present(scenario: Scenario | None = None, step: str | None = None) -> AppTest:
    """A fresh session opening /present, as a shared link would (``?s=`` and ``?step=``)."""
    at = AppTest.from_file(APP, default_timeout=30)
    if scenario is not None:
        at.query_params["s"] = scenario.to_url()
    if step is not None:
        at.query_params["step"] = step
    at.run()
    at.switch_page(PAGE.path).run()
    assert_ok(at)
    return at


def assert_ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == PAGE.title  # the page heading, small, on every step


def param(at: AppTest, name: str) -> str:
    value = at.query_params[name]
    return value[-1] if isinstance(value, list) else value


def progress_text(at: AppTest) -> str:
    (bar,) = at.get("progress")
    return bar.proto.text


def step_title(at: AppTest) -> str:
    return at.header[0].value


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert_ok(at)
    return at


def heatmaps(at: AppTest) -> dict[str, np.ndarray]:
    """Every heatmap on screen by its title."""
    return {
        sp["layout"]["title"]["text"]: numeric(sp["data"][0]["z"])
        for sp in chart_specs(at)
        if sp["data"][0]["type"] == "heatmap"
    }


def go_to(at: AppTest, k: int) -> AppTest:
    while at.session_state[present.STEP_KEY] < k:
        click(at, present.NEXT_KEY)
    return at


# ---- stepping and the URL --------------------------------------------------------------
def test_opens_on_step_1_with_the_tokens_and_formula() -> None:
    at = open_present()
    assert progress_text(at) == "Step 1 of 6"
    assert param(at, "step") == "1"
    assert step_title(at) == STAGES["inputs"].present_title
    assert any(r"\mathrm{Attention}(Q,K,V)" in e.value for e in at.latex)
    assert any("the · cat · sat · on · the · mat" in m.value for m in at.markdown)
    assert at.button(key=present.BACK_KEY).disabled
    assert not at.button(key=present.NEXT_KEY).disabled


def test_next_and_back_move_the_step_and_the_url_follows() -> None:
    at = open_present()
    for k in (2, 3, 4):
        click(at, present.NEXT_KEY)
        assert param(at, "step") == str(k)
        assert progress_text(at) == f"Step {k} of 6"
    assert step_title(at) == STAGES["scaling"].present_title
    click(at, present.BACK_KEY)
    assert param(at, "step") == "3" and progress_text(at) == "Step 3 of 6"
    assert step_title(at) == STAGES["scores"].present_title
    assert param(at, "s") == PRESETS["cat_mat"].build().to_url()  # the scenario stays shared


def test_last_step_disables_next() -> None:
    at = go_to(open_present(), 6)
    assert step_title(at) == STAGES["output"].present_title
    assert at.button(key=present.NEXT_KEY).disabled
    assert not at.button(key=present.BACK_KEY).disabled
    click(at, present.BACK_KEY)
    assert progress_text(at) == "Step 5 of 6"


def test_deep_link_opens_step_4_of_that_scenario() -> None:
    at = open_present(PRESETS["hungry"].build(), step="4")
    assert progress_text(at) == "Step 4 of 6"
    assert step_title(at) == STAGES["scaling"].present_title
    assert param(at, "step") == "4"
    assert at.session_state["scenario"] == PRESETS["hungry"].build()
    t = PRESETS["hungry"].build().trace()
    (z,) = heatmaps(at).values()
    np.testing.assert_array_equal(z, t.scaled_scores)  # the same trace, drawn as float64
    np.testing.assert_array_equal(z, [[3.0, 1.0, 0.0]])  # the post's scaled scores, exact


@pytest.mark.parametrize("bad", ["abc", "0", "7", "-1", "4.5", "", "<b>9</b>"])
def test_bad_step_in_the_link_gives_step_1_and_a_caption(bad: str) -> None:
    at = open_present(step=bad)
    assert progress_text(at) == "Step 1 of 6"
    assert param(at, "step") == "1"
    assert any("steps 1 to 6" in c.value and "Starting at step 1" in c.value for c in at.caption)
    assert not any("<b>" in c.value for c in at.caption)  # escaped: shown, never markup


def test_step_survives_leaving_and_coming_back() -> None:
    at = go_to(open_present(), 3)
    at.switch_page(BY_KEY["softmax"].path).run()
    at.switch_page(PAGE.path).run()
    assert_ok(at)
    assert progress_text(at) == "Step 3 of 6"


# ---- which steps -----------------------------------------------------------------------
def test_mask_step_only_when_the_scenario_has_a_mask() -> None:
    plain = PRESETS["cat_mat"].build()
    assert [x.stage for x in present.steps(plain, plain.trace())] == [
        "intro", "projections", "scores", "scaling", "softmax", "output"]  # fmt: skip
    assert "mask" in [x.stage for x in present.steps(CAUSAL, CAUSAL.trace())]
    at = go_to(open_present(CAUSAL), 5)
    assert progress_text(at) == "Step 5 of 7"
    assert step_title(at) == STAGES["mask"].present_title
    t = CAUSAL.trace()
    z = heatmaps(at)["Masked scores"]
    np.testing.assert_array_equal(z, np.where(t.mask, t.masked_scores, np.nan))  # same trace
    titles = []
    at = open_present()
    for _ in range(6):
        titles.append(step_title(at))
        if not at.button(key=present.NEXT_KEY).disabled:
            click(at, present.NEXT_KEY)
    assert STAGES["mask"].present_title not in titles


@pytest.mark.parametrize("preset", ["hungry", "paper_toy", "quiz88"])
def test_direct_mode_shows_q_k_v_as_given(preset: str) -> None:
    s = PRESETS[preset].build()
    assert s.mode == "direct"
    at = go_to(open_present(s), 2)
    assert step_title(at) == "Q, K and V (given)"
    assert any("given directly" in m.value for m in at.markdown)
    assert not any("X W_Q" in e.value for e in at.latex)  # no projection formula
    shown = heatmaps(at)
    for name in "QKV":
        (title,) = [k for k in shown if k.startswith(f"{name} (")]
        np.testing.assert_array_equal(shown[title], getattr(s, name))


def test_embeddings_mode_shows_the_projections() -> None:
    at = go_to(open_present(), 2)
    assert step_title(at) == STAGES["projections"].present_title
    assert any(r"Q = X W_Q" in e.value for e in at.latex)
    t = PRESETS["cat_mat"].build().trace()
    shown = heatmaps(at)
    # the same projections of the same numbers: exactly equal
    np.testing.assert_array_equal(shown["Q (6 × 3)"], t.Q)
    np.testing.assert_array_equal(shown["K (6 × 3)"], t.K)
    np.testing.assert_array_equal(shown["V (6 × 4)"], t.V)


# ---- figures equal the core ------------------------------------------------------------
@pytest.mark.parametrize(
    "scenario",
    [PRESETS["cat_mat"].build(), CAUSAL, PRESETS["quiz88"].build()],
    ids=["cat_mat", "causal", "quiz88"],
)
def test_every_stage_figure_equals_the_trace(scenario: Scenario) -> None:
    t = scenario.trace()
    expected = {
        "scores": t.scores,
        "scaling": t.scaled_scores,
        "mask": t.masked_scores,
        "softmax": t.weights,
        "output": t.output,
    }
    at = open_present(scenario)
    plan = present.steps(scenario, t)
    for k, step in enumerate(plan, start=1):
        if k > 1:
            click(at, present.NEXT_KEY)
        assert progress_text(at) == f"Step {k} of {len(plan)}"
        assert step_title(at) == step.title
        if step.stage not in expected:
            continue
        (spec,) = chart_specs(at)
        z = numeric(spec["data"][0]["z"])
        want = expected[step.stage]
        if t.mask is not None and step.stage in ("mask", "softmax"):
            want = np.where(t.mask, want, np.nan)  # masked cells are grey gaps
        np.testing.assert_array_equal(z, want, err_msg=step.stage)  # the same trace
        assert spec["layout"]["font"]["size"] == present.FONT_SIZE  # projector type


def test_scores_step_figure_is_the_core_scores() -> None:
    at = go_to(open_present(), 3)
    assert step_title(at) == STAGES["scores"].present_title
    np.testing.assert_array_equal(heatmaps(at)["Raw scores Q Kᵀ (6 × 6)"],
                                  PRESETS["cat_mat"].build().trace().scores)  # fmt: skip
    assert any(r"\textcolor" in e.value and "QK^" in e.value for e in at.latex)


# ---- intro: choosing the example -------------------------------------------------------
def test_preset_picker_on_the_intro_step_loads_an_example() -> None:
    at = open_present()
    at.selectbox(key=present.PRESET_KEY).set_value("hungry").run()
    at.button(key=f"{present.PRESET_KEY}_load").click().run()
    assert_ok(at)
    assert at.session_state["scenario"] == PRESETS["hungry"].build()
    assert param(at, "s") == PRESETS["hungry"].build().to_url()
    assert progress_text(at) == "Step 1 of 6" and param(at, "step") == "1"
    assert any("Queries: it" in m.value for m in at.markdown)
    click(at, present.NEXT_KEY)  # the picker is on the intro step only
    assert not [w for w in at.selectbox if w.key == present.PRESET_KEY]


def test_user_text_is_escaped() -> None:
    s = PRESETS["quiz88"].build().replace(name="**bold** <i>x</i>", tokens=("*a*", "[b](c)"))
    at = open_present(s)
    shown = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.caption)
    assert r"\*a\*" in shown and r"\[b\]\(c\)" in shown and r"\*\*bold\*\*" in shown
    assert "<i>" not in shown


# ---- the page frame and the projector figure ------------------------------------------
def test_sidebar_hidden_and_exit_link() -> None:
    at = open_present()
    css = [el.proto.body for el in at.get("html")]
    assert any("stSidebar" in c and "display: none" in c for c in css)
    links = {p.proto.label: p.proto.page for p in at.get("page_link")}
    assert "Exit presentation" in links


def test_projector_figure_is_a_bigger_copy() -> None:
    s = PRESETS["cat_mat"].build()
    t = s.trace()
    original = stage_figure("scores", Labels.of(s), t)
    before = original.to_plotly_json()
    big = present.projector_figure(original, *t.scores.shape)
    assert original.to_plotly_json() == before  # views' figure untouched
    assert big.layout.font.size == present.FONT_SIZE
    # the height is the smallest box's, a floor the screen stretches (browser tests)
    assert big.layout.height == present.STAGE_FLOOR and big.layout.autosize
    narrow = present.projector_figure(original, *t.scores.shape, narrow=True)
    assert narrow.layout.height == present.QKV_FLOOR
    assert big.data[0].textfont.size > original.data[0].textfont.size
    np.testing.assert_array_equal(big.data[0].z, original.data[0].z)


@pytest.mark.parametrize(
    ("raw", "n", "expected"),
    [(None, 6, (1, False)), ("4", 6, (4, False)), (" 6 ", 6, (6, False)), ("7", 6, (1, True)),
     ("x", 6, (1, True)), ("1e3", 6, (1, True)), ("9" * 40, 6, (1, True))],
)  # fmt: skip
def test_parse_step(raw: str | None, n: int, expected: tuple[int, bool]) -> None:
    k, problem = present.parse_step(raw, n)
    assert (k, problem is not None) == expected
    if problem:
        assert len(problem) < 120  # a long link is cut short in the message


def test_a_projected_slide_has_no_toolbar_over_its_title() -> None:
    """Plotly's toolbar, shown while the pointer rests on a chart, covered a slide's title on
    the projector (issue 42, item 3): slides draw their chart without it."""
    import json

    at = open_present(PRESETS["cat_mat"].build(), step="3")
    assert_ok(at)
    charts = at.get("plotly_chart")
    assert charts
    for chart in charts:
        assert json.loads(chart.proto.config).get("displayModeBar") is False
