"""The Training lab, the editor's input errors and the frame's notices in a language (issue 36).

``test_nothing_left`` sees each page as it opens; these are the states it does not see: a run
in progress, a run stopped, a step opened in the walkthrough, a token list or a pasted matrix
the core could not read (its message is the core's template, translated by the UI), a bad
cell put back, a link that could not be read, an example loaded and undone. Each asserts the
translated text and the absence of the English, and no traceback.
"""

from __future__ import annotations

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from attention_core import InputError, Scenario, parse_matrix, parse_tokens
from attention_core.training import TrainSettings
from attention_ui import i18n
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from attention_ui.i18n.texts import tr
from attention_ui.training_lab import lab, runs
from tests.i18n.pages import english_pieces
from tests.pages.lab_pages import chart, open_lab, texts
from tests.spec import grid_key

TRAINING, INPUTS, SCORES = (BY_KEY[k].path for k in ("training", "inputs", "scores"))


def app(code: str, page: str, query: dict[str, str] | None = None,
        session: dict | None = None) -> AppTest:  # fmt: skip
    """The app in language ``code`` at ``page``, without an exception."""
    return open_lab(page, {"lang": code, **(query or {})}, session)


def shown(at: AppTest) -> str:
    """``texts`` and every widget's label and the sidebar's notices, one text."""
    labels = [w.label for w in (*at.button, *at.text_input, *at.slider, *at.select_slider)]
    sidebar = [str(e.value) for e in (*at.sidebar.warning, *at.sidebar.error)]
    notices = [str(e.value) for e in at.success]
    return "\n".join([texts(at), *labels, *sidebar, *notices]).replace("\\", "")


def errors(at: AppTest) -> list[str]:
    return [str(e.value).replace("\\", "") for e in at.error]


# ---- the Training lab ----------------------------------------------------------------------
def test_the_lab_in_german_its_settings_captions_and_charts() -> None:
    at = app("de", TRAINING)
    said = shown(at)
    assert "Nach 200 Schritten: ohne Skalierung Loss" in said
    assert "After 200 steps" not in said
    assert "Warum der Loss auf der Ausgabe liegt" in [h.value for h in at.header]
    assert at.selectbox(key=keys.TR_TASK).label == "Aufgabe"
    assert at.selectbox(key=keys.TR_TASK).format_func("previous").startswith("Vorheriges Token")
    assert at.button(key="tr_open_True").label == "Mit 1/√d_k öffnen"
    loss = chart(at, "Loss (quadratischer Ausgabefehler)")
    assert [t["name"] for t in loss["data"]] == ["ohne Skalierung", "mit 1/√d_k"]
    assert loss["layout"]["xaxis"]["title"]["text"] == "Trainingsschritt"
    assert "Schritt %{x}" in loss["data"][0]["hovertemplate"]
    chart(at, "Ohne Skalierung: Gewichte bei Schritt 200", exact=True)
    chart(at, "Größtes Gewicht pro Zeile, Schritt 200", exact=True)
    grad = chart(at, "Gradient zu W_Q und W_K")
    assert grad["data"][0]["name"] == "W_Q, ohne Skalierung"


def test_a_run_in_progress_speaks_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page as it is while training: its progress bar and Stop button (the run is cut
    after its first piece, as a click on Stop cuts it in a browser)."""
    step, calls = runs.Job.step, []

    def one_piece(job: runs.Job, k: int | None = None) -> int:
        calls.append(k)
        if len(calls) > 1:  # the bar has shown the first piece: the run ends here, and what
            st.stop()  # it drew so far stays on the page
        return step(job, k)

    monkeypatch.setattr(runs.Job, "step", one_piece)
    at = app("zh", TRAINING, query={keys.TR_STEPS: "50", keys.TR_SEED: "911"})
    bar = at.get("progress")[0].proto
    assert bar.text == "正在训练两次运行：第 0 步，共 50 步", bar.text  # a piece: to a kept step
    assert "Training both runs" not in bar.text
    assert at.button(key="tr_stop").label == "停止"


def test_a_stopped_run_says_so_in_german() -> None:
    s = TrainSettings(steps=100, seed=912)
    lab.jobs().get(s).step(41)  # steps 0..40 trained, then Stop
    at = app("de", TRAINING, query={keys.TR_STEPS: "100", keys.TR_SEED: "912"},
             session={keys.TR_STOPPED: s})  # fmt: skip
    said = shown(at)
    assert "Angehalten bei Schritt 40 von 100" in said, said
    assert "Stopped at step" not in said
    assert at.button(key="tr_train_on").label == "Weiter trainieren"
    chart(at, "Ohne Skalierung: Gewichte bei Schritt 40", exact=True)


def test_a_step_opened_in_the_walkthrough_says_so_in_spanish() -> None:
    at = app("es", TRAINING, query={keys.TR_STEPS: "50", keys.TR_STEP: "10"})
    at.button(key="tr_open_True").click().run()
    assert not at.exception
    said = shown(at)
    assert "El ejemplo del laboratorio de entrenamiento en el paso 10" in said, said
    assert "is now your scenario" not in said
    name = at.session_state[keys.SCENARIO].name
    assert name == "Laboratorio de entrenamiento: match, d_k 256, con escalado, paso 10"


# ---- the core's input errors, translated where the editor shows them ------------------------
BAD_TOKENS = {
    "de": "gib mindestens ein Token ein (Wörter, durch Leerzeichen getrennt)",
    "zh": "请至少输入一个词元（用空格分隔的单词）",
}
BAD_PASTE = {
    "de": "X: Zeile 1, Spalte 2: 'x' ist keine Zahl",
    "zh": "X：第 1 行第 2 列：“x” 不是数字",
}


@pytest.mark.parametrize("code", ["de", "zh"])
def test_bad_tokens_and_a_bad_paste_show_the_translated_message(code: str) -> None:
    at = app(code, INPUTS)
    before = at.session_state[keys.DRAFT]
    at.text_input(key="tokens_text").set_value("  ").run()
    assert not at.exception
    assert BAD_TOKENS[code] in errors(at), errors(at)
    assert not any("type at least one token" in e for e in errors(at))
    assert at.text_input(key="tokens_text").value == "  "  # the text kept, to fix
    at.text_area(key="paste_X").set_value("1, x").run()
    at.button(key="paste_btn_X").click().run()
    assert not at.exception
    assert BAD_PASTE[code] in errors(at), errors(at)
    assert not any("is not a number" in e for e in errors(at))
    assert at.text_area(key="paste_X").value == "1, x"  # kept too
    draft = at.session_state[keys.DRAFT]
    assert draft.tokens == before.tokens  # the other inputs as they were
    np.testing.assert_array_equal(draft.X, before.X)


def test_another_page_says_what_is_wrong_with_the_edit_in_german() -> None:
    at = app("de", INPUTS)
    at.text_input(key="tokens_text").set_value("").run()
    at.switch_page(SCORES).run()
    assert not at.exception
    notice = " ".join(str(w.value) for w in at.warning).replace("\\", "")
    assert "Deine letzte Änderung hat ein Problem" in notice, notice
    assert "gib mindestens ein Token ein" in notice
    assert "type at least one" not in notice


def test_a_cell_put_back_says_so_in_chinese() -> None:
    at = app("zh", INPUTS)
    grid = grid_key(at, "W_k")
    at.session_state[grid] = {"edited_rows": {0: {"d1": "abc"}}, "added_rows": [],
                              "deleted_rows": []}  # fmt: skip
    at.run()
    assert "W_k 第 1 行第 1 列：“abc” 不是数字" in errors(at), errors(at)
    at.switch_page(SCORES).run()  # leaving Inputs puts the cell back: the page says so
    notice = " ".join(str(w.value) for w in at.warning).replace("\\", "")
    assert "“abc” 不是数字" in notice, notice
    assert "is not a number" not in notice


def test_a_link_that_cannot_be_read_says_so_in_french() -> None:
    at = app("fr", SCORES, query={keys.URL_KEY: "v1.not-a-scenario"})
    warning = " ".join(str(w.value) for w in at.sidebar.warning).replace("\\", "")
    assert "le scénario de ce lien n'a pas pu être lu" in warning, warning
    assert "could not be read" not in warning


# ---- the editor's states and the sidebar, English against German -------------------------
def editor_states(code: str) -> dict[str, AppTest]:
    """The Inputs page open (the sidebar's Share and export open, a short link made), with
    an error, after an example is loaded, after Undo."""
    out = {}
    at = app(code, INPUTS)
    at.session_state["share_export"] = True  # the sidebar's Share and export, open
    at.run()
    at.sidebar.button(key="short_link_make").click().run()
    assert at.sidebar.text_input(key="scenario_name_" + str(at.session_state["editor_gen"]))
    out["open"] = english_pieces(at)
    at.text_input(key="tokens_text").set_value("").run()
    out["error"] = english_pieces(at)
    at.sidebar.selectbox(key="preset_choice").set_value("hungry").run()
    at.sidebar.button(key="preset_choice_load").click().run()
    assert not at.exception
    out["loaded"] = english_pieces(at)
    at.sidebar.button(key="undo_replace").click().run()
    assert not at.exception
    out["undone"] = english_pieces(at)
    return out


def test_the_editor_and_sidebar_states_leave_no_english_in_german() -> None:
    english, german = editor_states("en"), editor_states("de")
    assert len(english["error"]) >= 3  # the probe sees the page's English at all
    left = {state: sorted(english[state] & german[state]) for state in english}
    assert all(not v for v in left.values()), left


# ---- the one place a core message is translated ----------------------------------------------
def test_said_translates_a_core_message_with_its_values_and_keeps_the_english() -> None:
    with pytest.raises(InputError) as err:
        parse_matrix("1, 2\n3", "K")
    assert err.value.message == (
        "K: row 2 has 1 number but row 1 has 2 numbers: every row needs the same number of columns"
    )  # the English rendering, for logs and the tests that read it
    before = i18n._source[0]
    i18n.set_language_source(lambda: "fr")
    try:
        assert tr(err.value) == (
            "K\u00a0: la ligne 2 a 1 nombre mais la ligne 1 en a 2 nombres\u00a0: toutes les "
            "lignes doivent avoir le même nombre de colonnes"
        )
        with pytest.raises(InputError) as err:
            parse_tokens("")
        assert tr(err.value) == "saisissez au moins un token (des mots séparés par des espaces)"
        with pytest.raises(InputError) as err:
            Scenario.from_url("v1.!!")
        assert tr(err.value).startswith("le scénario de ce lien n'a pas pu être lu")
    finally:
        i18n.set_language_source(before)


def test_an_edited_example_is_named_in_the_language_in_the_sidebar() -> None:
    """The name travels in links as the app writes it ("... (edited)"); the sidebar shows
    the example's title and the mark in the session's language."""
    at = app("de", INPUTS)
    grid = grid_key(at, "W_k")
    at.session_state[grid] = {"edited_rows": {0: {"d1": "0.5"}}, "added_rows": [],
                              "deleted_rows": []}  # fmt: skip
    at.run()
    assert at.session_state[keys.SCENARIO].name == "The cat sat on the mat (edited)"
    sidebar = " ".join(str(m.value) for m in at.sidebar.markdown).replace("\\", "")
    assert "Die Katze auf der Matte (The cat sat on the mat) (bearbeitet)" in sidebar, sidebar
    assert "(edited)" not in sidebar


# ---- issue 41: a seed out of range and numbers beyond float64, in the learner's language ----
def test_a_seed_out_of_range_says_its_range_in_chinese() -> None:
    at = app("zh", TRAINING, query={keys.TR_DK: "8", keys.TR_STEPS: "50", keys.TR_SEED: "5000"})
    said = " ".join(errors(at))
    assert "种子必须是 0 到 1000 之间的整数；5000 超出了这个范围" in said, said
    assert "the seed must" not in said.lower() and not at.get("plotly_chart")


def test_a_link_whose_scores_overflow_says_why_in_french() -> None:
    """A scenario in the address with 1e308 in a query: refused, said in French."""
    Q, K = np.array([[1e308, 1.0], [1.0, 1.0]]), np.array([[1.0, 1.0], [10.0, 1.0]])
    d = Scenario(tokens=("chat", "assis"), mode="direct", Q=np.eye(2), K=K,
                 V=np.eye(2)).to_dict()  # fmt: skip
    d["matrices"]["Q"] = Q.tolist()
    import base64
    import json
    import zlib

    raw = zlib.compress(json.dumps(d, separators=(",", ":")).encode(), 9)
    link = "v1." + base64.urlsafe_b64encode(raw).decode().rstrip("=")
    at = app("fr", SCORES, query={"s": link})
    said = shown(at) + " ".join(errors(at))
    assert "les scores débordent\u00a0: q·k pour (chat, assis) est supérieur à 1.8e+308" in said, (
        said[-600:]
    )
    assert "the scores overflow" not in said
