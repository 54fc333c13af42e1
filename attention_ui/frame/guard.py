"""The app's safety net: whatever fails, the navigation stays and the page says what to do.

An exception can reach the learner (or a class watching a projector) from three places,
and each has its own net here:

- a page body: app.py runs every page through ``run_page``. Without it the script stops,
  the learner gets a traceback and the sidebar, drawn after the page, never appears.
- a widget callback (``callback``): Streamlit runs callbacks before the script, so one that
  raises stops the run before app.py draws anything: a traceback and no sidebar at all.
  Every on_change/on_click of the app is wrapped (tests/pages/test_guard.py checks that
  each registered callback is); the failure is logged and the next page run says so.
- a fragment (``fragment``, used instead of st.fragment): a fragment rerun redraws only
  the fragment, and Streamlit puts the traceback inside it.

The message never holds the exception's text: that could be learner text, and it is
for the server's log.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec

import streamlit as st
from streamlit.logger import get_logger
from streamlit.navigation.page import StreamlitPage
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attention_core import DEFAULT_PRESET
from attention_ui.frame import examples, keys
from attention_ui.i18n import N_, _

P = ParamSpec("P")
LOG = get_logger(__name__)
RESET_KEY = "crash_reset"
NOTICE = N_(
    "**Something went wrong on this page**, so part of it is missing. The menu in the "
    "sidebar still works: open another page, undo your last change, or start again from "
    "the default example. (The details are in the server's log.)"
)
CALLBACK_NOTICE = N_(
    "**Something went wrong with your last change**, so it may not have been applied. "
    "Check the values on this page, or use the sidebar to undo or start again. (The "
    "details are in the server's log.)"
)
GUARDED = "__attention_lab_guarded__"  # set on wrapped callbacks, checked by the tests


def run_page(page: StreamlitPage) -> None:
    """``page.run()``, turning an exception into a short message (the traceback goes to the log).

    st.rerun, st.stop and st.switch_page raise BaseException subclasses, so they pass through.
    """
    if st.session_state.pop(keys.CALLBACK_FAILED, False):
        st.warning(_(CALLBACK_NOTICE), icon=":material/warning:")
    try:
        page.run()
    except Exception:
        LOG.exception("page %r failed", page.url_path or "start")
        _notice()


def _notice() -> None:
    st.error(_(NOTICE), icon=":material/error:")
    st.button(_("Start again from the default example"), key=RESET_KEY, on_click=_reset)


def callback(fn: Callable[P, object]) -> Callable[P, None]:
    """A widget callback that logs an exception instead of raising it (see the module doc).

    Control flow (st.rerun, st.switch_page) is a BaseException and passes through.
    """

    @functools.wraps(fn)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except Exception:
            LOG.exception("callback %s failed", fn.__qualname__)
            st.session_state[keys.CALLBACK_FAILED] = True

    setattr(guarded, GUARDED, True)
    return guarded


# Run before and after a fragment's own rerun, which skips app.py: what app.py does at the
# start and the end of a full run and a fragment's picks also need (a live teacher's lab
# pick reaches the class).
BEFORE_FRAGMENT: list[Callable[[], None]] = []
AFTER_FRAGMENT: list[Callable[[], None]] = []


def before_fragment_runs(hook: Callable[[], None]) -> None:
    """Call ``hook`` at the start of every fragment's own rerun (registered once)."""
    if hook not in BEFORE_FRAGMENT:
        BEFORE_FRAGMENT.append(hook)


def after_fragment_runs(hook: Callable[[], None]) -> None:
    """Call ``hook`` at the end of every fragment's own rerun (registered once)."""
    if hook not in AFTER_FRAGMENT:
        AFTER_FRAGMENT.append(hook)


def fragment(fn: Callable[P, None]) -> Callable[P, None]:
    """st.fragment, with an exception in the body shown as the page's notice in its place."""

    @functools.wraps(fn)
    def body(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            own = own_fragment_run()
            for hook in BEFORE_FRAGMENT if own else ():
                hook()
            fn(*args, **kwargs)
            if own:
                for hook in AFTER_FRAGMENT:
                    hook()
        except Exception:
            LOG.exception("fragment %s failed", fn.__qualname__)
            # No reset button: two failing fragments on one page would share its key.
            st.error(_(NOTICE), icon=":material/error:")

    return st.fragment(body)


def own_fragment_run() -> bool:
    """Whether this run is a fragment's own rerun (not the page's full run). Streamlit has
    no public way to ask: ``fragment_ids_this_run`` is its script context's (README)."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.fragment_ids_this_run)


@callback
def _reset() -> None:
    examples.load(DEFAULT_PRESET)
