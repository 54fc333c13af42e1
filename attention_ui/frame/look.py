"""How the page looks on this screen: the theme the figures follow, and phone-sized screens.

Figures are pure functions of their data and a ``figures.Palette``; this module decides
which palette (from the browser's theme) and whether the screen is a phone's, from what
Streamlit tells the server about the browser (st.context).
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import streamlit as st

from attention_ui.draw.figures import LIGHT, PALETTES, Palette

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
    """Whether the browser is a phone's (its user agent says so): figures print fewer digits."""
    agent = st.context.headers.get("User-Agent") or ""
    return bool(_PHONE.search(agent))


# Static CSS and script of our own (no learner text in them), added once per run by app.py.
# - Formulas wider than a phone scroll sideways instead of being cut at the right edge.
# - The Start page's recipe: its boxes sit in a row with → between them, and stack on a
#   phone (Streamlit stacks columns below 640 px), where the arrows between them point down.
# - Previous/Next (widgets.prev_next) are links 44 px tall at least, a touch target on a phone
#   (WCAG 2.5.5; Streamlit draws a page link about 28 px tall).
# - Streamlit's own sidebar menu closes itself after a tap on a phone, where the sidebar
#   covers the page; the app draws its own menu (attention_ui.frame.menu, links with ?s=), so the
#   script does the same for it: below Streamlit's "md" breakpoint (768 px), a tap on a
#   sidebar link also presses the sidebar's close button.
# - A page switched to opens at its top (Streamlit keeps the last page's scroll offset).
# - The share links' copy buttons (sidebar.copy_box) copy to the clipboard, or select the link
#   where the browser has no clipboard API (a page served over plain http on a LAN).
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
@media (max-width: 640px) {
  [class*="st-key-recipe_right_"] { display: none; }
  [class*="st-key-recipe_down_"] { display: flex; }
  [class*="st-key-recipe_down_"] h3 { text-align: center; }
  .katex-display > .katex { font-size: 1.05em; }
  [data-testid="stFullScreenFrame"]:has(> [data-testid="stPlotlyChart"]) { overflow-x: auto; }
}
</style>
<script>
(() => {
  if (window.__attentionLabNav) return;  // once per page load, however many reruns
  window.__attentionLabNav = true;
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
  const shareUrl = () => {
    const url = new URL(location.href);
    ["teach", "join", "l"].forEach((p) => url.searchParams.delete(p));
    return url.searchParams.has("s") ? url.toString() : null;
  };
  const follow = () => {
    const url = shareUrl();
    if (!url) return;
    document.querySelectorAll("input.al-link[data-live]").forEach((b) => { b.value = url; });
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
    if (note) note.textContent = copied ? "Copied." : "Selected: copy it with Ctrl+C.";
  });
  for (const name of ["pushState", "replaceState"]) {
    const original = history[name].bind(history);
    history[name] = (...args) => { const r = original(...args); toTop(); follow(); return r; };
  }
  window.addEventListener("popstate", () => { path = location.pathname; });
})();
</script>
"""


def frame() -> None:
    """The app-wide CSS and the phone menu script (see FRAME)."""
    st.html(FRAME, unsafe_allow_javascript=True)
