"""The session's language: read once from the address or the browser, then the session's.

It lives next to the address it is read from and written to (``url``); ``state`` asks it
for a session's first language and for the ``?lang=`` every link carries, and ``lang``
draws the picker and connects it to ``attention_ui.i18n``.
"""

from __future__ import annotations

import streamlit as st

from attention_ui import i18n
from attention_ui.frame.keys import LANG, LANGUAGE, LANGUAGE_PICKED
from attention_ui.frame.url import set_url_value, url_value


def first_language() -> str:
    """A session's first language: the link's ``?lang=``, else the browser's language (the
    first visit), else English; only a language the app offers (i18n.offered)."""
    for wanted in (url_value(LANG), st.context.locale):
        code = i18n.match(wanted)
        if code is not None:
            return code
    return i18n.SOURCE


def follow_language() -> None:
    """Back or Forward to an address in another (offered) language speaks it again."""
    code = i18n.match(url_value(LANG))
    if code is not None:
        st.session_state[LANGUAGE] = code


def language() -> str:
    """The language this session speaks (an offered code; English before the first run)."""
    return st.session_state.get(LANGUAGE, i18n.SOURCE)


def choose_language(code: str) -> None:
    """The learner's pick: this session speaks ``code`` from now on, and its address says so
    (a link copied from it opens in the same language, unless the reader picks another)."""
    if code not in i18n.offered():
        return
    st.session_state[LANGUAGE] = code
    st.session_state[LANGUAGE_PICKED] = True
    set_url_value(LANG, code)


def language_query() -> dict[str, str]:
    """``{"lang": code}`` for links, when the session speaks other than English or its
    learner picked a language (an English link stays as it was)."""
    code = language()
    if code != i18n.SOURCE or st.session_state.get(LANGUAGE_PICKED):
        return {LANG: code}
    return {}
