"""A learner without a mouse (WCAG 2.1.1, 2.4.7, 2.4.11), in Chromium at 1280x720.

Tab, Shift+Tab, Enter, typing and the arrow keys only: through the walkthrough by the
menu, a score cell picked with the select boxes, an exercise answered and checked, and
presentation mode stepped forward and back. After every key that moves the focus:

- something other than the page has the focus, and its focus indicator is visible: the
  focused element's part of the screen differs from the same part with the focus removed;
- it is on screen and not hidden under Streamlit's fixed header (or anything else): the
  topmost element at its centre is the element itself or inside it.

No mouse event reaches the page during the whole walk (counted by a listener).
"""

from __future__ import annotations

import re

from helpers import MAIN, goto, wait_idle
from playwright.sync_api import Browser, Page, expect

from attention_ui.frame.pages import WALKTHROUGH

VIEW = {"width": 1280, "height": 720}
MOUSE_WATCH = """() => {
  window.__mouse = 0;
  for (const type of ["mousedown", "mouseup", "pointerdown", "wheel"]) {
    document.addEventListener(type, (e) => {
      const mouse = e.pointerType === undefined || e.pointerType === "mouse";
      if (e.isTrusted && mouse) window.__mouse++;
    }, true);
  }
}"""
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {tag: "BODY"};
  const r = el.getBoundingClientRect();
  const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(r.top + Math.min(r.height, 40) / 2, 0), innerHeight - 1);
  const hit = document.elementFromPoint(x, y);
  window.__focused = el;
  return {tag: el.tagName, text: (el.getAttribute("aria-label") || el.textContent || el.value
            || "").trim().slice(0, 40),
          box: [r.left, r.top, r.width, r.height],
          onscreen: r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth,
          covered: !(hit && (el === hit || el.contains(hit) || hit.contains(el)
                     || (hit.closest("label") && hit.closest("label").contains(el)))),
          by: hit ? hit.tagName + "." + String(hit.className.baseVal ?? hit.className) : ""};
}"""


class Keyboard:
    """The learner's keyboard, checking the focus after every key that moves it."""

    def __init__(self, page: Page) -> None:
        self.page, self.steps, self.last = page, 0, {}

    def check(self) -> dict:
        info = self.page.evaluate(FOCUS)
        h1 = self.page.locator(f"{MAIN} h1").first.text_content()
        assert info["tag"] != "BODY", (
            f"step {self.steps} on {h1}: nothing has the focus "
            f"(after {self.last.get('tag')} '{self.last.get('text')}')"
        )
        self.last = info
        where = f"step {self.steps}, focus on {info['tag']} '{info['text']}'"
        assert info["onscreen"], f"{where} is off screen at {info['box']}"
        assert not info["covered"], f"{where} is hidden under {info['by']}"
        self._ring_visible(info, where)
        return info

    def _ring_visible(self, info: dict, where: str) -> None:
        x, y, w, h = info["box"]
        pad = 6  # an outline or ring around the element (outline-offset 2 px + 2 px width)
        clip = {"x": max(x - pad, 0), "y": max(y - pad, 0), "width": min(w + 2 * pad, 1200),
                "height": min(h + 2 * pad, 400)}  # fmt: skip
        # A select box draws its ring from React state, a frame or more after the focus
        # event: on a busy machine, look again (up to three times) before saying it has none.
        for _ in range(3):
            self._frames()
            focused = self.page.screenshot(clip=clip, animations="disabled", caret="initial")
            self.page.evaluate("window.__focused.blur()")
            self._frames()
            blurred = self.page.screenshot(clip=clip, animations="disabled", caret="initial")
            self.page.evaluate("window.__focused.focus()")
            if focused != blurred:
                return
            self.page.wait_for_timeout(150)
        raise AssertionError(f"{where}: no visible focus indicator")

    def _frames(self) -> None:
        """Two animation frames: what the focus changed has been drawn."""
        self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                           "requestAnimationFrame(r)))")  # fmt: skip

    def press(self, key: str) -> dict:
        self.page.keyboard.press(key)
        self.steps += 1
        return self.check()

    def tab_to(self, matches: str, arg: str, back: bool = False, most: int = 90) -> None:
        """Tab (Shift+Tab with ``back``) until ``matches(activeElement, arg)`` holds."""
        test = f"(arg) => {{ const el = document.activeElement; return ({matches})(el, arg); }}"
        if self.page.evaluate(test, arg):  # already there (a rerun kept the focus)
            self.check()
            return
        for _ in range(most):
            self.press("Shift+Tab" if back else "Tab")
            if self.page.evaluate(test, arg):
                return
        raise AssertionError(f"no Tab stop matched {arg!r} in {most} presses")

    def menu(self, title: str) -> None:
        """Tab to the menu's link to ``title`` and follow it with Enter: back up with
        Shift+Tab from inside the page (the menu comes before it; Tab past the page's end
        would leave the page for the browser's own toolbar)."""
        inside = self.page.evaluate(f"() => !!document.activeElement.closest({MAIN!r})")
        if self.page.evaluate("() => document.activeElement === document.body"):
            # A rerun or a page change can leave the focus on the body, its next Tab stop
            # at the page's top or still after the element it left; as a learner does, Tab
            # once to see where it is (past the page's end: Shift+Tab comes back to it).
            self.page.keyboard.press("Tab")
            if self.page.evaluate("() => document.activeElement === document.body"):
                self.page.keyboard.press("Shift+Tab")
            inside = self.check() and self.page.evaluate(
                f"() => !!document.activeElement.closest({MAIN!r})"
            )
        self.tab_to("(el, t) => el.matches('.st-key-nav a') && el.textContent.trim() === t",
                    title, back=inside)  # fmt: skip
        self.page.keyboard.press("Enter")
        expect(self.page.locator(f"{MAIN} h1").first).to_have_text(title, timeout=30_000)
        wait_idle(self.page)


INSIDE = "(el, sel) => !!el.closest(sel)"


def test_the_walkthrough_an_exercise_and_presentation_mode_by_keyboard(
    browser: Browser, browser_context_args: dict
) -> None:
    context = browser.new_context(**{**browser_context_args, "viewport": VIEW})
    page = context.new_page()
    try:
        goto(page, "/")
        page.evaluate(MOUSE_WATCH)
        keys = Keyboard(page)
        for spec in WALKTHROUGH:  # every stage page, by the menu
            keys.menu(spec.title)
            if spec.key == "scores":  # pick the pair (on, cat) with the select boxes
                keys.tab_to(INSIDE, ".st-key-scores_pick_q")
                page.keyboard.type("on")
                page.keyboard.press("Enter")
                wait_idle(page)
                expect(page.get_by_text("Score of query on against key")).to_be_visible()
                keys.check()

        keys.menu("Exercises")  # the paper guide's toy, first step: Q K^T = 1, 2
        keys.tab_to(INSIDE, ".st-key-ex_paper_toy_scores")
        page.keyboard.type("1, 2")
        keys.tab_to(INSIDE, ".st-key-ex_paper_toy_scores_check")
        page.keyboard.press("Enter")
        wait_idle(page)
        card = page.locator(".st-key-card_paper_toy [data-testid='stAlert']")
        expect(card.first).to_contain_text("Correct")

        keys.menu("Presentation mode")
        progress = page.locator(".st-key-present_nav [data-testid='stProgress']")
        expect(progress).to_contain_text("Step 1 of")
        keys.tab_to(INSIDE, ".st-key-present_next")
        for k in (2, 3):
            page.keyboard.press("Enter")
            expect(progress).to_contain_text(f"Step {k} of")
            wait_idle(page)
            keys.tab_to(INSIDE, ".st-key-present_next", most=30)  # where the rerun left it
        keys.tab_to(INSIDE, ".st-key-present_back", back=True)
        page.keyboard.press("Enter")
        expect(progress).to_contain_text("Step 2 of")
        page.wait_for_url(re.compile(r"[?&]step=2"))
        assert page.evaluate("window.__mouse") == 0, "a mouse event reached the page"
        assert keys.steps > 20
    finally:
        context.close()
