"""A page that fails keeps the navigation and says what to do; the issue-12 crash stays fixed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.frame.pages import ALL_PAGES, BY_KEY
from attention_ui.views import stage_views as views
from tests.spec import menu_links

APP = str(Path(__file__).resolve().parents[2] / "app.py")
CRASH_NOTICE = "Something went wrong on this page"


def nav_links(at: AppTest) -> list[str]:
    """The sidebar's page links (what a learner uses to get away from a broken page)."""
    return [link["path"] for link in menu_links(at)]


def test_custom_mask_follows_the_drafts_queries() -> None:
    """Issue 12's repro: direct mode, causal, two query tokens, then a custom grid."""
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(BY_KEY["inputs"].path).run()
    at.radio(key="input_mode").set_value("direct").run()
    at.switch_page(BY_KEY["mask"].path).run()
    at.radio(key="mask_kind").set_value("causal").run()
    at.switch_page(BY_KEY["inputs"].path).run()
    at.text_input(key="query_tokens_text").input("je suis").run()
    at.switch_page(BY_KEY["mask"].path).run()
    at.radio(key="mask_kind").set_value("custom").run()
    assert not at.exception, [e.value for e in at.exception]
    s = at.session_state["scenario"]
    assert s.mask_kind == "custom" and s.custom_mask.shape == (2, 6)
    np.testing.assert_array_equal(s.custom_mask[1, :3], [True, True, False])  # causal kept


def test_a_failing_page_keeps_the_navigation_and_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("Shape of passed values is (6, 6), indices imply (2, 6)")

    monkeypatch.setattr(views, "softmax_view", broken)
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(BY_KEY["softmax"].path).run()
    assert not at.exception, "the traceback reached the screen"
    assert any(CRASH_NOTICE in e.value for e in at.error), [e.value for e in at.error]
    assert len(nav_links(at)) == len(ALL_PAGES)
    assert at.query_params.get("s"), "the URL still carries the scenario"
    at.button(key="crash_reset").click().run()  # the way out the message offers
    at.switch_page(BY_KEY["scores"].path).run()
    assert not at.exception and not at.error


def test_the_menu_lists_every_page_once_and_carries_the_scenario() -> None:
    """One element: every page in reading order, each section named once, the open page
    marked, every link with the address's own ?s= (a new tab opens the same numbers)."""
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(BY_KEY["scores"].path).run()
    items = menu_links(at)
    assert [i["title"] for i in items] == [spec.title for spec in ALL_PAGES]
    sections = [i["section"] for i in items if i["section"]]
    assert sections == list(dict.fromkeys(spec.section for spec in ALL_PAGES if spec.section))
    assert [i["path"] for i in items if i["current"]] == ["scores"]
    s = at.query_params["s"][0] if isinstance(at.query_params["s"], list) else at.query_params["s"]
    assert all(i["href"].endswith(f"?s={s}") for i in items)
    assert items[0]["href"].startswith("./?") and items[3]["href"].startswith("scores?")
