"""attention_core stays a plain NumPy package: importing it must not drag in the UI stack."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import attention_core

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_import_loads_neither_streamlit_nor_plotly():
    code = "import attention_core, sys; print('streamlit' in sys.modules, 'plotly' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert result.stdout.split() == ["False", "False"]


def test_public_names_are_exported():
    for name in attention_core.__all__:
        assert hasattr(attention_core, name), name
    assert "attention" in attention_core.__all__
    assert "Scenario" in attention_core.__all__
