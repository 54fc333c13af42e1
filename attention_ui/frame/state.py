"""Session and URL state: the one current Scenario every page reads.

Two scenarios live in the session:
- ``scenario``: the last *valid* one. Every page draws from it (and its trace).
- ``draft``: what the Inputs page edits. It may be invalid for a while (a half-typed
  matrix); then ``input_error`` says why and the other pages keep the last valid one.
The valid scenario is mirrored into the URL (``?s=...``) so any page can be shared. The
address is read and written through ``url``; the session's language is ``language``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attention_core import (
    PRESETS,
    AttentionTrace,
    InputError,
    Scenario,
    default_scenario,
)
from attention_core.i18n import Text
from attention_core.scenario import MAX_URL_CHARS
from attention_core.types import FloatArray
from attention_ui.draw.text import NAME_CHARS, edited_name
from attention_ui.frame import grids, links
from attention_ui.frame.keys import (
    CARRIED_PARAMS,
    CURRENT_PAGE,
    DRAFT,
    DROPPED,
    EDITOR_BASE,
    EDITOR_WIDGETS,
    EDITORS_STALE,
    FIELD_ERRORS,
    FLASH,
    INPUT_ERROR,
    LINKED_PAGE,
    NOTICE,
    OWN_EDITS,
    OWN_NAME,
    PACKED,
    PAGE_CONFIG_SENT,
    PAGE_PARAMS,
    PER_SCENARIO,
    PREVIOUS,
    REJECTED,
    SCENARIO,
    SHORT,
    TRACE,
    URL_ERROR,
    URL_KEY,
)
from attention_ui.frame.language import language_query, settle_language
from attention_ui.frame.url import drop_url_value, resend_url, set_url_value, url_value  # noqa: F401 (state.resend_url: live.seats')
from attention_ui.stages.data import Labels

T = TypeVar("T")


def init_state() -> None:
    """Run at the top of every script run: load the scenario from the URL once per session,
    and again when the browser's Back or Forward brought back an address with another one."""
    ss = st.session_state
    settle_language(history_navigation())
    if SCENARIO not in ss:
        scenario, error = scenario_from_query()
        _store(scenario)
        ss[URL_ERROR] = error
    elif history_navigation():
        _follow_url()


def page_config_due() -> bool:
    """True on a session's first run only: the browser keeps the page config it was sent.

    Sent again on every run, it made the browser fetch and re-encode the favicon on every
    click and the server resolve the icon's path (py-spy and a Chromium CPU profile of the
    Scaling toggle); a reload is a new session, which gets it again.
    """
    if st.session_state.get(PAGE_CONFIG_SENT):
        return False
    st.session_state[PAGE_CONFIG_SENT] = True
    return True


def history_navigation() -> bool:
    """Whether this run comes from the browser's Back or Forward button.

    Only then is ``?s=`` news: on any other run the address holds what the last run wrote,
    or is a moment behind it (a click sent before the new address arrived), and following
    it would undo the learner's latest edit.
    """
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.is_history_navigation)


def _follow_url() -> None:
    """Show the scenario of the address Back or Forward returned to (each edit wrote one).

    An address without ``?s=``, or one that cannot be read, keeps the current scenario.
    """
    raw = url_value(URL_KEY)
    if not raw or raw == scenario_url():
        return
    try:
        scenario = Scenario.from_url(raw)
    except InputError:
        return
    set_scenario(scenario)


def scenario_from_query() -> tuple[Scenario, Text | None]:
    """The scenario in ``?s=`` (or behind a short link's ``?l=``), or the default one and a
    message saying why not (shown with ``i18n.said``)."""
    raw = url_value(URL_KEY)
    if not raw and url_value(SHORT):
        raw, why = _follow_short_link(url_value(SHORT) or "")
        if raw is None:
            return default_scenario(), why
    if not raw:  # no ?s= at all, or an empty one
        return default_scenario(), None
    try:
        return Scenario.from_url(raw), None
    except InputError as exc:
        return default_scenario(), exc.text


def _follow_short_link(link: str) -> tuple[str | None, Text | None]:
    """A short link's ?s= text (its page is switched to once the page list is known:
    ``linked_page``), or None and why not. The id leaves the address: the next run writes
    the full ?s=, which needs no server."""
    found, why = links.resolve(link)
    drop_url_value(SHORT)
    if found is None:
        return None, why
    raw, page, params = found
    for param in PAGE_PARAMS.get(page, ()):  # what the full link held; nothing undeclared
        if param in params:
            set_url_value(param, params[param])  # read by the page's bound widgets
    st.session_state[LINKED_PAGE] = page
    return raw, None


def linked_page() -> str | None:
    """The page key a short link named, once (app.py switches to it)."""
    return st.session_state.pop(LINKED_PAGE, None)


def get_scenario() -> Scenario:
    return st.session_state[SCENARIO]


def get_trace() -> AttentionTrace:
    """The current scenario's trace, computed once when the scenario was set."""
    return st.session_state[TRACE]


def labels() -> Labels:
    """The current scenario's query and key labels."""
    return Labels.of(get_scenario())


def get_draft() -> Scenario:
    return st.session_state.get(DRAFT, get_scenario())


def input_error() -> InputError | None:
    """Why the draft is not in use: a field that could not be read, or an invalid draft."""
    fields = st.session_state.get(FIELD_ERRORS) or {}
    if fields:
        where, message = next(iter(fields.items()))
        return InputError(message, where=where)
    return st.session_state.get(INPUT_ERROR)


def draft_error() -> InputError | None:
    """Why the draft (which could be read) is not a valid scenario, if it is not."""
    return st.session_state.get(INPUT_ERROR)


def set_scenario(scenario: Scenario) -> None:
    """Make ``scenario`` current, as if the learner had typed it (InputError if invalid)."""
    _store(scenario, scenario.validate())
    reset_editors()


def load_preset(key: str) -> None:
    replace_scenario(PRESETS[key].build())


def replace_scenario(scenario: Scenario) -> None:
    """Load ``scenario`` in place of the current one, which is kept for one step of undo.

    An example, an exercise or a file replaces the learner's own numbers at one click;
    ``undo_replace`` brings them back. InputError (an invalid file) changes nothing.
    """
    current = get_scenario()
    set_scenario(scenario)
    if current != scenario:
        st.session_state[PREVIOUS] = current


def previous_scenario() -> Scenario | None:
    """The scenario the last load replaced, if there is one to bring back."""
    return st.session_state.get(PREVIOUS)


def undo_replace() -> None:
    """Bring back the replaced scenario; the one it replaces becomes the one to bring back,
    so pressing twice is a no-op and no numbers are ever lost."""
    previous = previous_scenario()
    if previous is not None:
        replace_scenario(previous)


def update_draft(draft: Scenario) -> bool:
    """Keep the learner's draft; promote it to the current scenario when it is valid."""
    ss = st.session_state
    previous = ss.get(DRAFT)
    if draft != previous:
        ss[OWN_EDITS] = ss.get(OWN_EDITS, 0) + 1  # a following phone that edits explores
        if not ss.get(OWN_NAME):
            draft = draft.replace(name=edited_name(draft, previous))
    ss[DRAFT] = draft
    try:
        trace = draft.validate()
    except InputError as exc:
        ss[INPUT_ERROR] = exc
        return False
    ss[SCENARIO] = draft
    ss[TRACE] = trace
    ss[INPUT_ERROR] = None
    return True


def rename(name: str) -> None:
    """The teacher's own name for the scenario, shown to whoever opens its link.

    Edits keep it; an empty name goes back to names that follow the edits.
    """
    ss = st.session_state
    name = " ".join(name.split())[:NAME_CHARS]
    if name == get_scenario().name:
        return  # nothing new (a box re-sending the name it was given)
    ss[OWN_NAME] = bool(name)
    ss[SCENARIO] = ss[SCENARIO].replace(name=name)
    ss[DRAFT] = ss.get(DRAFT, ss[SCENARIO]).replace(name=name)


def reset_editors() -> None:
    """Make every input widget show the draft again: the grids through ``grids.reseed`` (a
    fresh key only for a grid that changed), plain widgets re-seeded where they are drawn
    next (``edits.seed``). Their keys are never popped: that unmaps a key from its widget, and
    a callback of the same batch (two edits a busy server took in one run) or of a run before
    the widget is drawn again raised KeyError reading it, its edit lost (issue 41, 7)."""
    grids.note_dropped(field_errors())
    grids.reseed(get_draft())
    st.session_state[EDITORS_STALE] = set(EDITOR_WIDGETS)


def own_edits() -> int:
    """How many times this session's learner edited the draft (``update_draft``)."""
    return st.session_state.get(OWN_EDITS, 0)


def rejected_text(field: str, text: str | None = None) -> str | None:
    """Keep (with ``text``) or read the text a field could not use, until it is fixed."""
    texts = st.session_state.setdefault(REJECTED, {})
    if text is not None:
        texts[field] = text
    return texts.get(field)


def clear_field(field: str) -> None:
    """The field's input was used: its message and its rejected text go."""
    field_errors().pop(field, None)
    st.session_state.get(REJECTED, {}).pop(field, None)


def flash(message: str) -> None:
    """A toast for the next run, whichever page it draws (see ``pop_flashes``): already in
    the session's language (the run that flashes it speaks it too)."""
    st.session_state.setdefault(FLASH, []).append(message)


def pop_flashes() -> list[str]:
    """The toasts waiting since the last run (read once)."""
    return st.session_state.pop(FLASH, [])


def notice(message: str) -> None:
    """A message for the top of the next page drawn, under its title (``widgets.notices``):
    what a button that switched page did, where a toast would cover the page's figures."""
    st.session_state.setdefault(NOTICE, []).append(message)


def pop_notices() -> list[str]:
    """The messages waiting for the top of this page (read once)."""
    return st.session_state.pop(NOTICE, [])


def editor_base(name: str) -> FloatArray | None:
    """The frame a grid editor was last given (its edits are relative to it)."""
    bases = st.session_state.get(EDITOR_BASE)
    if bases is None or name not in bases:
        reset_editors()
        bases = st.session_state[EDITOR_BASE]
    return bases.get(name)


def field_errors() -> dict[str, Text]:
    """Messages for inputs that could not be read at all (tokens, pasted text), each shown
    with ``i18n.said`` in the language of the run that shows it."""
    return st.session_state.setdefault(FIELD_ERRORS, {})


def current_page() -> str:
    """The url path of the page this run shows (set by ``on_page_enter``)."""
    return st.session_state.get(CURRENT_PAGE, "start")


def on_page_enter(page_key: str) -> None:
    """Called once per run by app.py: entering a page re-seeds its input widgets."""
    ss = st.session_state
    if ss.get(CURRENT_PAGE) != page_key:
        ss[CURRENT_PAGE] = page_key
        reset_editors()


def scenario_url() -> str:
    """The current scenario as a compact URL string, packed once per scenario."""
    ss = st.session_state
    scenario = get_scenario()
    cached = ss.get(PACKED)
    if cached is None or cached[0] is not scenario:
        cached = (scenario, scenario.to_url())
        ss[PACKED] = cached
    return cached[1]


def per_scenario(name: str, build: Callable[[], T]) -> T:
    """``build()`` run once per current scenario and kept: a rerun that changes nothing
    (a picked cell, a tab) reuses it. Cached functions must read only the scenario."""
    ss = st.session_state
    memo = ss.get(PER_SCENARIO)
    if memo is None or memo[0] is not get_scenario():
        memo = (get_scenario(), {})
        ss[PER_SCENARIO] = memo
    if name not in memo[1]:
        memo[1][name] = build()
    return memo[1][name]


def link_fits() -> bool:
    """Whether the scenario fits in a link Streamlit will still serve (see MAX_URL_CHARS)."""
    return len(scenario_url()) <= MAX_URL_CHARS


def sync_url() -> None:
    """Write the current scenario into the URL, so the address bar is always a share link.

    A scenario too large for a link is left out of the URL (the sidebar offers JSON):
    a longer address would be refused by the server when the page is reloaded.
    """
    for param, value in language_query().items():
        set_url_value(param, value)
    if not link_fits():
        drop_url_value(URL_KEY)
        return
    set_url_value(URL_KEY, scenario_url())


def share_link_query() -> dict[str, str]:
    """The query of the sidebar's share link: the scenario, then this page's own parameters
    (keys.PAGE_PARAMS: a picked row, layer or head), from the widgets' values in this run
    (the address may be a run behind them). Never the live class's or a short link's."""
    ss, query = st.session_state, {URL_KEY: scenario_url()}
    for param in PAGE_PARAMS.get(current_page(), ()):
        value = ss.get(param, url_value(param))
        if value is not None and value != "":
            query[param] = str(value)
    return {**query, **language_query()}


def page_query(page: str) -> dict[str, str]:
    """``page``'s own parameters as the address holds them (a short link wrote them there)."""
    return {p: v for p in PAGE_PARAMS.get(page, ()) if (v := url_value(p))}


def share_query(extra: dict[str, str] | None = None) -> dict[str, str]:
    """Query parameters that reopen the current scenario (plus page-specific ones)."""
    carried = {p: v for p in CARRIED_PARAMS if (v := url_value(p))}
    return {URL_KEY: scenario_url(), **carried, **language_query(), **(extra or {})}


def _store(scenario: Scenario, trace: AttentionTrace | None = None) -> None:
    ss = st.session_state
    ss[OWN_NAME] = False  # a loaded scenario brings its own name
    ss[SCENARIO] = scenario
    ss[TRACE] = trace if trace is not None else scenario.trace()
    ss[DRAFT] = scenario
    ss[INPUT_ERROR] = None
    ss[FIELD_ERRORS], ss[REJECTED], ss[DROPPED] = {}, {}, {}  # a load leaves no old notes
