"""The layer rules as import-linter contracts (pyproject.toml, [tool.importlinter]): kept by
the checkout, and broken by each kind of import they forbid, planted in a copy."""

from __future__ import annotations

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
            "import attention_ui.live.hub",
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
