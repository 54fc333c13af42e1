"""Attention Lab: the entry point. It only frames and routes; pages live in app_pages/.

Page scripts are in app_pages/, not pages/: with a pages/ folder beside app.py,
Streamlit 1.67 starts in its legacy pages-directory mode until st.navigation first
runs, so the first deep link on a fresh server would skip this file (see README).
"""

import streamlit as st

from attention_ui.frame import guard, look, menu, sidebar, state
from attention_ui.frame.pages import ALL_PAGES

if state.page_config_due():  # once a session: the browser keeps it
    st.set_page_config(
        page_title="Attention Lab",
        page_icon=look.FAVICON,
        layout="wide",
        initial_sidebar_state="auto",  # open on a wide screen, closed on a phone's
    )
look.frame()
state.init_state()

pages = {
    spec.key: st.Page(spec.path, title=spec.title, url_path=spec.key, default=spec.key == "start")
    for spec in ALL_PAGES
}
sections: dict[str, list] = {}
for spec in ALL_PAGES:
    sections.setdefault(spec.section, []).append(pages[spec.key])
page = st.navigation(sections, position="hidden")  # the sidebar draws its own menu
state.on_page_enter(page.url_path or "start")
if (asked := menu.requested()) in pages and asked != state.current_page():
    st.switch_page(pages[asked], query_params=state.share_query() if state.link_fits() else None)

# The sidebar is filled after the page ran: its links carry the scenario as the page
# left it (a grid edit applied during this run included), and it still shows on top.
# A page that fails still gets its sidebar: guard shows a message, not a traceback.
sidebar_slot = st.sidebar.container()
guard.run_page(page)
with sidebar_slot:
    sidebar.render()
state.sync_url()
