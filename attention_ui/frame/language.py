"""The session's language: its one owner. Read once from the address or the browser, then the
session's own; every ``_()`` asks ``language()`` (through the hook ``lang`` installs).

It lives next to the address it is read from and written to (``url``); ``state`` asks it
for a session's first language and for the ``?lang=`` every link carries, and ``lang``
draws the picker. The widgets whose options are ids shown in this language keep their
browser's value in step with it (``relabelled``).
"""

from __future__ import annotations

from collections.abc import Collection

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attention_ui import i18n
from attention_ui.frame.keys import LABELS_SENT, LANG, LANGUAGE, LANGUAGE_PICKED
from attention_ui.frame.url import set_url_value, url_value


def settle_language(history: bool) -> None:
    """At the top of every run: a new session's first language, or the address's again
    after the browser's Back or Forward (``history``)."""
    if LANGUAGE not in st.session_state:
        st.session_state[LANGUAGE] = first_language()
    elif history:
        follow_language()


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
    """The language this session speaks (an offered code; English before the first run, and
    outside a session's run: a test, the warm-up, a thread of the server's own)."""
    if get_script_run_ctx(suppress_warning=True) is None:
        return i18n.SOURCE
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


def relabelled(key: str) -> str:
    """``key``, for a widget whose options are ids shown by their labels in this language
    (a selectbox, multiselect, radio or segmented control with a translated ``format_func``).

    Streamlit's browser holds and sends back the *label*, not the id (``SelectboxSerde``,
    ``MultiSelectSerde``: ``string_value``/``string_array_value``), and keeps the label it
    was given for as long as the widget's key stays on the page. After a language switch the
    server no longer knows that label: it hands the label itself to the widget's callback
    (a console once wrote "3 · Two keys" into a room's record: issue 41). So on the first run
    in a new language the widget's value (an id) is assigned again: Streamlit then sends it
    labelled in this language, and the browser holds the new label."""
    ss = st.session_state
    sent = ss.setdefault(LABELS_SENT, {})
    if sent.get(key, language()) != language() and key in ss:
        ss[key] = ss[key]
    sent[key] = language()
    return key


def in_step(key: str) -> bool:
    """Before a language picker ``key`` is drawn: make it show the session's language (the
    other picker, or Back, may have changed it); True when it was behind. Its browser kept
    the old pick, and sent it again with the next click (issue 41: Start's two pickers
    disagreed, and *1. Inputs* or *Back to the teacher* went back to the old language)."""
    ss = st.session_state
    if key in ss and ss[key] != language():
        ss[key] = language()
        return True
    return False


def picked_id(key: str, known: Collection[str]) -> str | None:
    """What a ``relabelled`` selectbox or radio holds, for its callback: one of ``known``,
    or None (a label the browser kept from another language; never to be stored)."""
    value = st.session_state.get(key)
    return value if isinstance(value, str) and value in known else None


def picked_ids(key: str, known: Collection[str]) -> list[str] | None:
    """What a ``relabelled`` multiselect holds, for its callback: ids of ``known`` only, or
    None when anything else is in it (a label from another language: nothing is stored)."""
    value = st.session_state.get(key)
    if not isinstance(value, list | tuple):
        return None
    return list(value) if all(isinstance(v, str) and v in known for v in value) else None
