"""Attention Lab: the entry point. It only frames and routes; pages live in app_pages/.

Page scripts are in app_pages/, not pages/: with a pages/ folder beside app.py,
Streamlit 1.67 starts in its legacy pages-directory mode until st.navigation first
runs, so the first deep link on a fresh server would skip this file (see README).
"""

import streamlit as st

from attention_ui.frame import guard, lang, look, menu, sidebar, state
from attention_ui.frame.pages import ALL_PAGES, BY_KEY
from attention_ui.live import hooks

if state.page_config_due():  # once a session: the browser keeps it
    st.set_page_config(
        page_title="Attention Lab",
        page_icon=look.FAVICON,
        layout="wide",
        initial_sidebar_state="auto",  # open on a wide screen, closed on a phone's
    )
state.init_state()
asked = menu.requested()
room_page = hooks.arrive(asked)  # a seat from ?teach= / ?join=; the room's page

pages = menu.pages()
sections: dict[str, list] = {}
for spec in ALL_PAGES:
    sections.setdefault(spec.section, []).append(pages[spec.key])
page = st.navigation(sections, position="hidden")  # the sidebar draws its own menu
state.on_page_enter(page.url_path or "start")
spec = BY_KEY[state.current_page()]
linked = state.linked_page()  # the page a short link (?l=) named, on its first run only
if asked in pages and asked != state.current_page():
    st.switch_page(pages[asked], query_params=state.share_query() if state.link_fits() else None)
elif room_page in pages and room_page != state.current_page() and not spec.console:
    # the teacher (or, for a teacher's projector, their console) took the class elsewhere;
    # the page's picks went into its widgets' keys (a bound widget's own parameter may not
    # be set by hand: it writes the address itself)
    st.switch_page(pages[room_page], query_params=state.share_query())
elif linked in pages:  # even the same page: its bound widgets read a run's first address
    st.switch_page(pages[linked], query_params=state.share_query(state.page_query(linked)))
look.frame(lang.html_lang())  # after the switches: a run that switches page sends nothing

# The sidebar is filled after the page ran: its links carry the scenario as the page
# left it (a grid edit applied during this run included), and it still shows on top.
# A page that fails still gets its sidebar: guard shows a message, not a traceback.
sidebar_slot = st.sidebar.container() if spec.sidebar else None
if hooks.before_page(spec):  # False: the class is paused, its pause screen shows
    guard.run_page(page)
sidebar.toasts()  # a page without a sidebar still says what happened (a class that ended)
if sidebar_slot is not None:
    with sidebar_slot:
        sidebar.render()
hooks.after_page()
state.sync_url()
