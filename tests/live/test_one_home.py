"""The live class's AppTest files open the app and set up its store in one place each
(tests/live/apps.py, tests/live/conftest.py), not once a file (issue 45, item 15)."""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = {"app": "apps.py", "store": "conftest.py", "public_url": "conftest.py"}


def test_app_and_the_store_are_defined_once() -> None:
    defined = [(f.name, node.name) for f in sorted(HERE.glob("*.py"))
               for node in ast.walk(ast.parse(f.read_text()))
               if isinstance(node, ast.FunctionDef) and node.name in SHARED]  # fmt: skip
    assert sorted(defined) == sorted((home, name) for name, home in SHARED.items())
