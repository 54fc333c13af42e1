"""Session and URL state: the one current Scenario every page reads.

Two scenarios live in the session:
- ``scenario``: the last *valid* one. Every page draws from it (and its trace).
- ``draft``: what the Inputs page edits. It may be invalid for a while (a half-typed
  matrix); then ``input_error`` says why and the other pages keep the last valid one.
The valid scenario is mirrored into the URL (``?s=...``) so any page can be shared.
"""

from __future__ import annotations

import streamlit as st

from attention_core import (
    PRESETS,
    AttentionTrace,
    InputError,
    Scenario,
    default_scenario,
)

SCENARIO = "scenario"
TRACE = "trace"
DRAFT = "draft"
INPUT_ERROR = "input_error"
URL_ERROR = "url_error"
EDITOR_GEN = "editor_gen"
URL_KEY = "s"


def init_state() -> None:
    """Run at the top of every script run: load the scenario from the URL once per session."""
    ss = st.session_state
    if SCENARIO in ss:
        return
    scenario, error = scenario_from_query()
    _store(scenario)
    ss[URL_ERROR] = error


def scenario_from_query() -> tuple[Scenario, str | None]:
    """The scenario in ``?s=``, or the default one and a message saying why not."""
    raw = st.query_params.get(URL_KEY)
    if raw is None:
        return default_scenario(), None
    try:
        return Scenario.from_url(raw), None
    except InputError as exc:
        return default_scenario(), exc.message


def get_scenario() -> Scenario:
    return st.session_state[SCENARIO]


def get_trace() -> AttentionTrace:
    """The current scenario's trace, computed once when the scenario was set."""
    return st.session_state[TRACE]


def get_draft() -> Scenario:
    return st.session_state.get(DRAFT, get_scenario())


def input_error() -> InputError | None:
    return st.session_state.get(INPUT_ERROR)


def set_scenario(scenario: Scenario) -> None:
    """Make ``scenario`` (already valid) current, as if the learner had typed it."""
    scenario.validate()
    _store(scenario)
    reset_editors()


def load_preset(key: str) -> None:
    set_scenario(PRESETS[key].build())


def update_draft(draft: Scenario) -> bool:
    """Keep the learner's draft; promote it to the current scenario when it is valid."""
    ss = st.session_state
    ss[DRAFT] = draft
    try:
        draft.validate()
    except InputError as exc:
        ss[INPUT_ERROR] = exc
        return False
    ss[SCENARIO] = draft
    ss[TRACE] = draft.trace()
    ss[INPUT_ERROR] = None
    return True


def reset_editors() -> None:
    """Give every grid editor a fresh key, so it shows the draft's numbers again."""
    st.session_state[EDITOR_GEN] = st.session_state.get(EDITOR_GEN, 0) + 1


def editor_gen() -> int:
    return st.session_state.get(EDITOR_GEN, 0)


def sync_url() -> None:
    """Write the current scenario into the URL, so the address bar is always a share link."""
    packed = get_scenario().to_url()
    if st.query_params.get(URL_KEY) != packed:
        st.query_params[URL_KEY] = packed


def share_query(extra: dict[str, str] | None = None) -> dict[str, str]:
    """Query parameters that reopen the current scenario (plus page-specific ones)."""
    return {URL_KEY: get_scenario().to_url(), **(extra or {})}


def _store(scenario: Scenario) -> None:
    ss = st.session_state
    ss[SCENARIO] = scenario
    ss[TRACE] = scenario.trace()
    ss[DRAFT] = scenario
    ss[INPUT_ERROR] = None
