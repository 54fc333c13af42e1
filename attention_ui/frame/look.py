"""How the page looks on this screen: the theme the figures follow, and phone-sized screens.

Figures are pure functions of their data and a ``figures.Palette``; this module decides
which palette (from the browser's theme) and whether the screen is a phone's, from what
Streamlit tells the server about the browser (st.context).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attention_ui.draw.figures import LIGHT, PALETTES, Palette
from attention_ui.frame import keys
from attention_ui.i18n import _

# Phones and small tablets say so in their user agent ("Mobile", "Android ... Mobile").
_PHONE = re.compile(r"Mobi|iPhone|iPod|Android.+Mobile", re.IGNORECASE)


# The favicon as a data: URL (434 bytes). A file path would be served from Streamlit's
# media store, which forgets it after the session's next run; the page config is sent on
# a session's first run only (state.page_config_due), so the browser would later get a 404.
FAVICON = (
    "data:image/png;base64,"
    + base64.b64encode(
        (Path(__file__).resolve().parents[2] / "assets" / "favicon.png").read_bytes()
    ).decode()
)


def palette() -> Palette:
    """The figures' palette for the browser's Streamlit theme (light before the browser says).

    st.context.theme.type is what the browser reported with this run: the settings menu's
    choice, or the system's prefers-color-scheme when the app sets no theme base.
    """
    return PALETTES.get(st.context.theme.type or "light", LIGHT)


def phone() -> bool:
    """Whether the browser is a phone's (its user agent says so): figures print fewer digits.

    Asked for every figure of a run; the session's answer is kept, since a session is one
    browser's (st.context.headers copies the request's headers on every call).
    """
    if get_script_run_ctx(suppress_warning=True) is None:  # a figure built outside a session
        return bool(_PHONE.search(st.context.headers.get("User-Agent") or ""))
    known = st.session_state.get(keys.PHONE)
    if known is None:
        known = st.session_state[keys.PHONE] = bool(
            _PHONE.search(st.context.headers.get("User-Agent") or "")
        )
    return known


# Static CSS and script of our own (no learner text in them), added once per run by app.py.
# - Formulas wider than a phone scroll sideways instead of being cut at the right edge.
# - The Start page's recipe: its boxes sit in a row with → between them, and stack on a
#   phone (Streamlit stacks columns below 640 px), where the arrows between them point down.
# - Previous/Next (widgets.prev_next) are links 44 px tall at least, a touch target on a phone
#   (WCAG 2.5.5; Streamlit draws a page link about 28 px tall).
# - WCAG 2.2 AA where Streamlit's own styles miss it (README, "Accessibility"):
#   captions are the theme's text at opacity 0.6, #828180 on white, 3.9:1 (1.4.3): at
#   0.8 they read 7:1 in light and 9.8:1 in dark; the slider's value is the theme's
#   primary red, 3.9:1 on the dark background: it takes the text colour, and so does the
#   chosen option of a row of sections (widgets.choose_section), #c53948 on its tint
#   #f9ebed, 4.47:1 (axe flags it once the row is on screen), bold instead. (Streamlit's
#   --st-* colour variables exist only inside components, so none is used here.) Links
#   and scrolling regions get a focus ring in the text's own colour (2.4.7).
#   Streamlit's header is fixed over the scrolling main area, so the browser could scroll
#   a focused element under it (2.4.11): the main area keeps a header's height free.
# - Streamlit's own sidebar menu closes itself after a tap on a phone, where the sidebar
#   covers the page; the app draws its own menu (attention_ui.frame.menu, links with ?s=), so the
#   script does the same for it: below Streamlit's "md" breakpoint (768 px), a tap on a
#   sidebar link also presses the sidebar's close button.
# - A grid's toolbar (show, download, search, full screen) stands above it, over the line
#   before it; a touch screen always shows it, so on a phone a grid keeps a toolbar's height
#   free above it (it covered the caption "Q (6 × 3) ... (d_k ...)" on Inputs).
# - A page switched to opens at its top (Streamlit keeps the last page's scroll offset).
# - The share links' copy buttons (sidebar.copy_box) copy to the clipboard, or select the link
#   where the browser has no clipboard API (a page served over plain http on a LAN).
# - A formula, table or chart that scrolls sideways is a keyboard stop (2.1.1; axe's
#   scrollable-region-focusable): the script gives each one that really overflows
#   tabindex=0, role=region and a name, and the CSS a focus ring and a shadow at the edge
#   it scrolls to (the scroll-shadow technique: covers that scroll with the content).
# - A tap on a chart's cell picks it, as a click does (see the script).
FRAME = """
<style>
.katex-display { overflow-x: auto; overflow-y: hidden; padding-bottom: 2px; }
[class*="st-key-recipe_down_"] { display: none; }
.st-key-prev_next a { min-height: 44px; box-sizing: border-box; align-items: center; }
.al-share input { width: 100%; box-sizing: border-box; font: inherit; font-size: 0.8rem;
  padding: 0.4rem 0.5rem; border: 1px solid rgba(128,128,128,0.45); border-radius: 0.5rem;
  background: transparent; color: inherit; text-overflow: ellipsis; }
.al-share button { margin-top: 0.4rem; min-height: 2.5rem; padding: 0 0.9rem; font: inherit;
  border: 1px solid rgba(128,128,128,0.45); border-radius: 0.5rem; background: transparent;
  color: inherit; cursor: pointer; }
.al-share button:hover { border-color: currentColor; }
.al-copied { margin-left: 0.6rem; font-size: 0.85rem; }
.stApp [data-testid="stCaptionContainer"] { opacity: 0.8; }
.stApp [data-testid="stSliderThumbValue"] { color: inherit; }
.stApp [role="radiogroup"] > [data-selected="true"],
.stApp [role="radiogroup"] > [data-selected="true"] * { color: inherit; font-weight: 600; }
[data-testid="stMain"] { scroll-padding-top: 4.5rem; scroll-padding-bottom: 1rem; }
.stApp [data-testid="stRadio"] label, .stApp [data-testid="stCheckbox"] label {
  min-height: 1.5rem;  /* 24 px targets (2.5.8): Streamlit's options are 22 px high */
}
[data-al-scrolls] {
  background:
    linear-gradient(to right, var(--al-bg) 40%, transparent) left / 1.5rem 100% no-repeat local,
    linear-gradient(to left, var(--al-bg) 40%, transparent) right / 1.5rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(128,128,128,0.6), transparent)
      left / 0.6rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(128,128,128,0.6), transparent)
      right / 0.6rem 100% no-repeat scroll;
  border-radius: 0.25rem;
}
[data-al-scrolls]:focus-visible, .stApp a:focus-visible {
  outline: 2px solid currentColor; outline-offset: 2px;
}
@media (max-width: 640px) {
  [class*="st-key-recipe_right_"] { display: none; }
  [class*="st-key-recipe_down_"] { display: flex; }
  [class*="st-key-recipe_down_"] h3 { text-align: center; }
  .katex-display > .katex { font-size: 1.05em; }
  [data-testid="stFullScreenFrame"]:has(> [data-testid="stPlotlyChart"]) { overflow-x: auto; }
  [data-testid="stElementContainer"]:has([data-testid="stDataFrame"]) { margin-top: 2.5rem; }
}
</style>
<script>
(() => {
  if (window.__attentionLabNav) return;  // once per page load, however many reruns
  window.__attentionLabNav = true;
  // The words the script writes, in the page's language (WORDS_SCRIPT, set on every run).
  const said = (key) => (window.__alWords || {})[key] || "";
  const narrow = window.matchMedia("(max-width: 767.98px)");
  document.addEventListener("click", (event) => {
    const link = event.target.closest("[data-testid='stSidebar'] a[href]");
    if (!link || !narrow.matches) return;
    const close = document.querySelector("[data-testid='stSidebarCollapseButton'] button");
    if (close) close.click();
  }, true);
  // A new page opens at its top. Streamlit keeps the scroll offset of its main area when a
  // button switches page (st.switch_page), so "Open head 1 in the walkthrough", pressed at
  // the bottom of a long page, landed at the bottom of the next one, its heading off-screen.
  let path = location.pathname;
  const toTop = () => {
    if (location.pathname === path) return;
    path = location.pathname;
    document.querySelectorAll("[data-testid='stMain'], [data-testid='stAppViewContainer']")
      .forEach((e) => { e.scrollTop = 0; });
    window.scrollTo(0, 0);
  };
  // Share and export's copy buttons (sidebar.copy_box): copy the box's link. The full link's
  // box follows the address bar, which a picker in a fragment changes with no sidebar rerun;
  // a share link carries no live class (join, teach) and no short link's id.
  // On the box's own origin (data-origin): the address a phone can reach, not a loopback one.
  const shareUrl = (origin) => {
    const url = new URL(location.pathname + location.search, origin || location.origin);
    ["teach", "join", "l"].forEach((p) => url.searchParams.delete(p));
    return url.searchParams.has("s") ? url.toString() : null;
  };
  const follow = () => {
    document.querySelectorAll("input.al-link[data-live]").forEach((b) => {
      const url = shareUrl(b.dataset.origin);
      if (url) b.value = url;
    });
  };
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button.al-copy");
    const box = button && document.getElementById(button.dataset.for);
    if (!box) return;
    if (box.hasAttribute("data-live")) follow();
    let copied = false;
    try { await navigator.clipboard.writeText(box.value); copied = true; } catch (e) {}
    if (!copied) {  // no clipboard API on plain http (a classroom's LAN address): select, copy
      box.focus(); box.select();
      try { copied = document.execCommand("copy"); } catch (e) {}
    }
    const note = document.getElementById(button.dataset.for + "-note");
    if (note) note.textContent = copied ? said("copied") : said("selected");
  });
  for (const name of ["pushState", "replaceState"]) {
    const original = history[name].bind(history);
    history[name] = (...args) => { const r = original(...args); toTop(); follow(); return r; };
  }
  window.addEventListener("popstate", () => { path = location.pathname; });
  const SCROLLERS = [
    [".katex-display", "formula"],
    ["[data-testid='stTable'] > div", "table"],
    ["[data-testid='stFullScreenFrame']:has(> [data-testid='stPlotlyChart'])", "chart"],
    ["[data-testid='stVerticalBlock'][class*='__sideways']", "chart"],  // views/chart.sideways
  ];
  // Streamlit writes a few words of its own in English (a text box's "Press Enter to submit
  // form", a search's "No results"): each is replaced by its words in the page's language.
  const STREAMLIT = "[data-testid='InputInstructions'] > span, "
    + "[role='listbox'][data-empty='true'] [role='option'] span";
  // So are its placeholders and screen-reader names ("Choose an option", "Help for ..."):
  // a box's placeholder, and the names of Streamlit's buttons, sidebar and chips (an input's
  // aria-label is the app's own label, already in the page's language).
  const NAMED = "input[placeholder], button[aria-label], section[aria-label], span[aria-label]";
  const relabel = (el, attr, words) => {
    const said = el.getAttribute(attr);
    let ours = said && (words.labels || {})[said];
    for (const [start, pattern] of Object.entries(words.prefixed || {})) {
      if (!ours && said && said.startsWith(start)) {
        ours = pattern.replace("{item}", said.slice(start.length));
      }
    }
    if (ours && ours !== said) el.setAttribute(attr, ours);
  };
  const translate = () => {
    const all = window.__alWords || {}, words = all.streamlit || {};
    for (const el of document.querySelectorAll(STREAMLIT)) {
      const ours = el.children.length === 0 && words[el.textContent];
      if (ours && ours !== el.textContent) el.textContent = ours;
    }
    for (const el of document.querySelectorAll(NAMED)) {
      relabel(el, el.tagName === "INPUT" ? "placeholder" : "aria-label", all);
    }
  };
  const mark = () => {
    translate();
    const app = document.querySelector("[data-testid='stApp']");  // its shadows' cover colour
    if (app) document.body.style.setProperty("--al-bg", getComputedStyle(app).backgroundColor);
    for (const [selector, key] of SCROLLERS) {
      const name = said(key);
      for (const el of document.querySelectorAll(selector)) {
        const scrolls = el.scrollWidth > el.clientWidth + 1;
        if (scrolls && el.getAttribute("aria-label") !== name) el.setAttribute("aria-label", name);
        if (scrolls === el.hasAttribute("data-al-scrolls")) continue;
        if (scrolls) {
          el.setAttribute("data-al-scrolls", "");
          el.setAttribute("tabindex", "0");
          el.setAttribute("role", "region");
        } else {
          for (const a of ["data-al-scrolls", "tabindex", "role", "aria-label"]) {
            el.removeAttribute(a);
          }
        }
      }
    }
  };
  // A tap on a chart picks what a click picks. Plotly takes the touch for panning and sends
  // no click event for a tap (no plotly_click, so Streamlit's on_select sees nothing);
  // after a tap (one finger, under 10 px and 600 ms) the same point gets the mouse's
  // hover, press and release, which Plotly turns into its click.
  let touch = null;
  document.addEventListener("touchstart", (event) => {
    const t = event.changedTouches[0];
    // the event's own time, not the handler's: a busy page runs handlers late
    touch = event.touches.length === 1 ? {x: t.clientX, y: t.clientY, at: event.timeStamp}
      : null;
  }, {capture: true, passive: true});
  document.addEventListener("touchend", (event) => {
    const drag = event.target.closest && event.target.closest(".stPlotlyChart .nsewdrag");
    const t = event.changedTouches[0];
    if (!drag || !touch || Math.hypot(t.clientX - touch.x, t.clientY - touch.y) > 10
        || event.timeStamp - touch.at > 600) return;
    const at = {clientX: t.clientX, clientY: t.clientY, bubbles: true, cancelable: true,
                view: window};
    setTimeout(() => {  // after Plotly has finished with the touch
      drag.dispatchEvent(new MouseEvent("mousemove", at));
      drag.dispatchEvent(new MouseEvent("mousedown", {...at, button: 0, buttons: 1}));
      document.dispatchEvent(new MouseEvent("mouseup", {...at, button: 0, buttons: 0}));
    }, 0);
  }, {capture: true, passive: true});
  let due = null;
  const soon = () => { if (due === null) due = setTimeout(() => { due = null; mark(); }, 60); };
  new MutationObserver(soon).observe(document.body, {childList: true, subtree: true});
  window.addEventListener("resize", soon);
  soon();
})();
</script>
"""


# The page's language for screen readers and axe (WCAG 3.1.1): Streamlit's page says "en".
# ``lang`` comes from a fixed table (i18n.HTML_LANG, the offered codes), never from the URL.
# The words FRAME's script writes come with it, as JSON from the catalogue (no learner text).
LANG_SCRIPT = (
    '<script>document.documentElement.lang = "{lang}"; window.__alWords = {words};</script>'
)


def words() -> dict[str, object]:
    """What the script writes, in this run's language: the copy buttons' notes, the names
    of regions that scroll sideways, and Streamlit's own English (texts, placeholders,
    screen-reader names) by the words to show."""
    send, apply = _("Press {key}+Enter to send"), _("Press {key}+Enter to apply")
    return {
        "copied": _("Copied."),
        "selected": _("Selected: copy it with Ctrl+C."),
        "formula": _("Formula, scrolls sideways"),
        "table": _("Table, scrolls sideways"),
        "chart": _("Chart, scrolls sideways"),
        "streamlit": {
            "Press Enter to submit form": _("Press Enter to send"),
            "Press Enter to apply": _("Press Enter to apply"),
            **{f"Press {k}+Enter to submit form": send.format(key=k) for k in ("Ctrl", "⌘")},
            **{f"Press {k}+Enter to apply": apply.format(key=k) for k in ("Ctrl", "⌘")},
            "No results": _("No results"),
        },
        "labels": {
            "Choose an option": _("Choose an option"),
            "Choose options": _("Choose options"),
            "No options to select": _("No options to select"),
            "Open": _("Open the list"),
            "Close": _("Close"),
            "Clear all": _("Clear all"),
            "Clear value": _("Clear value"),
            "Selected values": _("Selected values"),
            "Sidebar": _("Sidebar"),
            "Collapse sidebar": _("Collapse sidebar"),
            "Expand sidebar": _("Expand sidebar"),
            "Increment": _("Increment"),
            "Decrement": _("Decrement"),
        },
        "prefixed": {"Remove ": _("Remove {item}"), "Help for ": _("Help for {item}")},
    }


def words_json() -> str:
    """``words()`` as a script literal: '<' escaped, so no text closes the script."""
    return json.dumps(words(), ensure_ascii=False).replace("<", "\\u003c")


def frame(lang: str = "en") -> None:
    """The app-wide CSS and the phone menu script (see FRAME), the page's ``lang`` and the
    words the script writes."""
    assert lang.replace("-", "").isalnum(), lang
    script = LANG_SCRIPT.format(lang=lang, words=words_json())
    st.html(FRAME + script, unsafe_allow_javascript=True)
