"""A live class with phones in several languages (issue 36): all follow the teacher's steps,
each in its own language, and the teacher's tally is the one an all-English class gives.

AppTest sessions of one app sharing a real SQLite store, as tests/live/test_live_pages.py.
"""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from tests.i18n.live import open_app, store  # noqa: F401 (store: the rooms' fixture)
from tests.i18n.pages import shown_text

PRESENT = BY_KEY["present"].path
CONSOLE = BY_KEY["console"].path
STEP = {"en": "Step {k} of", "es": "Paso {k} de", "de": "Schritt {k} von", "zh": "第 {k} 步"}


app = open_app


def step_text(at: AppTest) -> str:
    return next(p.text for p in at.get("progress"))


def lesson(langs: tuple[str, ...], answers: tuple[str, ...]) -> dict[str, int]:
    """An English teacher's class: a phone per language, stepping to the third slide, then
    the question "the weight sat -> cat" answered as ``answers``; the teacher's tally."""
    teacher = app({}).switch_page(PRESENT).run()
    teacher.button(key="live_start").click().run()
    seat = teacher.session_state[keys.LIVE]
    phones = [app({"join": seat.code, "lang": lang}) for lang in langs]
    for k in (2, 3):
        teacher.button(key="present_next").click().run()
        for lang, phone in zip(langs, phones, strict=True):
            phone.run()  # the poll's rerun
            assert not phone.exception, [e.value for e in phone.exception]
            assert STEP[lang].format(k=k) in step_text(phone), (lang, step_text(phone))
            assert phone.session_state[keys.LANGUAGE] == lang  # the room did not change it
            assert phone.query_params.get("lang", "en") == lang
    assert "Step 3 of" in step_text(teacher)  # the teacher's own page stays English
    console = app({"teach": f"{seat.code}.{seat.secret}"}).switch_page(CONSOLE).run()
    console.selectbox(key="live_ask_stage").set_value("weights")
    console.selectbox(key="live_ask_q").set_value(2)  # sat
    console.selectbox(key="live_ask_k").set_value(1)  # cat
    console.radio(key="live_ask_feedback").set_value("reveal")
    console.button(key="live_ask").click().run()
    for phone, text in zip(phones, answers, strict=True):
        phone.run()
        phone.text_input(key="live_answer").set_value(text)
        phone.button(key="live_answer_send").click().run()
        assert not phone.exception, [e.value for e in phone.exception]
    console.run()
    chart = [c for c in console.get("plotly_chart") if "answered" in c.proto.spec]
    bars = json.loads(chart[0].proto.spec)["data"][0]
    return dict(zip(bars["y"], bars["x"], strict=True))


def test_phones_in_three_languages_follow_and_are_tallied_as_in_english() -> None:
    answers = ("0.42", "0.56", "0.42")  # right, the unscaled slip, right
    mixed = lesson(("es", "de", "zh"), answers)
    english = lesson(("en", "en", "en"), answers)
    assert mixed == english
    assert mixed["right"] == 2 and mixed["used the unscaled scores in softmax"] == 1


# The notices a phone shows when the teacher pauses and ends the class: the room holds a
# flag (paused) or nothing at all (ended), never a sentence, so each phone says it in its own
# language, whatever the teacher's is.
PAUSED = {"en": "Eyes on the screen", "de": "Alle Augen nach vorn", "zh": "请看屏幕"}
ENDED = {"en": "The live class has ended.", "de": "Die Live-Stunde ist beendet.",
         "zh": "实时课堂已结束。"}  # fmt: skip


def test_pause_and_end_are_said_on_each_phone_in_its_own_language() -> None:
    teacher = app({"lang": "es"}).switch_page(PRESENT).run()  # a Spanish teacher
    teacher.button(key="live_start").click().run()
    seat = teacher.session_state[keys.LIVE]
    phones = {lang: app({"join": seat.code, "lang": lang}) for lang in ("de", "zh")}
    console = app({"teach": f"{seat.code}.{seat.secret}", "lang": "es"})
    console.switch_page(CONSOLE).run()
    console.button(key="live_pause_btn").click().run()
    for lang, phone in phones.items():
        phone.run()  # the poll's rerun
        shown = shown_text(phone)
        assert PAUSED[lang] in shown, (lang, shown)
        assert all(PAUSED[other] not in shown for other in PAUSED if other != lang)
    console.button(key="live_end").click().run()
    for lang, phone in phones.items():
        phone.run()
        toasts = [t.value for t in phone.toast]
        assert toasts == [ENDED[lang]], (lang, toasts)
        assert phone.session_state[keys.LIVE] is None and phone.query_params["lang"] == lang
