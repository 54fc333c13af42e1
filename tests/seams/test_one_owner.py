"""One owner for each piece of state (issue 41, defect 10), read from the code itself: only
``frame/url.py`` touches ``st.query_params``, and only ``frame/language.py`` reads or
writes the session's language key (every other module asks ``language.language()``).

``OWNER_ROOT=<a checkout>`` reads another checkout (main's, where both failed)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

ROOT = Path(os.environ.get("OWNER_ROOT", Path(__file__).resolve().parents[2]))
APP = [ROOT / "app.py", *sorted((ROOT / "app_pages").rglob("*.py")),
       *sorted((ROOT / "attention_ui").rglob("*.py"))]  # fmt: skip


def _uses(path: Path, name: str) -> list[int]:
    """Lines where ``path`` names the attribute or the imported name ``name``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted({node.lineno for node in ast.walk(tree)
                   if (isinstance(node, ast.Attribute) and node.attr == name)
                   or (isinstance(node, ast.Name) and node.id == name)
                   or (isinstance(node, ast.alias) and node.name == name)})  # fmt: skip


def test_only_url_touches_the_address() -> None:
    touching = {str(p.relative_to(ROOT)): lines for p in APP
                if (lines := _uses(p, "query_params"))}  # fmt: skip
    # st.switch_page/st.page_link take a query_params= argument (a keyword, not the address)
    assert set(touching) == {"attention_ui/frame/url.py"}, touching


def test_only_language_owns_the_session_language() -> None:
    reading = {str(p.relative_to(ROOT)): lines for p in APP if (lines := _uses(p, "LANGUAGE"))}
    declared = "attention_ui/frame/keys.py"  # where every key is declared, once
    assert set(reading) - {declared} == {"attention_ui/frame/language.py"}, reading
