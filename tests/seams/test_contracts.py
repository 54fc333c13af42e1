"""The layer rules as import-linter contracts (pyproject.toml, [tool.importlinter]): kept by
the checkout, and broken by each kind of import they forbid, planted in a copy."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
PACKAGES = ("app_pages", "attention_ui", "attention_core")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True,
                          text=True, timeout=120)  # fmt: skip


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("layers")
    shutil.copy(REPO_ROOT / "pyproject.toml", root)
    for package in PACKAGES:
        shutil.copytree(REPO_ROOT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    return root


def test_the_checkout_keeps_every_contract() -> None:
    result = lint_imports(REPO_ROOT)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "5 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("attention_core/heads.py", "import attention_ui.frame.keys", "pages over ui over core"),
        ("attention_ui/frame/look.py", "import app_pages.start", "pages over ui over core"),
        (
            "attention_ui/walkthrough/__init__.py",
            "import attention_ui.multi_head",
            "ui layers, sections apart",
        ),
        (
            "attention_ui/views/cache.py",
            "import attention_ui.live.seats",
            "ui layers, sections apart",
        ),
        (
            "attention_ui/draw/figures.py",
            "import attention_ui.stages.registry",
            "ui layers, sections apart",
        ),
        (
            "attention_ui/frame/language.py",
            "import attention_ui.frame.state",
            "the frame's state over its language over the address",
        ),
        ("attention_core/softmax.py", "import plotly", "core without Streamlit or Plotly"),
        ("attention_ui/stages/data.py", "import streamlit", "pure modules without Streamlit"),
        # the live class's model: no Streamlit, and never its screens (issue 45, item 11)
        ("attention_ui/classroom/pace.py", "import streamlit", "pure modules without Streamlit"),
        (
            "attention_ui/classroom/rooms.py",
            "import attention_ui.live.seats",
            "ui layers, sections apart",
        ),
        (
            "attention_ui/decoder/figures.py",
            "import attention_ui.frame.state",
            "pure modules without Streamlit",
        ),
    ],
)
def test_a_planted_import_breaks_its_contract(
    copy: Path, module: str, line: str, contract: str
) -> None:
    target = copy / module
    original = target.read_text()
    target.write_text(original + f"\n{line}  # planted\n")
    try:
        result = lint_imports(copy)
    finally:
        target.write_text(original)
    assert result.returncode != 0, result.stdout[-2000:]
    lines = result.stdout.splitlines()
    broken = [ln.removesuffix(" BROKEN") for ln in lines if ln.endswith(" BROKEN")]
    assert contract in broken, result.stdout[-3000:]


def _imports(path: Path) -> list[tuple[str, str, str | None]]:
    """(module, name, alias) of every ``from module import name as alias`` and ``import``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.module, a.name, a.asname) for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(a.name, "", a.asname) for a in node.names]
    return found


def test_the_entry_point_calls_the_live_class_through_its_hooks_only() -> None:
    """app.py routes; the live class's per-run steps are attention_ui/live/hooks.py's."""
    live = {(m, n) for m, n, _ in _imports(REPO_ROOT / "app.py")
            if m.startswith(("attention_ui.live", "attention_ui.classroom"))}  # fmt: skip
    assert live == {("attention_ui.live", "hooks")}


def test_the_live_class_modules_need_no_alias() -> None:
    """A module of the live class is imported under its own name (it says what it is)."""
    files = [REPO_ROOT / "app.py", *(REPO_ROOT / "app_pages").rglob("*.py"),
             *(REPO_ROOT / "attention_ui").rglob("*.py")]  # fmt: skip
    renamed = [f"{f.relative_to(REPO_ROOT)}: {m} {n} as {a}" for f in files
               for m, n, a in _imports(f)
               if a and m.startswith(("attention_ui.live", "attention_ui.classroom"))]  # fmt: skip
    assert renamed == []
