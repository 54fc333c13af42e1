"""Small Streamlit building blocks every page uses: header, formula, navigation, code, export."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from attention_ui.pages import BY_KEY, neighbours

HIGHLIGHT = "#D55E00"


def formula(part: str | None = None) -> str:
    """LaTeX of softmax(Q K^T / sqrt(d_k) + M) V with ``part`` coloured (one per stage)."""
    pieces = {
        "softmax": r"\mathrm{softmax}",
        "scores": r"QK^\top",
        "scaling": r"\tfrac{1}{\sqrt{d_k}}",
        "mask": r"+\,M",
        "output": r"V",
    }
    if part in pieces:
        pieces[part] = rf"\textcolor{{{HIGHLIGHT}}}{{\boldsymbol{{{pieces[part]}}}}}"
    body = (
        rf"\mathrm{{Attention}}(Q,K,V) = {pieces['softmax']}\!\left({pieces['scaling']}\,"
        rf"{pieces['scores']} {pieces['mask']}\right) {pieces['output']}"
    )
    if part == "proj":
        proj = rf"\textcolor{{{HIGHLIGHT}}}{{Q = X W_Q,\; K = X W_K,\; V = X W_V}}"
        body = rf"{proj} \quad\Rightarrow\quad {body}"
    return body


def page_header(key: str, part: str | None = None, lead: str = "") -> None:
    """Title, the formula with this page's part highlighted, and a one-line lead."""
    st.title(BY_KEY[key].title)
    if part is not None:
        st.latex(formula(part))
    if lead:
        st.markdown(lead)


def link(path: str, label: str, container: object = st, **kwargs: object) -> None:
    """st.page_link that carries the scenario along (``?s=``).

    The target page then starts with the URL it would write anyway, so following a link
    adds one browser-history entry, not two, and Back works in one press.
    """
    from attention_ui import state  # imported late: widgets sit beside state

    query = state.share_query() if state.link_fits() else None
    container.page_link(path, label=label, query_params=query, **kwargs)


def prev_next(key: str) -> None:
    """Previous / Next links at the bottom of a page, in reading order."""
    prev, nxt = neighbours(key)
    st.divider()
    left, _, right = st.columns([2, 3, 2])
    if prev is not None:
        link(prev.path, f"← {prev.title}", left)
    if nxt is not None:
        link(nxt.path, f"{nxt.title} →", right)


def show_code(*funcs: Callable) -> None:
    """An expander with the real source of the core functions behind a stage."""
    with st.expander("Show the code"):
        st.caption("The exact functions from `attention_core` that computed this page.")
        for f in funcs:
            st.code(inspect.getsource(f), language="python")


def csv_download(frame: pd.DataFrame, name: str, key: str) -> None:
    st.download_button(
        f"Download {name} as CSV",
        frame.to_csv().encode(),
        file_name=f"{name}.csv",
        mime="text/csv",
        key=key,
        icon=None,
    )


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$])")
# Bare URLs, www. names and e-mail addresses become links even when escaped; an invisible
# word joiner inside '://', before an '@' between words and after 'www' stops that.
_AUTOLINK = re.compile(r"(?i)(?<=[a-z0-9])(?=://)|(?<=\w)(?=@\w)|(?<=\bwww)(?=\.)")


def md_escape(text: str) -> str:
    """User text made inert for st.markdown: no formatting, links, HTML or LaTeX."""
    text = _AUTOLINK.sub("\u2060", text)
    return _MD_SPECIAL.sub(r"\\\1", text)


def shape(M: np.ndarray) -> str:
    """'6 × 3' for a (6, 3) array."""
    return " × ".join(str(s) for s in np.shape(M))


def matrix_frame(M: np.ndarray, rows: list[str], cols: list[str]) -> pd.DataFrame:
    return pd.DataFrame(np.atleast_2d(M), index=rows, columns=cols)


def stale_notice(shown_here: tuple[str, ...] = ()) -> None:
    """Say when the latest edit is not in use; ``shown_here``: errors this page shows itself."""
    from attention_ui import state  # widgets sit beside state; imported late to keep this light

    err = state.input_error()
    if err is not None and err.where not in shown_here:
        st.warning(
            "Your latest edit has a problem, so this page still shows the last valid "
            f"scenario. The problem: {md_escape(err.message)}"
        )


def bad_link_value(param: str, ok: Callable[[str], bool], what: str) -> None:
    """Say so when a link's ``?param=`` holds a value the page cannot use (it shows the default)."""
    raw = st.query_params.get(param)
    if raw is not None and not ok(raw):
        st.caption(
            f"The link's {param} = {md_escape(raw[:20])} is not {what}, so the default is shown."
        )


def error(message: str) -> None:
    """An error box whose text may quote what the learner typed: shown inert, never as markup."""
    st.error(md_escape(message))
