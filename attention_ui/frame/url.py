"""The address: the only place that touches ``st.query_params``.

Every parameter is declared once (``keys.URL_PARAMS``); ``state`` (the scenario's ``?s=``,
a short link's ``?l=``) and ``language`` (``?lang=``) read and write it through here.
"""

from __future__ import annotations

import streamlit as st

from attention_ui.frame.keys import URL_KEY, URL_PARAMS


def url_value(param: str) -> str | None:
    """The raw value of ``?param=`` in the address, or None."""
    assert param in URL_PARAMS, f"undeclared URL parameter {param!r}"
    return st.query_params.get(param)


def set_url_value(param: str, value: str) -> None:
    """Write ``?param=value`` into the address, only when it differs (each write is a
    browser-history entry)."""
    assert param in URL_PARAMS, f"undeclared URL parameter {param!r}"
    if st.query_params.get(param) != value:
        st.query_params[param] = value


def resend_url() -> None:
    """Send the address again as it stands (the scenario's parameter rewritten), for a browser
    that missed the run that changed it: Streamlit sends the address only when it changes."""
    if URL_KEY in st.query_params:
        st.query_params[URL_KEY] = st.query_params[URL_KEY]


def drop_url_value(param: str) -> None:
    """Take ``?param=`` out of the address (a secret that must not stay in the address bar)."""
    assert param in URL_PARAMS, f"undeclared URL parameter {param!r}"
    if param in st.query_params:
        del st.query_params[param]
