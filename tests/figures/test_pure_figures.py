"""Figure and data modules are pure: they and their tests run with Streamlit absent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
# The pure layers (draw/, stages/) and every section's figure and data-step modules.
PURE_MODULES = tuple(
    sorted(
        ".".join(p.relative_to(REPO_ROOT).with_suffix("").parts)
        for p in (REPO_ROOT / "attention_ui").rglob("*.py")
        if p.parent.name in ("draw", "stages") or p.stem in ("figures", "data")
        if p.stem != "__init__"
    )
)
NO_STREAMLIT = "ATTENTION_LAB_NO_STREAMLIT"


def _run(args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, NO_STREAMLIT: "1"}
    return subprocess.run(
        [sys.executable, *args], cwd=REPO_ROOT, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


@pytest.mark.parametrize("module", PURE_MODULES)
def test_module_imports_without_streamlit(module: str) -> None:
    code = f"import sys; sys.modules['streamlit'] = None; import {module}; print('ok')"
    result = _run(["-c", code])
    assert result.stdout.strip() == "ok", result.stderr[-2000:]


def test_the_blocker_really_blocks() -> None:
    """The check above would pass vacuously if blocking did not work: it does."""
    code = "import sys; sys.modules['streamlit'] = None; import attention_ui.views.stage_views"
    assert (
        "ModuleNotFoundError" in _run(["-c", code]).stderr
        or "ImportError" in _run(["-c", code]).stderr
    )


def test_figure_tests_pass_without_streamlit() -> None:
    if os.environ.get(NO_STREAMLIT):
        pytest.skip("already running without Streamlit")
    result = _run(["-m", "pytest", "tests/figures", "-q", "-p", "no:cacheprovider"])
    assert result.returncode == 0, result.stdout[-3000:]
    assert " passed" in result.stdout
