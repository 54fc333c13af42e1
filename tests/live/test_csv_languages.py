"""The class's two CSV files in the language of the teacher who downloads them (issue 42,
item 5): header, verdicts and statuses in that language, exercises and steps by the titles
the dashboard shows (never their ids), and a UTF-8 byte order mark, so that a spreadsheet
opens a nickname like "小明" as it was typed. The store keeps ids; only the export names them.

Expected words are the catalogue's, written out here by hand, never read from the code."""

from __future__ import annotations

import csv
import io
import time

import pytest

from attention_ui.classroom.pace import CHECK, SOLVED, Event, Practice, SeatInfo, board
from attention_ui.classroom.pace import csv_text as session_csv
from attention_ui.classroom.questions import Question, Tally
from attention_ui.classroom.questions import csv_text as results_csv
from tests.i18n.test_catalogues import speaking

SESSION = {
    "de": (["Platz", "Übung", "Schritt", "Ergebnis", "typischer Fehler", "Versuche", "Sekunden"],
           "richtig", "falsch", "Lösung angezeigt"),
    "zh": (["座位", "练习", "步", "结果", "常见错误", "尝试次数", "秒"],
           "正确", "错误", "已看解答"),
    "es": (["puesto", "ejercicio", "paso", "resultado", "error habitual", "intentos", "segundos"],
           "correcto", "incorrecto", "solución mostrada"),
    "fr": (["place", "exercice", "étape", "verdict", "erreur courante", "tentatives", "secondes"],
           "juste", "faux", "solution affichée"),
}  # fmt: skip
RESULTS = {
    "de": ["Frage", "Wert", "Ergebnis", "typischer Fehler", "Sekunden nach der Frage"],
    "zh": ["问题", "值", "结果", "常见错误", "提问后秒数"],
}


def _rows(text: str) -> list[list[str]]:
    """The file as a spreadsheet reads it: bytes, the BOM says UTF-8."""
    data = text.encode("utf-8")
    assert data.startswith(b"\xef\xbb\xbf"), data[:8]
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def _check(n: int, step: str, ok: bool, slip: str | None, at: float) -> Event:
    return Event(f"e{n}", CHECK, "hungry", step, ok, slip, at)


@pytest.mark.parametrize("lang", sorted(SESSION))
def test_the_session_csv_is_in_the_downloaders_language(lang: str) -> None:
    header, right, wrong, shown = SESSION[lang]
    ming, seat2 = SeatInfo("ka", 1, "小明", 0.0), SeatInfo("kb", 2, "", 0.0)
    work = {"ka": [_check(1, "scaled", True, None, 30.0),
                   _check(2, "weights", False, "softmax_unscaled", 60.0)],
            "kb": [_check(3, "scaled", True, None, 10.0),
                   Event("e4", SOLVED, "hungry", "", at=90.0)]}  # fmt: skip
    with speaking(lang):
        b = board([ming, seat2], work, Practice(("hungry",)), time.time())
        seat = {"de": "Platz 2", "zh": "2 号座位"}.get(lang)
        rows = _rows(session_csv(b))
        title = {"de": "2 · „it was hungry“", "zh": "2 · “it was hungry”"}.get(lang)
    assert rows[0] == header
    assert [r[0] for r in rows[1:3]] == ["小明"] * 2  # the nickname as typed
    assert [r[3] for r in rows[1:]] == [right, wrong, right, shown, shown]
    assert rows[3][0] != "Seat 2" and (seat is None or rows[3][0] == seat)
    for r in rows[1:]:  # titles, not the ids hungry / scaled / weights / output
        assert r[1] != "hungry" and "hungry" in r[1] and r[2] not in ("scaled", "weights")
        if title:
            assert r[1] == title
    english = {"seat", "exercise", "right", "wrong", "solution shown", "attempts"}  # fr: verdict
    assert not english & {cell for row in rows for cell in row}


@pytest.mark.parametrize("lang", sorted(RESULTS))
def test_the_question_results_csv_is_in_the_downloaders_language(lang: str) -> None:
    answers = [{"v": 0.42, "ok": True, "slip": None, "t": 3.5},
               {"v": 0.56, "ok": False, "slip": "softmax_unscaled", "t": 5.0}]  # fmt: skip
    tally = Tally(2, 1, {}, answers)
    q = Question("q1", "weights", 0, 1, "reveal", False, 0.0)
    with speaking(lang):
        rows = _rows(results_csv(q, tally, "sat → cat"))
    assert rows[0] == RESULTS[lang]
    assert [r[2] for r in rows[1:]] == [SESSION[lang][1], SESSION[lang][2]]
    assert rows[2][3] not in ("", "softmax_unscaled", "used the unscaled scores in softmax")
