"""The language picker, and the hook that makes every ``_()`` speak the session's language.

The session's language lives in ``language`` (next to the address it is read from and
written to, ``url``); this module connects it to ``attention_ui.i18n`` once per process and
draws the picker.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attention_ui import i18n
from attention_ui.frame import guard, keys, language
from attention_ui.i18n import _

PICKERS = ("lang_sidebar", "lang_start")  # the sidebar's and the Start page's


def _session_language() -> str:
    """The language of the session whose script runs in this thread (English outside one)."""
    if get_script_run_ctx(suppress_warning=True) is None:
        return i18n.SOURCE
    return st.session_state.get(keys.LANGUAGE, i18n.SOURCE)


i18n.set_language_source(_session_language)


def picker(key: str) -> None:
    """A select box of the offered languages, each in its own name (none when only English
    is offered). A pick reruns the page in the new language and writes ``?lang=``."""
    codes = i18n.offered()
    if len(codes) < 2:
        return
    st.selectbox(
        _("Language"),
        codes,
        index=codes.index(language.language()) if language.language() in codes else 0,
        key=key,
        format_func=i18n.NAMES.__getitem__,
        on_change=_on_pick,
        args=(key,),
    )


@guard.callback
def _on_pick(key: str) -> None:
    language.choose_language(st.session_state[key])
    for other in PICKERS:  # the other picker shows the new language when it is drawn
        if other != key:
            st.session_state.pop(other, None)


def html_lang() -> str:
    """The page's ``lang`` attribute for this session (a fixed table, never learner text)."""
    return i18n.html_lang(language.language())
