"""A live class's own words in a language (issue 36), in the states test_nothing_left never
sees (it renders each page with no class running): the projector's join screen and strip,
the bar of a page the class follows, a phone following, a question asked, answered and
revealed, the teacher's console with its chart, and a class at its own pace.

Each state in German (the projector also in Chinese): the language's words are there, and no
run of English words is shown in both the language and English (``english_pieces``): not the
live class's, nor the exercises' own (a question, a verdict, a slip), only what a learner
typed. AppTest sessions share a real SQLite store, as tests/live/test_live_pages.py.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from tests.i18n.live import open_app, store  # noqa: F401 (store: the rooms' fixture)
from tests.i18n.pages import english_pieces, shown_text

PRESENT, CONSOLE = BY_KEY["present"].path, BY_KEY["console"].path
UNSCALED = "0.56"  # the weight sat -> cat with the unscaled scores: a named slip


def app(query: dict[str, str]) -> AppTest:
    return ok(open_app(query))


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


class Seen:
    """What a run of the class showed in one language, state by state: its text and its runs
    of English-looking words."""

    def __init__(self) -> None:
        self.text: dict[str, str] = {}
        self.pieces: dict[str, set[str]] = {}

    def __call__(self, name: str, at: AppTest) -> None:
        self.text[name], self.pieces[name] = shown_text(at), english_pieces(at)


def english_left(en: Seen, other: Seen) -> dict[str, set[str]]:
    """Per state, the runs of English words shown in both languages: a string not wrapped
    (a German "in einem neuen Tab" is not English, and the intersection with the English
    run says so). The exercises' own text (a question, a verdict, a slip) counts too."""
    left = {}
    for name, pieces in other.pieces.items():
        assert len(en.pieces[name]) >= 2, (name, en.pieces[name])  # the probe sees English
        left[name] = pieces & en.pieces[name]
    return {name: found for name, found in left.items() if found}


def says(seen: Seen, name: str, *texts: str) -> None:
    missing = [t for t in texts if t not in seen.text[name]]
    assert not missing, (name, missing, seen.text[name][:3000])


def lesson(lang: str) -> Seen:
    """A class in ``lang`` (teacher, console and a phone): the join screen, the strip, a
    phone following, the console, a question asked, answered (the unscaled slip), tallied
    and revealed. Returns what each state showed."""
    seen, q = Seen(), {"lang": lang}
    teacher = app(q).switch_page(PRESENT).run()
    ok(teacher.button(key="live_start").click().run())
    s = teacher.session_state[keys.LIVE]
    seen("join screen", teacher)
    ok(teacher.button(key="live_join_hide").click().run())
    phone = app({"join": s.code, **q})
    seen("phone follows", phone)
    seen("strip", ok(teacher.run()))
    console = app({"teach": f"{s.code}.{s.secret}", **q})
    seen("console", ok(console.switch_page(CONSOLE).run()))
    console.selectbox(key="live_ask_stage").set_value("weights")
    console.selectbox(key="live_ask_q").set_value(2)  # sat
    console.selectbox(key="live_ask_k").set_value(1)  # cat
    console.radio(key="live_ask_feedback").set_value("reveal")
    ok(console.button(key="live_ask").click().run())
    seen("phone asked", ok(phone.run()))  # the poll's rerun: the question's card
    phone.text_input(key="live_answer").set_value(UNSCALED)
    seen("phone answered", ok(phone.button(key="live_answer_send").click().run()))
    seen("console tally", ok(console.run()))
    seen("projector card", ok(teacher.run()))
    ok(console.button(key="live_reveal").click().run())
    seen("phone revealed", ok(phone.run()))
    seen("console revealed", ok(console.run()))
    return seen


def test_the_projector_a_phone_and_the_console_in_german_through_a_question() -> None:
    en, de = lesson("en"), lesson("de")
    assert english_left(en, de) == {}
    code = de.text["join screen"].split('aria-label="Code ')[1][:9]  # "K 7 M Q 4"
    says(de, "join screen", "Beitreten unter", "mit dem Code", "Stunde beginnen")
    assert len(code.split()) == 5
    says(de, "phone follows", "du folgst der Lehrkraft", "Selbst erkunden")
    says(de, "strip", "Personen folgen. Drücke, um den Beitrittsbildschirm zu zeigen.")
    says(de, "console", "Die Klasse fragen", "Pause: alle Augen nach vorn", "Stunde beenden",
         "Die Klasse ist auf **Präsentationsmodus**, Schritt 1 von")  # fmt: skip
    says(de, "phone asked", "**Frage an die Klasse.**", "Deine Antwort", "Senden")
    says(de, "phone answered", "Deine Antwort: **0\\.56**", "Gesendet: Deine erste Antwort zählt.")
    says(
        de,
        "console tally",
        "**Frage:**",
        "Auflösen",
        "Frage schließen",
        "Ergebnisse (CSV)",
        "1 von ",
        "hat geantwortet",
        "richtig",
        "Lernende",
    )  # the chart: title, bar, axis
    says(de, "projector card", "Antworten: 1 von ")
    says(de, "phone revealed", "Die Antwort: **0.42**")


def projector_elsewhere(lang: str) -> Seen:
    seen = Seen()
    teacher = app({"lang": lang}).switch_page(PRESENT).run()
    ok(teacher.button(key="live_start").click().run())
    ok(teacher.button(key="live_join_hide").click().run())
    seen("teacher bar", ok(teacher.switch_page(BY_KEY["softmax"].path).run()))
    return seen


def test_the_projector_in_chinese_leads_from_another_page() -> None:
    en, zh = projector_elsewhere("en"), projector_elsewhere("zh")
    assert english_left(en, zh) == {}
    says(zh, "teacher bar", "全班跟随你来到此页", "加入界面", "教师控制台", "0 名学生跟随中")


def practice(lang: str) -> Seen:
    """A class at its own pace: a phone takes a seat and a nickname and checks a step (the
    unscaled slip), a second seat joins; the console's dashboard counts them."""
    seen, q = Seen(), {"lang": lang}
    console = app(q).switch_page(CONSOLE).run()
    ok(console.button(key="live_start").click().run())
    console.multiselect(key="pace_pick").set_value(["hungry"])
    ok(console.button(key="pace_start").click().run())
    code = console.session_state[keys.LIVE].code
    phone = app({"join": code, **q})  # the class practises: it goes to the exercises
    seen("phone seat", phone)
    phone.text_input(key="pace_nick").set_value("Ada")
    seen("phone nickname", ok(phone.button(key="pace_nick_use").click().run()))
    phone.text_input(key="ex_hungry_scaled").set_value("6, 2, 0")  # the unscaled slip
    ok(phone.button(key="ex_hungry_scaled_check").click().run())
    app({"join": code, **q})  # a second seat, with no nickname
    seen("dashboard", ok(console.run()))
    return seen


def test_a_class_at_its_own_pace_in_german() -> None:
    en, de = practice("en"), practice("de")
    assert english_left(en, de) == {}
    says(de, "phone seat", "**Üben im eigenen Tempo**: du bist Platz 1.", "Übernehmen")
    says(de, "phone nickname", "du bist Platz 1, „Ada“.", "Deine Lehrkraft sieht deine Prüfungen")
    says(de, "dashboard", "**2 Personen** üben", "Jeder Schritt", "Sofort richtig",
         "Am Ende richtig", "| Platz 2 |", "| Lernende |", "Üben beenden",
         "Zahlen am Projektor (ohne Namen)")  # fmt: skip
    for name in ("phone seat", "phone nickname"):  # the card's own English is gone
        assert "Practice at your own pace" not in de.text[name]
        assert "Your teacher sees your checks" not in de.text[name]
