"""Screenshots of "Ask the class", to look at: the teacher's console and the projector, and a
student's phone, for a cell of the slide and for a lesson's exercise.

Starts a real ``streamlit run app.py`` with its own SQLite store, a teacher in Chromium at
1280 x 720 (and 1400 x 1000) and two phones at 390 x 844; the teacher asks, one phone
answers right and one gives the unscaled value, the teacher reveals. No test compares the
pixels: the images are for a person to look at.

    python scripts/shots_ask.py [folder]     # default: test-artifacts/issue19/
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.common.browser import served_chromium, settle  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}  # fmt: skip
# (what to ask, the right answer and the unscaled one, as the lessons work them out)
ROUNDS = (
    ("cell", "0.42", "0.56"),  # cat_mat, the weight sat -> cat (the browser test's)
    ("exercise", "0.844, 0.114, 0.042", "0.980, 0.018, 0.002"),  # the post's "it"
    ("two_heads", "0.804, 0.196\n0.196, 0.804", "0.881, 0.119\n0.119, 0.881"),  # 5 matrices
    ("why_scale", "B", "A"),  # lesson 89's multiple choice: the options' letters
)
EXERCISES = {"exercise": "because it was hungry", "two_heads": "Two heads",
             "why_scale": "why not remove the scaling"}  # fmt: skip


def shot(page: Page, folder: Path, name: str) -> None:
    settle(page)
    page.wait_for_timeout(600)  # a chart's transition
    page.screenshot(path=str(folder / f"{name}.png"))
    print(folder / f"{name}.png")


def ask(teacher: Page, what: str) -> None:
    if what in EXERCISES:
        teacher.locator(".st-key-live_ask_from button", has_text="exercise").click()
        settle(teacher)
        box = teacher.locator(".st-key-live_ask_exercise input")
        box.click()
        teacher.get_by_role("option", name=re.compile(EXERCISES[what])).click()
        settle(teacher)


def run(folder: Path, url: str, browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    projector = context.new_page()
    projector.goto(url + "/present?step=5")  # Softmax
    settle(projector)
    projector.locator(".st-key-live_start button").first.click()
    expect(projector.locator(".al-code")).to_be_visible(timeout=15_000)
    code = projector.locator(".al-code").first.inner_text().strip()
    teacher = context.new_page()  # the console, beside the projector (the browser's cookie)
    teacher.goto(url + "/console")
    settle(teacher)
    teacher.locator(".st-key-console_join button").click()
    phones = [browser.new_context(**PHONE).new_page() for _ in range(2)]
    for phone in phones:
        phone.goto(f"{url}/?join={code}")
        progress = phone.locator("[data-testid='stProgress']")
        expect(progress).to_contain_text("Step 5", timeout=20_000)
    for what, right, unscaled in ROUNDS:
        ask(teacher, what)
        shot(teacher, folder, f"console-ask-{what}-1280x720")
        teacher.locator(".st-key-live_ask button").click()
        for phone, typed in zip(phones, (right, unscaled), strict=True):
            box = phone.locator(".st-key-live_answer input, .st-key-live_answer textarea, "
                                ".st-key-live_choice")  # fmt: skip
            expect(box).to_be_visible(timeout=15_000)
            if phone is phones[0]:
                shot(phone, folder, f"phone-question-{what}-390x844")
            if what == "why_scale":
                box.locator("label").filter(has_text=f"{typed}. ").click()
            else:
                box.fill(typed)
            phone.locator(".st-key-live_question button", has_text="Send").click()
            expect(phone.get_by_text("first answer is the one counted")).to_be_visible()
        shot(phones[0], folder, f"phone-sent-{what}-390x844")
        expect(teacher.locator(".st-key-live_tally")).to_contain_text("2 answered", timeout=10_000)
        shot(teacher, folder, f"console-results-{what}-1280x720")
        shot(projector, folder, f"projector-question-{what}-1280x720")
        teacher.set_viewport_size({"width": 1400, "height": 1000})
        shot(teacher, folder, f"console-results-{what}-1400x1000")
        teacher.set_viewport_size({"width": 1280, "height": 720})
        teacher.locator(".st-key-live_reveal button").click()
        for n, phone in enumerate(phones):
            verdict = phone.locator(".st-key-live_question").get_by_text("The answer:")
            expect(verdict).to_be_visible(timeout=15_000)
            verdict.scroll_into_view_if_needed()
            shot(phone, folder, f"phone-revealed-{what}-{('right', 'unscaled')[n]}-390x844")
        shot(projector, folder, f"projector-revealed-{what}-1280x720")
        teacher.locator(".st-key-live_close button").click()
        settle(teacher)


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "test-artifacts" / "issue19"
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["LIVE_STORE"] = f"sqlite://{Path(tmp) / 'live.db'}"
        os.environ.setdefault("ATTENTION_LAB_PUBLIC_URL", "http://192.168.1.20:8501")
        with served_chromium() as (url, browser):
            run(folder, url, browser)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
