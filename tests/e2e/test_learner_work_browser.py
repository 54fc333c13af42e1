"""A learner's work and a teacher's short link in Chromium, at desktop and phone size (issue
41, defects 4 and 5), on the shared server of tests/e2e/conftest.py (its store is the app's
default SQLite file):

- exercise 1 partly done in French (and the choice question), the page reloaded, German
  picked in the sidebar, the browser restarted with the same cookies: the work is there each
  time; the progress JSON downloaded, Forget pressed (nothing left), the file loaded back;
- the Training lab's settings (a task picked, d_k, rate, seed and step) through a short link
  opened in a fresh browser of the other size: the same experiment, setting for setting.

The words checked are the catalogue's (the page's language), the numbers the test's own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from helpers import goto, shot, wait_idle
from page_objects import ExercisesPage, key
from playwright.sync_api import Browser, BrowserContext, Page, expect

from attention_core.exercises import all_exercises, exercise_by_id
from attention_core.training import TASKS
from attention_ui.i18n import NAMES, translations
from attention_ui.practice.kept import COOKIE

pytestmark = pytest.mark.e2e
TIMEOUT = 30_000
PHONE = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36",
}  # fmt: skip
SIZES = ("desktop", "phone")
WHY = exercise_by_id("why_scale")
STEPS = sum(len(ex.steps) for ex in all_exercises())  # every step of the catalogue (30)


def context(browser: Browser, args: dict, size: str, **more) -> BrowserContext:
    return browser.new_context(**{**args, **(PHONE if size == "phone" else {}), **more})


def say(code: str, text: str) -> str:
    return translations(code).gettext(text)


def right_of(code: str, right: int) -> re.Pattern[str]:
    """The progress bar's words in ``code`` (the catalogue's), with the test's numbers; any
    space may be a no-break one (French typography)."""
    form = translations(code).ngettext(
        "{right} of {total} step right", "{right} of {total} steps right", STEPS
    )
    words = form.format(right=right, total=STEPS).split()
    return re.compile(r"\s+".join(map(re.escape, words)))


def open_sidebar(page: Page) -> None:
    """On a phone the sidebar starts closed: open it as a person does."""
    opener = page.locator("[data-testid='stExpandSidebarButton']")
    if opener.is_visible():
        opener.click()
        page.wait_for_selector("[data-testid='stSidebar'][data-collapsed='false']", timeout=TIMEOUT)
        page.wait_for_timeout(400)  # the sidebar slides in


def pick_language(page: Page, code: str) -> None:
    open_sidebar(page)
    page.locator(f"{key('lang_sidebar')} input").click()
    option = page.get_by_role("option", name=NAMES[code], exact=True)
    if not option.is_visible():  # a touch screen's tap focused the box without opening it
        page.keyboard.press("ArrowDown")
    option.click()
    page.wait_for_url(re.compile(f"lang={code}"), timeout=TIMEOUT)
    wait_idle(page)


def expect_work(page: Page, code: str) -> None:
    """Exercise 1's two checks and the choice question, as they were left."""
    expect(page.get_by_test_id("stProgress").get_by_text(right_of(code, 2))).to_be_visible(
        timeout=TIMEOUT
    )
    exercises = ExercisesPage(page)
    expect(exercises.answer_box("paper_toy", "scores")).to_have_value("1, 2")
    expect(exercises.answer_box("paper_toy", "scaled")).to_have_value("1, 2")
    expect(exercises.card_alerts("paper_toy")).to_have_count(2)


@pytest.mark.parametrize("size", SIZES)
def test_exercise_work_survives_reload_language_restart_and_its_file(
    browser: Browser, browser_context_args: dict, base_url: str, size: str, tmp_path: Path
) -> None:
    ctx = context(browser, browser_context_args, size, accept_downloads=True)
    page = ctx.new_page()
    try:
        goto(page, "/exercises?lang=fr")
        exercises = ExercisesPage(page)
        expect(page.get_by_test_id("stProgress").get_by_text(right_of("fr", 0))).to_be_visible(
            timeout=TIMEOUT
        )
        for step, text in (("scores", "1, 2"), ("scaled", "1, 2")):  # right, then a slip
            exercises.type_answer("paper_toy", step, text)
            exercises.check("paper_toy", step)
        page.get_by_role("tab", name=say("fr", WHY.short_title.template)).click()
        wait_idle(page)
        page.locator(f"{key('ex_why_scale_choice')} [role='radiogroup'] label").nth(1).click()  # B
        exercises.check("why_scale", "choice")
        page.get_by_role("tab").first.click()
        wait_idle(page)
        expect_work(page, "fr")
        shot(page, f"learner-work-{size}-fr", full=False)

        page.reload()
        wait_idle(page)
        expect_work(page, "fr")  # a reload: the same session's work, from the store

        pick_language(page, "de")
        page.locator("[data-testid='stSidebarCollapseButton'] button").click(trial=False) \
            if size == "phone" else None  # fmt: skip
        expect_work(page, "de")

        address, state = page.url, ctx.storage_state()
        assert any(c["name"] == COOKIE for c in state["cookies"])
        ctx.close()  # the browser restarted, with its cookies
        ctx = context(browser, browser_context_args, size, accept_downloads=True,
                      storage_state=state)  # fmt: skip
        page = ctx.new_page()
        goto(page, address)
        expect_work(page, "de")
        exercises = ExercisesPage(page)

        page.get_by_text(say("de", "Your progress, downloads and reset"), exact=True).click()
        wait_idle(page)  # the expander's content is drawn by a rerun: click the drawn button
        expect(page.locator(f"{key('practice_download_json')} button")).to_be_enabled()
        with page.expect_download(timeout=60_000) as download:
            page.locator(f"{key('practice_download_json')} button").click()
        saved = tmp_path / "progress.json"
        download.value.save_as(saved)
        doc = json.loads(saved.read_text())
        rows = {(r["exercise"], r["step"]): r for r in doc["steps"]}
        assert rows[("why_scale", "choice")]["answer"] == "B"  # its letter, in no language
        assert rows[("paper_toy", "scaled")]["mistake"] == "unscaled"
        shot(page, f"learner-work-{size}-de-downloads", full=False)

        page.get_by_role("button", name=say("de", "Forget it on this browser")).click()
        wait_idle(page)
        expect(page.get_by_test_id("stProgress").get_by_text(right_of("de", 0))).to_be_visible(
            timeout=TIMEOUT
        )
        expect(exercises.answer_box("paper_toy", "scores")).to_have_value("")
        page.wait_for_function(f"!document.cookie.includes('{COOKIE}=')", timeout=TIMEOUT)

        page.locator(f"{key('practice_upload')} input[type='file']").set_input_files(saved)
        wait_idle(page)
        expect_work(page, "de")  # loaded back
        shot(page, f"learner-work-{size}-de-loaded", full=False)
        page.reload()
        wait_idle(page)
        expect_work(page, "de")  # and kept again, under a new cookie
        assert exercises.exceptions().count() == 0
    except Exception:
        shot(page, f"FAILED-learner-work-{size}", full=False)  # what the learner saw
        raise
    finally:
        ctx.close()


# ---- defect 5: the Training lab through a short link ---------------------------------------
SETTINGS = {"tr_task": "previous", "tr_dk": "64", "tr_lr": "3.0", "tr_steps": "50", "tr_seed": "5",
            "tr_step": "40"}  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
def test_the_training_labs_settings_survive_a_short_link(
    browser: Browser, browser_context_args: dict, base_url: str, size: str
) -> None:
    maker_ctx = context(browser, browser_context_args, size)
    other = "desktop" if size == "phone" else "phone"
    follower_ctx = context(browser, browser_context_args, other)
    try:
        page = maker_ctx.new_page()
        goto(page, "/training?tr_dk=64&tr_lr=3.0&tr_steps=50&tr_seed=5&tr_step=40")  # a link
        page.wait_for_selector(f"{key('tr_weights_False')} .main-svg", timeout=60_000)
        wait_idle(page)
        page.locator(f"{key('tr_task')} input").click()  # and the task, picked by hand
        page.get_by_role("option", name=TASKS["previous"], exact=True).click()
        page.wait_for_url(re.compile("tr_task=previous"), timeout=TIMEOUT)
        page.wait_for_selector(f"{key('tr_weights_False')} .main-svg", timeout=60_000)
        wait_idle(page)
        held = {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}
        step_title = page.locator(f"{key('tr_weights_False')} .g-gtitle").first.text_content()
        assert "40" in (step_title or "")

        open_sidebar(page)
        page.get_by_text("Share and export", exact=True).click()
        page.locator("#al-share-full").wait_for(timeout=TIMEOUT)
        wait_idle(page)
        full = page.locator("#al-share-full").input_value()
        assert {k: parse_qs(urlsplit(full).query)[k][0] for k in SETTINGS} == SETTINGS
        page.locator(f"{key('short_link_make')} button").click()
        page.locator("#al-share-short").wait_for(timeout=TIMEOUT)
        short = page.locator("#al-share-short").input_value()
        assert re.search(r"/training\?l=[A-Z2-9]{10}", short), short
        shot(page, f"short-link-training-{size}", full=False)

        follower = follower_ctx.new_page()
        goto(follower, f"{base_url}/training?{urlsplit(short).query}")
        follower.wait_for_selector(f"{key('tr_weights_False')} .main-svg", timeout=60_000)
        wait_idle(follower)
        opened = {k: v[0] for k, v in parse_qs(urlsplit(follower.url).query).items()}
        assert {k: opened.get(k) for k in SETTINGS} == SETTINGS
        assert {k: opened.get(k) for k in held if k != "s"} == {k: v for k, v in held.items()
                                                                if k != "s"}  # fmt: skip
        expect(follower.locator(f"{key('tr_task')} input")).to_have_value(TASKS["previous"])
        title = follower.locator(f"{key('tr_weights_False')} .g-gtitle").first
        expect(title).to_have_text(step_title or "")  # the same step of the same run
        shot(follower, f"short-link-training-followed-{other}", full=False)
    finally:
        maker_ctx.close()
        follower_ctx.close()
