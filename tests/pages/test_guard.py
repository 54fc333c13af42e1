"""The safety net also holds for widget callbacks and fragments (guard.callback, guard.fragment).

Streamlit runs callbacks before the script: one that raises used to stop the run before
app.py drew anything, so the learner saw a traceback and no sidebar. A fragment put its
traceback inside itself. Each test injects a failure and checks that no traceback reaches
the screen and the menu is still there.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS
from attention_ui.frame import guard, state
from attention_ui.frame.pages import ALL_PAGES, BY_KEY
from attention_ui.views import stage_views as views
from tests.spec import menu_links

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def boom(*args: object, **kwargs: object) -> None:
    raise ValueError("Shape of passed values is (6, 6), indices imply (2, 6)")


def menu(at: AppTest) -> list[str]:
    return [link["path"] for link in menu_links(at)]


def test_a_failing_callback_leaves_a_message_and_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(BY_KEY["mask"].path).run()
    monkeypatch.setattr(state, "reset_editors", boom)  # the mask radio's callback calls it
    at.radio(key="mask_kind").set_value("causal").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(guard.CALLBACK_NOTICE[:40] in w.value for w in at.warning)
    assert len(menu(at)) == len(ALL_PAGES)
    assert at.get("plotly_chart"), "the page itself is drawn"
    monkeypatch.undo()
    at.radio(key="mask_kind").set_value("none").run()  # the next change works as usual
    assert not at.exception and not at.warning


def test_a_failing_fragment_leaves_a_message_and_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "breakdown", boom)  # inside the Scores page's fragment
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(BY_KEY["scores"].path).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(guard.NOTICE[:30] in e.value for e in at.error)
    assert len(menu(at)) == len(ALL_PAGES)


def callbacks(at: AppTest) -> dict[str, object]:
    """Every widget callback the last run registered, by widget id."""
    widgets = at._session_state._state._new_widget_state.widget_metadata  # no public API
    return {wid: meta.callback for wid, meta in widgets.items() if meta.callback is not None}


def guarded(callback: object) -> bool:
    if isinstance(callback, functools.partial):
        callback = callback.func
    return callable(callback) and getattr(callback, guard.GUARDED, False)


@pytest.mark.parametrize("mask", ["none", "padding", "custom"])
def test_every_callback_of_every_page_is_guarded(mask: str) -> None:
    scenario = PRESETS["cat_mat"].build().replace(mask_kind=mask)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["s"] = scenario.to_url()
    at.run()
    seen = 0
    for spec in ALL_PAGES:
        at.switch_page(spec.path).run()
        found = callbacks(at)
        seen += len(found)
        bare = [wid for wid, cb in found.items() if not guarded(cb)]
        assert not bare, f"{spec.key}: callbacks without guard.callback: {bare}"
    assert seen > 20, "the check saw the app's callbacks"
