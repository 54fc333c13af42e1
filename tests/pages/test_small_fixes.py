"""Issue 12's smaller things: names, −∞ in the softmax table, CSV digits, counts, hovers."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS
from attention_ui.draw import contrast
from attention_ui.draw import figures as fig
from attention_ui.draw.text import md_escape
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.sidebar import SHARE_BOX
from attention_ui.frame.widgets import csv_text
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels, contributions, softmax_table
from tests.spec import grid_key
from tests.tolerance import eps

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def inputs_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[SHARE_BOX] = True  # the sidebar's "Share and export", with the name box
    return at.run().switch_page(BY_KEY["inputs"].path).run()


def test_a_scenario_with_other_tokens_is_named_after_them() -> None:
    at = inputs_page()
    at.text_input(key="tokens_text").input("le chat est sur le tapis").run()
    assert at.session_state["scenario"].name == "le chat est sur le tapis"
    grid = grid_key(at, "X")
    at.session_state[grid] = {"edited_rows": {0: {"e1": 2.0}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert at.session_state["scenario"].name == "le chat est sur le tapis (edited)"


def test_numbers_only_edits_keep_the_name_marked_edited() -> None:
    at = inputs_page()
    at.number_input(key="size_d_k").set_value(4).run()
    assert at.session_state["scenario"].name == "The cat sat on the mat (edited)"


def test_the_teacher_can_name_the_scenario_and_edits_keep_it() -> None:
    at = inputs_page()
    at.text_input(key=name_key_of(at)).input("  Week 3: **French**  ").run()
    assert at.session_state["scenario"].name == "Week 3: **French**"
    at.text_input(key="tokens_text").input("le chat").run()
    s = at.session_state["scenario"]
    assert s.name == "Week 3: **French**" and s.tokens == ("le", "chat")
    shown = " ".join(m.value for m in at.sidebar.markdown)
    assert md_escape("Week 3: **French**") in shown  # inert, not bold
    assert at.query_params["s"] == s.to_url()  # the link carries the name


def name_key_of(at: AppTest) -> str:
    return next(t.key for t in at.text_input if (t.key or "").startswith("scenario_name_"))


def test_the_name_box_survives_page_switches_and_follows_loads() -> None:
    """The box re-sends its value when pages change: that must neither fail nor rename."""
    at = inputs_page()
    at.switch_page(BY_KEY["scores"].path).run()
    at.switch_page(BY_KEY["exercises"].path).run()
    assert not at.exception and not at.session_state["own_name"]
    at.selectbox(key="preset_choice").set_value("quiz88").run()
    at.button(key="preset_choice_load").click().run()
    assert at.text_input(key=name_key_of(at)).value == PRESETS["quiz88"].build().name


def test_the_softmax_table_writes_minus_infinity() -> None:
    s = PRESETS["cat_mat"].build().replace(mask_kind="causal")
    table = softmax_table(s.trace(), 0, s.key_labels)
    assert list(table["score"])[1:] == ["−∞"] * 5
    assert "Infinity" not in table.to_string()


def test_csv_has_no_rounding_noise_and_reads_back() -> None:
    values = np.array([[2.1 * 1.5, 1 / 3, -0.1 - 0.2, 1e-20, 123456.789]])
    text = csv_text(pd.DataFrame(values, index=["q"], columns=list("abcde")))
    assert "3.15," in text and "0000000004" not in text
    back = pd.read_csv(io.StringIO(text), index_col=0).to_numpy()
    # 15 significant digits: half a unit in the 15th (5e-15 relative), then read back (u)
    np.testing.assert_allclose(back, values, rtol=5e-15 + eps(np.float64) / 2, atol=0)


def test_one_query_is_one_query_in_the_lab() -> None:
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["s"] = PRESETS["paper_toy"].build().to_url()
    at.run()
    at.switch_page(BY_KEY["scaling-lab"].path).run()
    captions = " ".join(c.value for c in at.caption)
    assert "your 1 query:" in captions and "1 queries" not in captions


def test_the_scores_hover_shows_the_value() -> None:
    s = PRESETS["cat_mat"].build()
    t = s.trace()
    figure = sf.scores_figure(Labels.of(s), t, pick=(0, 0), clickable=True)
    cells = figure.data[0]  # the heatmap takes the hover itself (no click markers over it)
    assert "%{text}" in cells.hovertemplate
    assert contrast.plain(cells.text[0][1]) == fig.cell_texts(t.scores)[0][1]


def test_the_output_total_is_drawn_outside_the_plot_area_when_needed() -> None:
    s = PRESETS["cat_mat"].build()
    t = s.trace()
    bars = fig.contributions_bar(contributions(t, 0), t.weights[0], s.key_labels, "Output")
    total = bars.data[-1]
    assert total.cliponaxis is False and bars.layout.margin.t >= 80


def test_a_score_grid_says_how_to_read_it_on_each_screen() -> None:
    """A phone says Tap; a grid that does not print its numbers says where they are."""
    from attention_ui.views.stage_views import how_to_read

    assert how_to_read(True, False).startswith("Click a cell to see how its number is made")
    assert how_to_read(True, True).startswith("Tap a cell to see how its number is made")
    on_phone = how_to_read(False, True)
    assert "tap a cell for its score" in on_phone and "Numbers table" in on_phone
    assert "Click" not in on_phone
    assert "hover over a cell" in how_to_read(False, False)
