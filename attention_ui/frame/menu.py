"""The sidebar's page menu as one element: every page by section, as links carrying ``?s=``.

Why not one st.page_link per page: every full rerun re-sends and redraws every element,
and the menu's 13 links, 3 headers and their containers were 20 of the 63 messages a
Scaling toggle sent. A Streamlit v2 component draws the same links from one message
(with the other cuts of issue 11: 37 messages, and the browser's React and Streamlit
frontend time per toggle 22 -> 13 ms and 46 -> 27 ms; bench/RESULTS.md).

A click is handled like st.page_link's: no page load, one browser-history entry. The
component reports which page was asked for (a trigger value); app.py then switches to it
with the scenario in ``?s=``. Each link's ``href`` also carries ``?s=``, so opening it in a
new tab or copying it keeps the scenario.

Nothing the learner typed reaches this HTML: titles and paths are the app's own, ``?s=``
is base64url, and the script builds the links with textContent and setAttribute.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from attention_ui import i18n
from attention_ui.frame import keys
from attention_ui.frame.pages import ALL_PAGES
from attention_ui.i18n import _

KEY = "nav"  # the element's key: its container is .st-key-nav (tests and bench find links there)
GO = "go"  # the trigger: the url path of the page asked for

CSS = """
.al-menu { display: flex; flex-direction: column; gap: 0.125rem; }
.al-menu .al-section { font-weight: 600; margin: 0.75rem 0 0.25rem 0; }
.al-menu .al-section:first-child { margin-top: 0; }
.al-menu a {
  display: block; padding: 0.25rem 0.5rem; border-radius: 0.5rem;
  color: var(--st-text-color); text-decoration: none; line-height: 1.6;
}
.al-menu a:hover { background: var(--st-secondary-background-color); }
.al-menu a[aria-current="page"] {
  background: var(--st-secondary-background-color); font-weight: 600;
}
"""

# Called on every rerun with the new data: rebuilt only when the data changed.
JS = """
export default function ({ data, parentElement, setTriggerValue }) {
  const json = JSON.stringify(data);
  if (parentElement.__alMenu === json) return;
  parentElement.__alMenu = json;
  const menu = document.createElement("nav");
  menu.className = "al-menu";
  menu.setAttribute("aria-label", data.label);
  for (const item of data.items) {
    if (item.section) {
      const head = document.createElement("div");
      head.className = "al-section";
      head.textContent = item.section;
      menu.appendChild(head);
    }
    const link = document.createElement("a");
    link.textContent = item.title;
    link.setAttribute("href", item.href);
    if (item.current) link.setAttribute("aria-current", "page");
    link.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();  // a new tab keeps the href; a plain click stays in the app
      setTriggerValue("go", item.path);
    });
    menu.appendChild(link);
  }
  const old = parentElement.querySelector(":scope > .al-menu");  // the CSS sits beside it
  if (old) old.replaceWith(menu); else parentElement.appendChild(menu);
}
"""

_MENU = st.components.v2.component("attention_lab.menu", css=CSS, js=JS, isolate_styles=False)


def render(current: str, query: dict[str, str] | None) -> None:
    """The menu: ``current`` is the open page's url path, ``query`` what each link carries.

    A click reruns the app; the page asked for is then ``requested()``.
    """
    suffix = f"?{urlencode(query)}" if query else ""
    # Relative to the open page's address, so they also work under a base URL path; Start
    # is the app's root ("./"), where a bare "?s=" would mean the open page.
    items, section = [], None
    for spec in ALL_PAGES:
        head = _(spec.section) if spec.section != section else None
        section = spec.section
        items.append({"section": head, "title": _(spec.title), "path": spec.key,
                      "href": f"{'./' if spec.key == 'start' else spec.key}{suffix}",
                      "current": spec.key == current})  # fmt: skip
    _MENU(key=KEY, data={"items": items, "label": _("Pages")}, on_go_change=lambda: None)


def requested() -> str | None:
    """The url path of the page the menu asked for in this run, if a link was clicked."""
    result = st.session_state.get(KEY)
    return getattr(result, GO, None) if result is not None else None


def pages() -> dict[str, st.Page]:
    """Every page as st.navigation takes it, by key, titled in the session's language.

    Made once a session and language, not on every run: 16 st.Page objects (each resolves
    and checks its script's path) were about 4 % of the server's CPU while a class of 60
    followed page changes (py-spy, bench/RESULTS.md). Never shared between sessions:
    st.navigation marks the page it returns as the one the run may call, on the object.
    """
    language = i18n.language()
    kept = st.session_state.get(keys.PAGES)
    if kept is None or kept[0] != language:
        made = {
            spec.key: st.Page(
                spec.path, title=_(spec.title), url_path=spec.key, default=spec.key == "start"
            )
            for spec in ALL_PAGES
        }
        kept = st.session_state[keys.PAGES] = (language, made)
    return kept[1]
