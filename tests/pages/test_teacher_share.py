"""Issue 22's share link (AppTest): it keeps the picked Softmax (and Output) row, and the
sidebar shows it with a copy button; short links are in tests/live/test_short_links.py."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.sidebar import SHARE_BOX

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIVE_STORE", f"sqlite://{tmp_path / 'live.db'}")


def open_page(page: str, query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[SHARE_BOX] = True  # the sidebar's "Share and export", open
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run().switch_page(BY_KEY[page].path).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def share_link(at: AppTest) -> dict[str, str]:
    """The query of the link in the sidebar's share box."""
    body = next(h.proto.body for h in at.get("html") if 'id="al-share-full"' in h.proto.body)
    value = html.unescape(re.search(r'value="([^"]*)"', body).group(1))
    return {k: v[-1] for k, v in parse_qs(urlsplit(value).query).items()}


def row_heading(at: AppTest) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Softmax of the row"))


def test_a_link_opens_the_softmax_page_on_its_row() -> None:
    at = open_page("softmax", {keys.SOFTMAX_ROW: "cat"})
    assert at.selectbox(key=keys.SOFTMAX_ROW).value == "cat"
    assert row_heading(at) == "**Softmax of the row for query cat, step by step**"


def test_the_share_link_carries_the_picked_row() -> None:
    at = open_page("softmax")
    assert share_link(at)[keys.SOFTMAX_ROW] == "the (1)"  # nothing picked yet: the first row
    at.selectbox(key=keys.SOFTMAX_ROW).set_value("mat").run()
    link = share_link(at)
    assert link[keys.SOFTMAX_ROW] == "mat"
    assert link[keys.URL_KEY] == at.session_state[keys.PACKED][1]  # and the whole scenario
    assert "Copy link" in " ".join(h.proto.body for h in at.get("html"))


def test_the_output_pages_row_travels_the_same_way() -> None:
    at = open_page("output", {keys.OUTPUT_ROW: "sat"})
    assert at.selectbox(key=keys.OUTPUT_ROW).value == "sat"
    assert share_link(at)[keys.OUTPUT_ROW] == "sat"


def test_a_row_the_tokens_do_not_have_opens_the_first_row() -> None:
    at = open_page("softmax", {keys.SOFTMAX_ROW: "<b>nope</b>"})
    assert at.selectbox(key=keys.SOFTMAX_ROW).value == "the (1)"


def test_a_row_gone_with_new_tokens_falls_back_to_the_first() -> None:
    at = open_page("softmax", {"s": PRESETS["two_heads"].build().to_url()})
    at.selectbox(key=keys.SOFTMAX_ROW).set_value("purred").run()
    at.sidebar.selectbox(key="preset_choice").set_value("cat_mat").run()
    at.sidebar.button(key="preset_choice_load").click().run()
    assert not at.exception
    assert at.selectbox(key=keys.SOFTMAX_ROW).value == "the (1)"


def test_a_share_link_enrols_nobody_in_a_live_class() -> None:
    at = open_page("softmax", {keys.JOIN: "ABCDE"})  # a student's address (no such room)
    assert keys.JOIN not in share_link(at) and keys.TEACH not in share_link(at)
