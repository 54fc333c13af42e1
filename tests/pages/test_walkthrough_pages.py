"""AppTest of the walkthrough: every page, every preset, figures equal the core's trace."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS, Scenario
from attention_ui.frame.pages import ALL_PAGES, BY_KEY, WALKTHROUGH
from attention_ui.frame.sidebar import SHARE_BOX
from tests.spec import cell_texts, chart_specs, grid_key, numeric

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_page(key: str, query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    if key != "start":
        at.switch_page(BY_KEY[key].path).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def plain(text: str) -> str:
    """Alert text without the backslashes that keep user text from acting as markdown."""
    return text.replace("\\", "").replace("\u2060", "")


def heatmap_z(at: AppTest, title_start: str) -> np.ndarray:
    for spec in chart_specs(at):
        title = spec["layout"].get("title", {}).get("text", "")
        if title.startswith(title_start) and spec["data"][0]["type"] == "heatmap":
            return numeric(spec["data"][0]["z"])
    titles = [s["layout"].get("title", {}).get("text") for s in chart_specs(at)]
    raise AssertionError(f"no heatmap titled {title_start!r}; have {titles}")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_page_runs_for_every_preset(preset: str) -> None:
    url = PRESETS[preset].build().to_url()
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["s"] = url
    at.run()
    for spec in ALL_PAGES:
        if spec.key != "start":
            at.switch_page(spec.path).run()
        assert not at.exception, (spec.key, [e.value for e in at.exception])
        assert at.title[0].value == spec.title


@pytest.mark.parametrize("preset", ["cat_mat", "hungry", "paper_toy"])
def test_figures_show_the_core_numbers(preset: str) -> None:
    s = PRESETS[preset].build()
    t = s.trace()
    q = {"s": s.to_url()}
    # The page computes the same trace from the same numbers and draws it as float64:
    # exactly equal.
    np.testing.assert_array_equal(heatmap_z(open_page("scores", q), "Raw scores"), t.scores)
    at = open_page("scaling", q)
    np.testing.assert_array_equal(heatmap_z(at, "Raw Q"), t.scores)
    np.testing.assert_array_equal(heatmap_z(at, "Q Kᵀ ×"), t.scaled_scores)
    np.testing.assert_array_equal(
        heatmap_z(open_page("softmax", q), "Attention weights"), t.weights
    )
    np.testing.assert_array_equal(heatmap_z(open_page("output", q), "Output"), t.output)


def test_hungry_numbers_on_screen() -> None:
    at = open_page("softmax", {"s": PRESETS["hungry"].build().to_url()})
    w = heatmap_z(at, "Attention weights")
    # the lesson's numbers: half a unit in the last printed digit (the output: at least)
    np.testing.assert_allclose(w[0], [0.844, 0.114, 0.042], atol=5e-4)
    at = open_page("output", {"s": PRESETS["hungry"].build().to_url()})
    np.testing.assert_allclose(heatmap_z(at, "Output"), [[2.41477, 3.93965]], atol=1e-5)


def test_softmax_row_table_shows_the_lessons_numbers() -> None:
    """The hungry lesson's first row, as text: weights 0.844, 0.114, 0.042 (hand-worked)."""
    at = open_page("softmax", {"s": PRESETS["hungry"].build().to_url()})
    table = at.table[0].value
    assert list(table.columns)[-1] == "weight"
    weights = table["weight"].astype(float)
    np.testing.assert_allclose(weights, [0.844, 0.114, 0.042], atol=5e-4)  # half a unit
    causal = PRESETS["cat_mat"].build().replace(mask_kind="causal")
    first_row = open_page("softmax", {"s": causal.to_url()}).table[0].value
    assert list(first_row["score"][1:]) == ["−∞"] * 5 and first_row["weight"].iloc[0] == "1"


def test_masked_cells_are_gaps_and_read_minus_infinity() -> None:
    s = PRESETS["cat_mat"].build().replace(mask_kind="causal")
    at = open_page("mask", {"s": s.to_url()})
    spec = next(sp for sp in chart_specs(at) if sp["layout"]["title"]["text"].startswith("Scaled"))
    z = numeric(spec["data"][0]["z"])
    assert np.isnan(z[0, 1:]).all() and np.isfinite(z[5]).all()
    assert cell_texts(spec["data"][0])[0][1] == "−∞"
    w = heatmap_z(open_page("softmax", {"s": s.to_url()}), "Attention weights")
    t = s.trace()
    assert np.all(t.weights[~t.mask] == 0.0)  # exactly 0 in the core, drawn as grey gaps
    np.testing.assert_array_equal(w, np.where(t.mask, t.weights, np.nan))  # the same trace


def test_grid_edit_on_inputs_updates_later_pages() -> None:
    at = open_page("inputs")
    key = grid_key(at, "X")
    at.session_state[key] = {"edited_rows": {1: {"e1": 5.0}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    expected = PRESETS["cat_mat"].build()
    X = expected.X.copy()
    X[1, 0] = 5.0
    t = expected.replace(X=X).trace()
    at.switch_page(BY_KEY["scores"].path).run()
    np.testing.assert_array_equal(heatmap_z(at, "Raw scores"), t.scores)  # the same trace
    assert at.session_state["scenario"].X[1, 0] == 5.0


def test_tokens_resize_grids_and_keep_numbers() -> None:
    at = open_page("inputs")
    at.text_input(key="tokens_text").input("the cat sat on the mat today").run()
    s = at.session_state["scenario"]
    assert s.tokens[-1] == "today" and s.X.shape == (7, 4)
    np.testing.assert_array_equal(s.X[:6], PRESETS["cat_mat"].build().X)
    np.testing.assert_array_equal(s.X[6], 0.0)


def test_bad_tokens_show_a_message_and_keep_the_last_valid_scenario() -> None:
    at = open_page("inputs")
    at.text_input(key="tokens_text").input(" , ,").run()
    assert not at.exception
    assert any("at least one token" in plain(e.value) for e in at.error)
    assert at.session_state["scenario"].tokens == PRESETS["cat_mat"].build().tokens
    at.switch_page(BY_KEY["softmax"].path).run()
    assert any("last valid scenario" in plain(w.value) for w in at.warning)


def test_bad_paste_names_row_and_column_and_keeps_other_inputs() -> None:
    at = open_page("inputs")
    at.text_area(key="paste_W_q").input("1 0 0\n0 1 x1\n0 0 1\n1 1 1")
    at.button(key="paste_btn_W_q").click().run()
    assert any("row 2, column 3: 'x1' is not a number" in plain(e.value) for e in at.error)
    assert at.text_input(key="tokens_text").value == "the cat sat on the mat"
    np.testing.assert_array_equal(at.session_state["scenario"].W_q, PRESETS["cat_mat"].build().W_q)


def test_a_pasted_shape_sets_the_sizes_and_the_others_follow() -> None:
    at = open_page("inputs")
    at.text_area(key="paste_W_k").input("1 0\n0 1\n1 1\n0 0")
    at.button(key="paste_btn_W_k").click().run()
    assert not at.error
    s = at.session_state["scenario"]
    np.testing.assert_array_equal(s.W_k, [[1, 0], [0, 1], [1, 1], [0, 0]])
    np.testing.assert_array_equal(s.W_q, PRESETS["cat_mat"].build().W_q[:, :2])  # d_k = 2
    assert s.trace().d_k == 2 and at.number_input(key="size_d_k").value == 2
    assert any("d_k = 2" in t.value for t in at.toast)
    at.text_area(key="paste_X").input("1 2 3\n4 5 6\n7 8 9\n1 0 0\n0 1 0\n0 0 1")
    at.button(key="paste_btn_X").click().run()  # 6 x 3: d_model becomes 3
    s = at.session_state["scenario"]
    assert s.X[0].tolist() == [1, 2, 3] and s.W_q.shape == (3, 2) and s.W_v.shape == (3, 4)


def test_url_round_trip_restores_the_scenario() -> None:
    s = PRESETS["quiz88"].build().replace(mask_kind="padding", n_valid=1, scaled=False)
    at = open_page("softmax", {"s": s.to_url()})
    assert at.session_state["scenario"] == s
    assert (
        Scenario.from_url(
            at.query_params["s"][0]
            if isinstance(at.query_params["s"], list)
            else at.query_params["s"]
        )
        == s
    )


def test_malformed_link_gives_a_message_and_the_default() -> None:
    at = open_page("scores", {"s": "v1.not-a-scenario"})
    assert any("could not be read" in plain(w.value) for w in at.warning)
    assert at.session_state["scenario"] == PRESETS["cat_mat"].build()


def test_scaling_toggle_changes_weights() -> None:
    at = open_page("scaling")
    at.toggle(key="scaled_toggle").set_value(False).run()
    t = PRESETS["cat_mat"].build().replace(scaled=False).trace()
    at.switch_page(BY_KEY["softmax"].path).run()
    np.testing.assert_array_equal(heatmap_z(at, "Attention weights"), t.weights)  # same trace


def test_causal_mask_from_the_mask_page() -> None:
    at = open_page("mask")
    at.radio(key="mask_kind").set_value("causal").run()
    assert at.session_state["scenario"].mask_kind == "causal"
    w = at.session_state["trace"].weights
    assert np.all(np.triu(w, 1) == 0.0)


def test_score_cell_breakdown_matches_the_core() -> None:
    at = open_page("scores")
    at.selectbox(key="scores_pick_q").set_value("sat").run()
    at.selectbox(key="scores_pick_k").set_value("cat").run()
    t = PRESETS["cat_mat"].build().trace()
    latex = [e.value for e in at.latex if "q_{3} \\cdot k_{2}" in e.value]
    assert latex and f"= {t.scores[2, 1]:.4g}\n" in latex[0]


def test_walkthrough_pages_link_in_order() -> None:
    at = open_page("projections")
    labels = [p.proto.label for p in at.get("page_link")]
    assert f"← {WALKTHROUGH[0].title}" in labels and f"{WALKTHROUGH[2].title} →" in labels


def test_hostile_tokens_are_shown_as_text() -> None:
    at = open_page("inputs")
    at.text_input(key="tokens_text").input(
        "<script>alert(1)</script> **bold** [x](javascript:y)"
    ).run()
    assert not at.exception
    s = at.session_state["scenario"]
    assert s.tokens[0] == "<script>alert(1)</script>"
    at.switch_page(BY_KEY["scores"].path).run()
    assert not at.exception
    spec = chart_specs(at)[0]
    assert spec["data"][0]["y"][0] == "&lt;script&gt;alert(1)&lt;/script&gt;"
    at.selectbox(key="scores_pick_q").set_value("**bold**").run()
    shown = [m.value for m in at.markdown if "Score of query" in m.value]
    assert shown == ["**Score of query \\*\\*bold\\*\\* against key " + shown[0].split("key ")[1]]


def test_a_static_table_shows_typed_tokens_as_text() -> None:
    """st.table renders each cell as Markdown: the Softmax page's step table once printed a
    token **bold** in bold and [x](y) as a link. Its row labels must come escaped."""
    tokens = ["**bold**", "[x](javascript:y)", "cat"]
    at = open_page("inputs")
    at.text_input(key="tokens_text").input(" ".join(tokens)).run()
    at.switch_page(BY_KEY["softmax"].path).run()
    assert not at.exception
    (table,) = [t for t in at.table if "weight" in list(t.value.columns)]
    assert list(table.value.index) == [r"\*\*bold\*\*", r"\[x\]\(javascript\:y\)", "cat"]
    assert list(table.value.columns)[:2] == ["score", r"e^score"]


def test_custom_mask_with_an_empty_row_gets_a_message() -> None:
    at = open_page("mask")
    at.radio(key="mask_kind").set_value("custom").run()
    key = f"mask_grid_{at.session_state['editor_gen']}"
    at.session_state[key] = {
        "edited_rows": {2: {label: False for label in PRESETS["cat_mat"].build().key_labels}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert any("row 3 of the mask allows no key" in plain(e.value) for e in at.error)
    assert at.session_state["scenario"].mask_kind == "custom"
    assert at.session_state["scenario"].custom_mask.all()  # the last valid mask is kept


def test_switching_to_direct_mode_keeps_q_k_v() -> None:
    at = open_page("inputs")
    t = PRESETS["cat_mat"].build().trace()
    at.radio(key="input_mode").set_value("direct").run()
    assert not at.exception
    s = at.session_state["scenario"]
    assert s.mode == "direct"
    np.testing.assert_array_equal(s.Q, t.Q)
    np.testing.assert_array_equal(s.trace().weights, t.weights)
    assert at.text_input(key="query_tokens_text").value == ""
    at.text_input(key="query_tokens_text").input("it").run()
    s = at.session_state["scenario"]
    assert s.queries == ("it",) and s.Q.shape == (1, 3)
    at.radio(key="input_mode").set_value("embeddings").run()
    s = at.session_state["scenario"]
    assert s.mode == "embeddings" and s.query_tokens is None
    np.testing.assert_array_equal(s.X, PRESETS["cat_mat"].build().X)


def test_changing_d_k_resizes_the_projections() -> None:
    at = open_page("inputs")
    at.number_input(key="size_d_k").set_value(5).run()
    s = at.session_state["scenario"]
    assert s.W_q.shape == (4, 5) and s.W_k.shape == (4, 5) and s.trace().d_k == 5
    np.testing.assert_array_equal(s.W_q[:, :3], PRESETS["cat_mat"].build().W_q)


def test_fill_buttons() -> None:
    at = open_page("inputs")
    at.button(key="fill_W_q_identity").click().run()
    np.testing.assert_array_equal(at.session_state["scenario"].W_q, np.eye(4, 3))
    at.button(key="fill_X_zeros").click().run()
    assert np.all(at.session_state["scenario"].trace().weights == 1 / 6)
    at.number_input(key="fill_seed").set_value(7).run()
    at.button(key="fill_X_random").click().run()
    first = at.session_state["scenario"].X
    at.button(key="fill_X_random").click().run()
    np.testing.assert_array_equal(at.session_state["scenario"].X, first)  # same seed, same fill
    assert np.all(np.round(first, 2) == first) and first.std() > 0.3


def test_preset_from_the_sidebar_replaces_the_scenario() -> None:
    at = open_page("softmax")
    at.selectbox(key="preset_choice").set_value("paper_toy").run()
    at.button(key="preset_choice_load").click().run()
    assert at.session_state["scenario"] == PRESETS["paper_toy"].build()
    # printed to 5 decimals; 1e-5 is at least half a unit
    np.testing.assert_allclose(heatmap_z(at, "Attention weights"), [[0.33023, 0.66977]], atol=1e-5)


def test_pasting_a_matrix_that_does_not_fit_gives_a_message_not_a_crash() -> None:
    at = open_page("inputs")
    at.text_area(key="paste_X").input("1 2 3 4\n5 6 7 8")
    at.button(key="paste_btn_X").click().run()
    assert not at.exception
    assert any("X has 2 rows but there are 6 tokens" in plain(e.value) for e in at.error)
    assert at.session_state["scenario"].X.shape == (6, 4)  # the last valid one is in use
    at.switch_page(BY_KEY["scores"].path).run()
    at.switch_page(BY_KEY["inputs"].path).run()
    assert not at.exception  # the draft (2 x 4) is still shown, with its message


def grid_edit(at: AppTest, name: str, row: int, col: str, value: object) -> None:
    key = grid_key(at, name)
    at.session_state[key] = {
        "edited_rows": {row: {col: value}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()


@pytest.mark.parametrize(("typed", "value"), [("1e3", 1000.0), ("\u22122", -2.0), ("2.5e-1", 0.25)])
def test_grid_cells_read_numbers_like_the_paste_box(typed: str, value: float) -> None:
    at = open_page("inputs")
    grid_edit(at, "X", 0, "e1", typed)
    assert not at.exception
    assert at.session_state["scenario"].X[0, 0] == value


@pytest.mark.parametrize(
    ("typed", "message"),
    [("1,5", "X row 1, column 2: '1,5' is not a number"),
     ("", "X row 1, column 2 is empty: type a number")],
)  # fmt: skip
def test_grid_cells_that_are_not_numbers_get_a_message(typed: str, message: str) -> None:
    at = open_page("inputs")
    grid_edit(at, "X", 0, "e2", typed)
    assert any(message in plain(e.value) for e in at.error)
    assert at.session_state["scenario"].X[0, 1] == 0.0  # unchanged


def test_untouched_cells_keep_their_exact_values() -> None:
    at = open_page("inputs")
    at.radio(key="input_mode").set_value("direct").run()
    Q = at.session_state["scenario"].Q.copy()
    grid_edit(at, "K", 0, "d1", "9")
    np.testing.assert_array_equal(at.session_state["scenario"].Q, Q)  # not rounded to 6 digits


def test_padding_mask_with_a_single_key() -> None:
    s = PRESETS["cat_mat"].build()
    one = s.replace(tokens=("solo",), X=s.X[:1], mask_kind="padding", n_valid=1)
    at = open_page("mask", {"s": one.to_url()})
    assert not at.exception
    assert any("nothing to pad" in c.value for c in at.caption)


def test_a_mask_problem_is_shown_on_the_inputs_page_too() -> None:
    at = open_page("mask")
    at.radio(key="mask_kind").set_value("causal").run()
    at.switch_page(BY_KEY["inputs"].path).run()
    at.radio(key="input_mode").set_value("direct").run()
    at.text_input(key="query_tokens_text").input("it").run()
    assert not at.exception
    assert any("causal mask needs as many queries as keys" in plain(e.value) for e in at.error)


def test_a_scenario_too_large_for_a_link_leaves_the_url_and_says_so() -> None:
    at = open_page("inputs")
    for dim in ("size_d_model", "size_d_k", "size_d_v"):
        at.number_input(key=dim).set_value(200).run()
    for name in ("X", "W_q", "W_k", "W_v"):
        at.button(key=f"fill_{name}_random").click().run()
    assert not at.exception
    assert len(at.session_state["scenario"].to_url()) > 100_000
    at.session_state[SHARE_BOX] = True  # the sidebar's "Share and export" says why
    at.run()
    assert "s" not in at.query_params
    assert any("too large for a link" in i.value for i in at.info)


def test_an_empty_scenario_parameter_is_not_an_error() -> None:
    at = open_page("scores", {"s": ""})
    assert not at.warning
    assert at.session_state["scenario"] == PRESETS["cat_mat"].build()


def test_an_unreadable_cell_that_is_dropped_is_reported() -> None:
    at = open_page("inputs")
    grid_edit(at, "X", 1, "e2", "abc")
    assert any("'abc' is not a number" in plain(e.value) for e in at.error)
    at.switch_page(BY_KEY["scores"].path).run()  # leaving Inputs drops the unreadable cell
    # the scenario in use is the draft without it, and the page says so (issue 34)
    (note,) = [plain(w.value) for w in at.warning]
    assert note.startswith("Not kept from your edits on Inputs: X row 2, column 2: 'abc'")
    at.switch_page(BY_KEY["inputs"].path).run()
    notes = [plain(w.value) for w in at.warning if w.value.startswith("Not kept")]
    assert notes == [
        "Not kept: X row 2, column 2: 'abc' is not a number. The cell shows its last number again."
    ]
    assert not at.error
    at.run()
    assert not [w for w in at.warning if w.value.startswith("Not kept")]  # said once
