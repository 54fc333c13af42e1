"""Attention Lab: the entry point. It only frames and routes; pages live in app_pages/.

Page scripts are in app_pages/, not pages/: with a pages/ folder beside app.py,
Streamlit 1.67 starts in its legacy pages-directory mode until st.navigation first
runs, so the first deep link on a fresh server would skip this file (see README).
"""

import streamlit as st

from attention_ui.frame import guard, lang, look, menu, sidebar, state
from attention_ui.frame.pages import ALL_PAGES, BY_KEY
from attention_ui.live import session as live
from attention_ui.live import teacher, teaching
from attention_ui.live import views as live_views

if state.page_config_due():  # once a session: the browser keeps it
    st.set_page_config(
        page_title="Attention Lab",
        page_icon=look.FAVICON,
        layout="wide",
        initial_sidebar_state="auto",  # open on a wide screen, closed on a phone's
    )
state.init_state()
room_page = live.arrive()  # ?teach= / ?join=; a follower takes the room's scenario and step

pages = menu.pages()
sections: dict[str, list] = {}
for spec in ALL_PAGES:
    sections.setdefault(spec.section, []).append(pages[spec.key])
page = st.navigation(sections, position="hidden")  # the sidebar draws its own menu
state.on_page_enter(page.url_path or "start")
spec = BY_KEY[state.current_page()]
asked = menu.requested()
linked = state.linked_page()  # the page a short link (?l=) named, on its first run only
if asked in pages and asked != state.current_page():
    live.explore()  # a following student who opens another page explores on their own
    st.switch_page(pages[asked], query_params=state.share_query() if state.link_fits() else None)
elif room_page in pages and room_page != state.current_page() and not spec.console:
    # the teacher (or, for a teacher's projector, their console) took the class elsewhere;
    # the page's picks went into its widgets' keys (a bound widget's own parameter may not
    # be set by hand: it writes the address itself)
    st.switch_page(pages[room_page], query_params=state.share_query())
elif linked in pages and linked != state.current_page():
    st.switch_page(pages[linked], query_params=state.share_query())
live.stay_or_explore(state.current_page())  # a student who left the room's page explores
teaching.publish_early()  # a live teacher's step or pick: the class draws it with the projector
guard.before_fragment_runs(teaching.publish_early)  # the same for a pick in a fragment
guard.after_fragment_runs(teaching.publish_current)  # and what the fragment's run changed
look.frame(lang.html_lang())  # after the switches: a run that switches page sends nothing

# The sidebar is filled after the page ran: its links carry the scenario as the page
# left it (a grid edit applied during this run included), and it still shows on top.
# A page that fails still gets its sidebar: guard shows a message, not a traceback.
sidebar_slot = st.sidebar.container() if spec.sidebar else None
teacher.teacher_cookie()  # a reload or a new tab of the teacher's browser drives again
bar = teacher.teacher_bar if spec.sidebar and not spec.console else None  # a strip, a console
live_views.follow_bar(spec.watches, bar=bar)
teacher.join_screen()  # over the page, on a live teacher's projector, when the room says
if not live_views.pause_screen():
    guard.run_page(page)
sidebar.toasts()  # a page without a sidebar still says what happened (a class that ended)
if sidebar_slot is not None:
    with sidebar_slot:
        sidebar.render()
teaching.publish_current()  # the teacher's page, step, scenario and picks, if they changed
state.sync_url()
