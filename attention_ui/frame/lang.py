"""The language picker, and the hook that makes every ``_()`` speak the session's language.

The session's language lives in ``language`` (next to the address it is read from and
written to, ``url``); this module connects it to ``attention_ui.i18n`` once per process and
draws the picker.
"""

from __future__ import annotations

import streamlit as st

from attention_ui import i18n
from attention_ui.frame import guard, language
from attention_ui.i18n import _

PICKERS = ("lang_sidebar", "lang_start")  # the sidebar's and the Start page's

i18n.set_language_source(language.language)  # the session's language has one owner


def picker(key: str) -> None:
    """A select box of the offered languages, each in its own name (none when only English
    is offered). A pick reruns the page in the new language and writes ``?lang=``."""
    codes = i18n.offered()
    if len(codes) < 2:
        return
    here = codes.index(language.language()) if language.language() in codes else 0
    st.selectbox(
        _("Language"),
        codes,
        index=0 if language.in_step(key) else here,  # a value in the session wins
        key=key,
        format_func=i18n.NAMES.__getitem__,
        on_change=_on_pick,
        args=(key,),
    )


@guard.callback
def _on_pick(key: str) -> None:
    language.choose_language(st.session_state[key])  # the other picker follows when drawn


def html_lang() -> str:
    """The page's ``lang`` attribute for this session (a fixed table, never learner text)."""
    return i18n.html_lang(language.language())
