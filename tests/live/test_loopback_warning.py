"""A loopback ATTENTION_LAB_PUBLIC_URL is said to the teacher, in the teacher's language, where
the join address is shown (the projector's join card) and on the console it is driven from
(issue 45, item 1). AppTest sessions sharing a real SQLite store."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from tests.live.apps import APP

pytestmark = pytest.mark.usefixtures("store")  # tests/live/conftest.py
# The words of each catalogue that name the cause: the setting's name stays as it is written
WARNED = {"en": "phones cannot reach it", "fr": "les téléphones", "zh": "手机"}


def warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]


def go_live(lang: str) -> tuple[AppTest, AppTest]:
    """A teacher in ``lang`` goes live: the projector's join screen, then the console."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["lang"] = lang
    at.run().switch_page(BY_KEY["present"].path).run()
    at.button(key="live_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    seat = at.session_state[keys.LIVE]
    console = AppTest.from_file(APP, default_timeout=30)
    console.query_params.update({"teach": f"{seat.code}.{seat.secret}", "lang": lang})
    console.run().switch_page(BY_KEY["console"].path).run()
    assert not console.exception, [e.value for e in console.exception]
    return at, console


@pytest.mark.parametrize("lang", ["en", "fr", "zh"])
def test_a_loopback_public_url_is_named_on_the_join_card_and_the_console(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ATTENTION_LAB_PUBLIC_URL", "http://localhost:8501")
    for at in go_live(lang):
        said = [w for w in warnings(at) if "ATTENTION_LAB_PUBLIC_URL" in w]
        assert len(said) == 1, warnings(at)
        assert "http://localhost:8501" in said[0] and WARNED[lang] in said[0], said


def test_a_reachable_public_url_warns_nowhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ATTENTION_LAB_PUBLIC_URL", "http://10.1.2.3:8501")
    for at in go_live("en"):
        assert not [w for w in warnings(at) if "ATTENTION_LAB_PUBLIC_URL" in w], warnings(at)
