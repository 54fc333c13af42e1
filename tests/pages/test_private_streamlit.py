"""The Streamlit internals the app leans on, which have no public equivalent (README,
"Design notes": Private Streamlit APIs). A Streamlit upgrade that removes or renames one
fails here with the name of what is gone and who needs it, not deep inside a page.

``PRIVATE`` is the whole list, read from the code (ast: every ``streamlit.<module>`` import
and every ``"streamlit.<...>"`` name in a string, in the app and its deployment): a new one
fails until it is listed here with why no public API does it, and one that leaves the code
fails until it leaves the list (issue 45, item 9)."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import logging
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
CODE = ("app.py", "serve.py", "app_pages", "attention_ui", "attention_core", "deploy", "scripts")

# (file, "module:name", or "module" for a name in a string) -> why no public API does it
PRIVATE = {
    ("attention_ui/frame/language.py", "streamlit.runtime.scriptrunner:get_script_run_ctx"):
        "whether a script run is under way (a module may be imported outside one, by serve.py "
        "or a test): st.context raises outside a run instead of saying so",
    ("attention_ui/training_lab/lab.py", "streamlit.delta_generator:DeltaGenerator"):
        "the type of the placeholder the run draws into: Streamlit exports no public name "
        "for it (a type hint only)",
    ("attention_ui/frame/state.py", "streamlit.runtime.scriptrunner:get_script_run_ctx"):
        "whether a run comes from the browser's Back or Forward button "
        "(is_history_navigation): st.context has no such field",
    ("attention_ui/frame/guard.py", "streamlit.runtime.scriptrunner:get_script_run_ctx"):
        "whether this run is a fragment's own (fragment_ids_this_run): no public API says",
    ("attention_ui/frame/look.py", "streamlit.runtime.scriptrunner:get_script_run_ctx"):
        "the same question for the figures' theme: a figure built outside a session",
    ("attention_ui/frame/guard.py", "streamlit.logger:get_logger"):
        "a page's exception goes to the server's console in Streamlit's format and at its "
        "logger.level; logging.getLogger prints nothing without a handler of our own",
    ("attention_ui/frame/guard.py", "streamlit.navigation.page:StreamlitPage"):
        "the type st.Page returns, for run_page's annotation: Streamlit exports no name for it",
    ("serve.py", "streamlit.dataframe_util"):
        "the warm-up imports (LAZY) and runs what st.dataframe and st.data_editor run on a "
        "page's first table: pandas to Arrow; no public call serialises without a session",
    ("serve.py", "streamlit.runtime.caching.cache_data_api"):
        "the warm-up hushes the logger that says 'No runtime found' for each page module's "
        "st.cache_data while the runtime does not exist yet",
}  # fmt: skip


# `from streamlit import X` of a module Streamlit documents as public
PUBLIC_MODULES = {"column_config", "components"}


def names_in(tree: ast.AST) -> set[str]:
    """Every private Streamlit name ``tree`` imports or spells out, as "module:name", or
    "module" (a module imported whole, or named in a string: a logger, a lazy import)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("streamlit."):
            out |= {f"{node.module}:{a.name}" for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module == "streamlit":
            out |= {f"streamlit.{a.name}" for a in node.names
                    if a.name.islower() and a.name not in PUBLIC_MODULES
                    and importlib.util.find_spec(f"streamlit.{a.name}")}  # fmt: skip
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("streamlit.")}
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and node.value.startswith("streamlit.") and " " not in node.value):  # fmt: skip
            out.add(node.value)
    return out


def found_in_code() -> set[tuple[str, str]]:
    files: list[Path] = []
    for c in CODE:
        files += [ROOT / c] if c.endswith(".py") else sorted((ROOT / c).rglob("*.py"))
    return {(str(path.relative_to(ROOT)), name) for path in files
            for name in names_in(ast.parse(path.read_text()))}  # fmt: skip


def test_every_private_streamlit_name_in_the_code_is_listed_with_its_reason() -> None:
    found = found_in_code()
    new = sorted(found - PRIVATE.keys())
    gone = sorted(PRIVATE.keys() - found)
    assert not new, f"private Streamlit names not listed in PRIVATE (say why no public API): {new}"
    assert not gone, f"listed in PRIVATE but no longer in the code (take them out): {gone}"


@pytest.mark.parametrize(("where", "name"), sorted(PRIVATE))
def test_a_private_name_the_app_uses_is_still_there(where: str, name: str) -> None:
    module, _, attr = name.partition(":")
    try:
        found = importlib.import_module(module)
        if attr:
            found = getattr(found, attr)
    except (ImportError, AttributeError) as exc:
        pytest.fail(f"Streamlit no longer has {name} ({exc}); {where}: {PRIVATE[where, name]}")
    assert found is not None


def test_the_hushed_logger_is_the_one_that_says_no_runtime_found() -> None:
    """serve.py names a logger by its module's name: it must still be where st.cache_data
    logs from (a logger of a name nothing uses would hush nothing)."""
    module = importlib.import_module("streamlit.runtime.caching.cache_data_api")
    assert logging.getLogger(module.__name__).name == "streamlit.runtime.caching.cache_data_api"
    assert "No runtime found" in Path(module.__file__).read_text() or "No runtime found" in (
        Path(module.__file__).parent / "cache_utils.py").read_text()  # fmt: skip


# fields of the run's context (ScriptRunContext), and who reads them
CONTEXT_FIELDS = {
    "is_history_navigation": "frame/state.history_navigation: Back/Forward follow ?s= again",
    "fragment_ids_this_run": "frame/guard.own_fragment_run: the heartbeat fragment's own run",
}


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
