"""The Exercises page keeps a learner's work (issue 41, defect 4), through AppTest over real
stores: each change is written to the store under the browser's id (its record holds ids and
numbers), a record or a downloaded file loads back in another language, a bad file changes
nothing, Forget deletes the record, and a store outage is said and caught up. A reload and a
restarted browser (the cookie) are the browser journey's: tests/e2e/test_learner_work_browser.py."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention_core.exercises import Status, all_exercises, exercise_by_id
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from attention_ui.practice import kept
from attention_ui.storage.store import SqliteStore
from tests.pages.test_exercises_page import answer, progress_text, record

STEPS = sum(len(ex.steps) for ex in all_exercises())  # every step of the catalogue

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TOY = exercise_by_id("paper_toy")
ENTRY = {"exercise", "step", "status", "attempts", "mistake", "answer", "solution_shown", "hints"}


def open_in(lang: str, store_url: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("LIVE_STORE", store_url)
    kept._store.clear()  # the process's store for this setting, fresh
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["lang"] = lang
    at.run().switch_page(BY_KEY["exercises"].path).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def kept_record(at: AppTest, path: Path) -> dict | None:
    raw = SqliteStore(path).get(f"work:{at.session_state[keys.PRACTICE_KEPT]['id']}")
    return None if raw is None else json.loads(raw)


def work_in_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[AppTest, dict]:
    at = open_in("fr", f"sqlite://{tmp_path / 'live.db'}", monkeypatch)
    answer(at, TOY, TOY.step("scores"), "1, 2")  # right: the paper guide's Q Kᵀ
    answer(at, TOY, TOY.step("scaled"), "1, 2")  # wrong: forgot to scale
    # a choice is kept as its letter: the browser journey checks one in French (AppTest
    # formats a radio's options in the test's language, not the page's)
    doc = kept_record(at, tmp_path / "live.db")
    assert doc is not None, "nothing was kept"
    return at, doc


def test_each_check_is_kept_as_ids_and_numbers(tmp_path: Path, monkeypatch) -> None:
    _, doc = work_in_french(tmp_path, monkeypatch)
    rows = {(r["exercise"], r["step"]): r for r in doc["steps"]}
    assert all(set(r) == ENTRY for r in doc["steps"])  # no title beside the ids
    assert (rows[("paper_toy", "scores")]["status"], rows[("paper_toy", "scores")]["answer"]) == (
        "right", "1, 2"
    )  # fmt: skip
    assert rows[("paper_toy", "scaled")]["mistake"] == "unscaled"  # the slip's id, not "oubli…"
    assert doc["summary"]["right"] == 1


def test_kept_work_loads_in_german_and_a_bad_file_changes_nothing(tmp_path, monkeypatch) -> None:
    _, doc = work_in_french(tmp_path, monkeypatch)
    de = open_in("de", f"sqlite://{tmp_path / 'live.db'}", monkeypatch)
    answer(de, TOY, TOY.step("output"), "16.698")  # this session's own work: 1 right
    for bad in (b"not json", b'{"s": "v1.abc"}', json.dumps({**doc, "version": 7}).encode()):
        de.file_uploader(key=keys.PRACTICE_UPLOAD).set_value(("x.json", bad, "application/json"))
        de.run()
        assert not de.exception
        assert de.error and f"1 von {STEPS}" in progress_text(de), progress_text(
            de
        )  # kept as it was
        assert record(de, TOY, "output").status is Status.RIGHT
        assert set(de.session_state[keys.PRACTICE_PROGRESS]["paper_toy"]) == {"output"}
    good = json.dumps(doc).encode()
    de.file_uploader(key=keys.PRACTICE_UPLOAD).set_value(("p.json", good, "application/json"))
    de.run()
    assert not de.exception and de.success
    assert f"1 von {STEPS}" in progress_text(de)  # the French work, in German
    assert record(de, TOY, "scaled").mistake == "unscaled"
    assert de.text_input(key="ex_paper_toy_scores").value == "1, 2"  # the box shows it again
    assert "output" not in de.session_state[keys.PRACTICE_PROGRESS]["paper_toy"]  # replaced


def test_forget_deletes_the_record_and_the_page_s_work(tmp_path, monkeypatch) -> None:
    at, _ = work_in_french(tmp_path, monkeypatch)
    before = at.session_state[keys.PRACTICE_KEPT]["id"]
    at.button(key="practice_forget").click().run()
    assert not at.exception and at.session_state[keys.PRACTICE_KEPT]["id"] is None
    assert SqliteStore(tmp_path / "live.db").get(f"work:{before}") is None
    assert not any(at.session_state[keys.PRACTICE_PROGRESS].values())


def test_a_store_outage_is_said_and_the_work_is_saved_when_it_returns(
    redis_server, monkeypatch
) -> None:
    at = open_in("en", redis_server.url, monkeypatch)
    answer(at, TOY, TOY.step("scores"), "1, 2")
    redis_server.stop()
    answer(at, TOY, TOY.step("scaled"), "0.7071, 1.4142")
    assert any("Not saved yet" in w.value for w in at.warning)
    assert f"2 of {STEPS}" in progress_text(at)  # the session's work goes on
    redis_server.start()
    time.sleep(kept.store().PAUSE_S)  # type: ignore[attr-defined]  (the client's pause)
    at.run()
    assert not any("Not saved yet" in w.value for w in at.warning)
    saved = json.loads(kept.store().get(f"work:{at.session_state[keys.PRACTICE_KEPT]['id']}"))
    assert saved["summary"]["right"] == 2
