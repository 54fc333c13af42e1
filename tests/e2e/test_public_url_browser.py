"""A public address no phone can reach, said where the teacher sees it (issue 45, item 1):
with ATTENTION_LAB_PUBLIC_URL=http://localhost:8501 (what deploy/compose.yml once set by
default), the projector's join screen and the console each say that the setting sends
phones to themselves: the projector in English at 1280 x 800, the console in French on a
phone at 390 x 844 (a teacher's remote). One fresh server with that setting."""

from __future__ import annotations

import pytest
from helpers import ARTIFACTS_DIR
from page_objects import ConsolePage, ProjectorPage
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e
SETTING = "http://localhost:8501"


@pytest.fixture
def live_public_url() -> str:
    return SETTING


def test_a_loopback_public_address_is_named_on_the_join_screen_and_the_console(
    live_server, browser: Browser
) -> None:
    teacher = browser.new_context(viewport={"width": 1280, "height": 800})
    projector = ProjectorPage(teacher.new_page(), live_server.url)
    projector.open()
    projector.go_live()  # the join screen shows
    said = projector.join_screen.alerts("ATTENTION_LAB_PUBLIC_URL")
    expect(said).to_contain_text(f"is set to {SETTING}")
    expect(said).to_contain_text("phones cannot reach it")
    assert projector.join_screen.address() == SETTING
    projector.wait_idle()
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    projector.page.screenshot(path=str(ARTIFACTS_DIR / "public-url-join-en-1280.png"))

    # the teacher's cookie: the console, on a phone-sized screen
    remote = ConsolePage(teacher.new_page(), live_server.url)
    remote.page.set_viewport_size({"width": 390, "height": 844})
    remote.visit("?lang=fr")
    expect(remote.next_button()).to_be_visible(timeout=10_000)
    said = remote.alerts("ATTENTION_LAB_PUBLIC_URL")
    expect(said).to_contain_text(f"vaut {SETTING}")
    expect(said).to_contain_text("les téléphones ne peuvent pas l'atteindre")
    remote.wait_idle()
    remote.page.screenshot(path=str(ARTIFACTS_DIR / "public-url-console-fr-390.png"))
    teacher.close()
