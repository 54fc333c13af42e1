"""Small Streamlit building blocks every page uses: header, formula, navigation, code, export."""

from __future__ import annotations

import functools
import inspect
import math
import re
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import csv_rows
from attention_ui.draw.text import md_escape
from attention_ui.frame import grids, language, look
from attention_ui.frame.pages import BY_KEY, neighbours
from attention_ui.i18n import N_, _
from attention_ui.i18n.texts import tr
from attention_ui.stages.registry import Stage


def page_header(key: str, lead: str = "") -> None:
    """The page's title, the messages waiting for it, and a lead paragraph."""
    st.title(_(BY_KEY[key].title))
    notices()
    if lead:
        st.markdown(lead)


def stage_header(stage: Stage) -> None:
    """A walkthrough page's top: title, the messages waiting for it, the formula with its part
    highlighted, the explanation."""
    st.title(_(stage.title))
    notices()
    if stage.highlight is not None:
        st.latex(stage.formula(stacked=look.phone(), colour=look.palette().accent))
    st.markdown(_(stage.long))


def notices() -> None:
    """What the click that opened this page did (``state.notice``), under the title: in the
    page's flow, where it covers nothing (a toast sat over the figures' colour bars)."""
    from attention_ui.frame import state  # imported late: widgets sit beside state

    for message in state.pop_notices():
        st.success(md_escape(message), icon=":material/check_circle:")


def link(path: str, label: str, container: object = st, **kwargs: object) -> None:
    """st.page_link that carries the scenario along (``?s=``).

    The target page then starts with the URL it would write anyway, so following a link
    adds one browser-history entry, not two, and Back works in one press.
    """
    from attention_ui.frame import state  # imported late: widgets sit beside state

    query = state.share_query() if state.link_fits() else None
    container.page_link(path, label=label, query_params=query, **kwargs)


PREV_NEXT = "prev_next"


def prev_next(key: str) -> None:
    """Previous / Next links at the bottom of a page, in reading order."""
    prev, nxt = neighbours(key)
    st.divider()
    # One horizontal row (one element, not columns: three fewer for the browser to redraw
    # on every rerun); Previous on the left, Next on the right, also when alone.
    row = st.container(
        horizontal=True,
        horizontal_alignment="right" if prev is None else "distribute",
        key=PREV_NEXT,  # look.FRAME makes its links 44 px tall: a thumb's target on a phone
    )
    if prev is not None:
        link(prev.path, f"← {_(prev.title)}", row)
    if nxt is not None:
        link(nxt.path, f"{_(nxt.title)} →", row)


def choose_section(label: str, names: Sequence[str], key: str, default: str | None = None,
                   format_func: Callable[[str], str] = str) -> str:  # fmt: skip
    """One of several sections, chosen in a row of options (a segmented control, which is a
    radio group named ``label``; ``default``: the first unless named; ``format_func``: each
    name as shown, ``_`` for English msgids); the caller draws only the chosen one.

    Not st.tabs, whose panel made every redraw inside it dearer: a lab's head pick redrew in
    a tab's panel at 1.52-1.64x the floor and in a plain box at 1.30-1.37x (bare Streamlit,
    bench/pages/floor_lab.py), and the Real model lab's went 1.83x -> 1.49x (bench/RESULTS.md).
    """
    first = names[0] if default is None else default
    shown = {n: format_func(n) for n in names}  # in this run (see sidebar.preset_picker)
    chosen = st.segmented_control(label, names, default=first, required=True,
                                  key=language.relabelled(key),
                                  format_func=shown.__getitem__,
                                  label_visibility="collapsed")  # fmt: skip
    return chosen if chosen in names else first


def show_code(*funcs: Callable, key: str) -> None:
    """An expander with the real source of the core functions behind a stage.

    Lazy (``key``, on_change="rerun"): the code is sent only while the expander is open,
    not on every rerun of the page, where it would be most of the page's text.
    """
    box = st.expander(_("Show the code"), key=key, on_change="rerun")
    if box.open is False:
        return
    with box:
        st.caption(_("The exact functions from `attention_core` that computed this page."))
        for f in funcs:
            st.code(_source(f), language="python")


@functools.cache
def _source(f: Callable) -> str:
    """A function's source, read from disk once per process (not on every rerun)."""
    return inspect.getsource(f)


# A number as the app prints one (1.5, −2e-05, −∞): nothing in it is Markdown, so it is left
# as it is (escaped, 0.5 would reach the page as "0\\.5", the same on screen).
_NUMBER = re.compile(r"[−+-]?(\d[\d,]*(\.\d+)?|\.\d+)([eE][−+-]?\d+)?|[−+-]?∞|nan")


def static_table(frame: pd.DataFrame, digits: int | None = None, hide_index: bool = False) -> None:
    """A small static table (st.table), every header and cell escaped: st.table renders
    each of them as Markdown, so a typed token such as ``**bold**`` or ``[a](b)`` would
    print bold or as a link. ``digits``: decimals for the float cells (others as they are).

    The one way the app draws st.table: a static table of preformatted text redraws
    cheaply on a pick, where an interactive grid costs several times more.
    """

    def cell(v: object) -> str:
        text = f"{v:.{digits}f}" if digits is not None and isinstance(v, float) else str(v)
        return text if _NUMBER.fullmatch(text) else md_escape(text)

    shown = frame.map(cell)
    shown.index = [md_escape(str(v)) for v in frame.index]
    shown.columns = [md_escape(str(v)) for v in frame.columns]
    shown.index.name = md_escape(str(frame.index.name or ""))
    st.table(shown, hide_index=hide_index or None)


def csv_text(frame: pd.DataFrame) -> str:
    """The frame as CSV with 15 significant digits at most.

    Python's repr (pandas' default) writes the last bit of rounding noise of a computed
    number (2.1 * 1.5 is 3.1500000000000004); 15 digits, all a float holds for certain,
    write 3.15 and read back within a part in 10^15 of the value computed. The index's name
    heads the first column, as pandas writes it; a missing value is an empty field.
    """

    def cell(v: object) -> object:
        if isinstance(v, float | np.floating):
            return "" if np.isnan(v) else f"{v:.15g}"
        return v

    header = [frame.index.name or "", *frame.columns]
    return csv_rows.csv_text([header] + [[label, *map(cell, row)] for label, row in
                                         zip(frame.index, frame.to_numpy(dtype=object),
                                             strict=True)])  # fmt: skip


# The tables' names as a download button says them (the file keeps the English name).
CSV_NAMES = {"scores": N_("scores"), "scaled_scores": N_("scaled scores"), "mask": N_("mask"),
             "weights": N_("weights"), "output": N_("output")}  # fmt: skip


def csv_download(frame: Callable[[], pd.DataFrame], name: str, key: str) -> None:
    """A CSV download of ``frame()``, built only when the button is clicked.

    Deferred: every stage page has one, and writing the CSV on every rerun (a DataFrame
    and ``to_csv``) was about 8 % of a rerun's server time (py-spy, Scaling toggle).
    """
    st.download_button(
        _("Download {name} as CSV").format(name=_(CSV_NAMES.get(name, name))),
        lambda: csv_text(frame()).encode(),
        file_name=f"{name}.csv",
        mime="text/csv",
        key=key,
        icon=None,
    )


def stale_notice(shown_here: tuple[str, ...] = ()) -> None:
    """Say when the latest edit is not in use; ``shown_here``: errors this page shows itself."""
    from attention_ui.frame import (
        state,  # widgets sit beside state; imported late to keep this light
    )

    err = state.input_error()
    slot = st.empty()  # always there: the page below keeps its places (see scaling_toggle)
    if err is not None and err.where not in shown_here:
        slot.warning(
            _(
                "Your latest edit has a problem, so this page still shows the last valid "
                "scenario. The problem: {problem}"
            ).format(problem=md_escape(tr(err)))
        )
    elif dropped := grids.dropped_cells():  # a bad cell, left on Inputs: it was not kept
        slot.warning(
            _(
                "Not kept from your edits on Inputs: {cells}. This page shows the last valid "
                "scenario, with that cell's last number; Inputs shows it too."
            ).format(cells=md_escape("; ".join(tr(d) for d in dropped)))
        )


def bad_link_value(param: str, ok: Callable[[str], bool], what: str) -> None:
    """Say so when a link's ``?param=`` holds a value the page cannot use (Streamlit drops it
    from the address and the widget shows its default; the link's other parameters are kept).
    Call it before the widget: Streamlit reads the link's value when the widget is made."""
    from attention_ui.frame import (
        state,  # widgets sit beside state; imported late to keep this light
    )

    raw = state.url_value(param)
    if raw is not None and not ok(raw):
        st.caption(
            _("The link's {param} = {value} is not {what}, so the default is shown.").format(
                param=param, value=md_escape(raw[:20]), what=what
            )
        )


def number_in(low: float, high: float, whole: bool = False) -> Callable[[str], bool]:
    """A check for bad_link_value: the text is a number from ``low`` to ``high``, as a bound
    widget takes it (``whole``: a whole-number widget cuts 2.5 to 2, as Streamlit does). Never
    evaluates the text: float() parses it or refuses it."""

    def ok(text: str) -> bool:
        try:
            x = float(text)
        except ValueError:
            return False
        return math.isfinite(x) and low <= (int(x) if whole else x) <= high

    return ok


def decimal_in(low: float, high: float) -> tuple[Callable[[str], bool], str]:
    """bad_link_value's check and its words for a number from ``low`` to ``high``."""
    return number_in(low, high), _("a number from {low} to {high}").format(
        low=f"{low:g}", high=f"{high:g}"
    )


def whole_number_in(low: int, high: int) -> tuple[Callable[[str], bool], str]:
    """bad_link_value's check and its words for a whole number from ``low`` to ``high``."""
    return number_in(low, high, whole=True), _("a whole number from {low} to {high}").format(
        low=f"{low:,}", high=f"{high:,}"
    )


def id_selectbox(label: str, names: dict[str, str], key: str) -> str:
    """A picker whose options are ids and whose labels are translated, kept in the address
    as its id (``?key=id``; the first id is the default and leaves the address).

    Not ``bind="query-params"``: Streamlit writes a bound selectbox's shown label into the
    address and accepts only a label back, so a link held a label in the viewer's language
    (one made in French did not open in German) and the share link's id was refused: the
    Training lab's task fell back to its default (issue 41, defect 5)."""
    from attention_ui.frame import state  # widgets sit beside state (see bad_link_value)

    ids = list(names)
    raw = state.url_value(key)
    if key not in st.session_state and raw in names:  # a link opened in this session
        st.session_state[key] = raw
    value = st.selectbox(label, ids, format_func=names.__getitem__,
                         key=language.relabelled(key), persist_state="session")  # fmt: skip
    if value == ids[0]:
        state.drop_url_value(key)
    else:
        state.set_url_value(key, value)
    return value


def error(message: str) -> None:
    """An error box whose text may quote what the learner typed: shown inert, never as markup."""
    st.error(md_escape(message))
