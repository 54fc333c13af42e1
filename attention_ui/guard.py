"""The app's safety net: a page that fails still leaves the navigation and says what to do.

app.py runs every page through ``run_page``. Without it, an exception in a page body
stops the whole script: the learner (or a class watching a projector) gets a traceback
and the sidebar, drawn after the page, never appears.
"""

from __future__ import annotations

import streamlit as st
from streamlit.logger import get_logger
from streamlit.navigation.page import StreamlitPage

from attention_core import DEFAULT_PRESET

LOG = get_logger(__name__)
RESET_KEY = "crash_reset"
NOTICE = (
    "**Something went wrong on this page**, so part of it is missing. The menu in the "
    "sidebar still works: open another page, undo your last change, or start again from "
    "the default example. (The details are in the server's log.)"
)


def run_page(page: StreamlitPage) -> None:
    """``page.run()``, turning an exception into a short message (the traceback goes to the log).

    st.rerun, st.stop and st.switch_page raise BaseException subclasses, so they pass through.
    """
    try:
        page.run()
    except Exception:
        LOG.exception("page %r failed", page.url_path or "start")
        st.error(NOTICE, icon=":material/error:")
        st.button("Start again from the default example", key=RESET_KEY, on_click=_reset)


def _reset() -> None:
    from attention_ui.sidebar import load_example  # late: the sidebar imports the pages

    load_example(DEFAULT_PRESET)
