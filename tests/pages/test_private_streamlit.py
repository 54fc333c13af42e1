"""The Streamlit internals the app leans on, which have no public equivalent (README,
"Design notes": Private Streamlit APIs). A Streamlit upgrade that removes or renames one
fails here with the name of what is gone and who needs it, not deep inside a page."""

from __future__ import annotations

import dataclasses
import importlib

import pytest
from streamlit.testing.v1 import AppTest

# (module, attribute, what of ours needs it)
NAMES = [
    ("streamlit.runtime.scriptrunner", "get_script_run_ctx",
     "frame/state.history_navigation and live/views.own_run read the run's context"),
    ("streamlit.web.cli", "main", "serve.py starts `streamlit run` after its warm-up"),
    ("streamlit.dataframe_util", "convert_pandas_df_to_arrow_bytes",
     "serve.py's warm-up serialises a table as st.dataframe does"),
]  # fmt: skip
# fields of the run's context (ScriptRunContext), and who reads them
CONTEXT_FIELDS = {
    "is_history_navigation": "frame/state.history_navigation: Back/Forward follow ?s= again",
    "fragment_ids_this_run": "live/views.own_run: the heartbeat fragment's own timed run",
}


@pytest.mark.parametrize(("module", "name", "user"), NAMES)
def test_a_private_name_the_app_uses_is_still_there(module: str, name: str, user: str) -> None:
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        pytest.fail(f"Streamlit no longer has {module}.{name} ({exc}); {user}")
    assert callable(found)


def test_the_run_context_still_has_the_fields_the_app_reads() -> None:
    from streamlit.runtime.scriptrunner import ScriptRunContext

    fields = {f.name for f in dataclasses.fields(ScriptRunContext)}
    gone = {name: user for name, user in CONTEXT_FIELDS.items() if name not in fields}
    assert not gone, f"Streamlit's ScriptRunContext lost {sorted(gone)}: needed by {gone}"


def _script() -> None:
    import streamlit as st
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    st.text(repr(ctx.is_history_navigation))
    st.text(repr(ctx.fragment_ids_this_run))


def test_in_a_run_they_say_a_plain_full_run_is_neither_history_nor_a_fragment() -> None:
    at = AppTest.from_function(_script).run()
    assert not at.exception
    history, fragments = (t.value for t in at.text)
    assert history == "False"
    assert fragments in ("None", "[]", "set()")  # a full run: no fragment's (falsy)
