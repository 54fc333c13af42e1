"""Every page in each offered language (AppTest): no exception, no English sentence left
where the catalogue has a translation; the picker, ?lang=, links and the page's lang."""

from __future__ import annotations

import time

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui import i18n
from attention_ui.frame.pages import ALL_PAGES
from tests.i18n.pages import APP, english_left, shown_text

OFFERED = [c for c in i18n.offered() if c != i18n.SOURCE]


def visit(code: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = code
    return at.run()


@pytest.mark.parametrize("code", OFFERED)
def test_every_page_speaks_the_language(code: str) -> None:
    """Each page in turn, as a learner opening the app with ?lang= then the menu."""
    at, left, t0 = visit(code), english_left(code), time.perf_counter()
    assert len(left) > 80
    seen = []
    for spec in ALL_PAGES:
        if spec.key != "start":
            at.switch_page(spec.path).run()
        assert not at.exception, (spec.key, [e.value for e in at.exception])
        title = i18n.translations(code).gettext(spec.title)
        assert at.title[0].value == title, (code, spec.key, at.title[0].value)
        text = shown_text(at)
        assert "Project-Id-Version" not in text, (code, spec.key)  # a catalogue's header
        english = [chunk for _, chunk in left if chunk in text]
        assert english == [], (code, spec.key, english)
        seen.append(spec.key)
    assert seen == [p.key for p in ALL_PAGES]
    assert at.query_params["lang"] == code
    print(code, f"{time.perf_counter() - t0:.1f} s")


def test_english_by_default_and_no_lang_in_the_address() -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert at.title[0].value == "Start"
    assert "lang" not in at.query_params
    assert at.sidebar.selectbox(key="lang_sidebar").value == "en"


def test_an_unknown_or_unoffered_language_falls_back_to_english() -> None:
    for wanted in ("pt", "zh-TW", "xx"):
        at = visit(wanted)
        assert not at.exception
        assert at.subheader[0].value == "The intuition", wanted


def test_the_picker_switches_the_session_and_writes_the_address() -> None:
    """The sidebar's picker: the page reruns in German, ?lang=de, the Start page's picker
    agrees; then the Start page's picker back to English (?lang=en: a picked language)."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.sidebar.selectbox(key="lang_sidebar").set_value("de").run()
    assert at.subheader[0].value == "Die Intuition"
    assert at.query_params["lang"] == "de"
    assert at.selectbox(key="lang_start").value == "de"
    assert at.sidebar.selectbox(key="lang_sidebar").label == "Sprache"
    at.selectbox(key="lang_start").set_value("en").run()
    assert at.subheader[0].value == "The intuition"
    assert at.query_params["lang"] == "en"
    assert at.sidebar.selectbox(key="lang_sidebar").value == "en"


def test_links_carry_the_language_and_the_page_says_its_lang() -> None:
    """The menu's links, the share link and the page's lang attribute (look.frame)."""
    at = visit("zh")
    at.sidebar.expander[0].open = True  # Share and export (lazy)
    text = shown_text(at)
    assert "lang=zh" in text  # the menu's hrefs
    assert "练习" in text  # the menu's titles (Practice)
    html = [h.proto.body for h in at.get("html")]
    assert any('document.documentElement.lang = "zh-Hans"' in h for h in html)
    at.switch_page(ALL_PAGES[3].path).run()  # a walkthrough page keeps the language
    assert at.title[0].value == "3. 分数"
    assert at.query_params["lang"] == "zh"


def test_the_session_keeps_its_language_over_a_stale_address() -> None:
    """The session's language is read once: a later run with another ?lang= (an address a
    run behind) keeps the session's language."""
    at = visit("fr")
    at.query_params["lang"] = "de"
    at.run()
    assert at.subheader[0].value == "L'intuition"
