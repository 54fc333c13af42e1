"""docs/ARCHITECTURE.md says the layers in the words of pyproject.toml's import-linter
contracts (issue 45, item 13): its ```layers``` and ```forbidden``` blocks name the same
contracts and layers, its map names every package of those layers, and the paths that
it and the README name exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DOC = REPO_ROOT / "docs" / "ARCHITECTURE.md"


def contracts() -> list[dict]:
    with (REPO_ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]["contracts"]


def block(text: str, kind: str) -> dict[str, str]:
    """The ```kind fenced block: one contract a line, ``name: what it says``."""
    found = re.search(rf"^```{kind}\n(.*?)^```", text, re.M | re.S)
    assert found, f"docs/ARCHITECTURE.md has no ```{kind} block"
    lines = [ln.split(": ", 1) for ln in found.group(1).splitlines() if ln.strip()]
    return {name: said.strip() for name, said in lines}


def spaced(layer: str) -> str:
    return " | ".join(part.strip() for part in layer.split("|"))


def test_the_document_names_the_contracts_layers() -> None:
    said = block(DOC.read_text(), "layers")
    enforced = {c["name"]: " > ".join(spaced(layer) for layer in c["layers"])
                for c in contracts() if c["type"] == "layers"}  # fmt: skip
    assert said == enforced


def test_the_document_names_what_is_forbidden() -> None:
    said = block(DOC.read_text(), "forbidden")
    enforced = {c["name"]: ", ".join(c["source_modules"]) + " -/-> "
                + ", ".join(c["forbidden_modules"])
                for c in contracts() if c["type"] == "forbidden"}  # fmt: skip
    assert said == enforced


def test_the_map_names_every_package_of_the_ui_layers() -> None:
    """Each package the contract stacks has its line in the map (``name/``)."""
    text = DOC.read_text()
    ui = next(c for c in contracts() if c.get("containers") == ["attention_ui"])
    packages = [p.strip() for layer in ui["layers"] for p in layer.split("|")]
    missing = [p for p in packages if not re.search(rf"^\s+{p}/\s", text, re.M)]
    assert missing == []
    assert all((REPO_ROOT / "attention_ui" / p).is_dir() for p in packages)


PATH = re.compile(r"`((?:[\w.]+/)+\w+\.py)")


@pytest.mark.parametrize("doc", ["docs/ARCHITECTURE.md", "README.md"])
def test_every_python_file_named_exists(doc: str) -> None:
    """A path such as `attention_ui/live/phone.py` or `live/phone.py` (under attention_ui/,
    attention_core/ or the root) names a file of the checkout."""
    roots = [REPO_ROOT, REPO_ROOT / "attention_ui", REPO_ROOT / "attention_core"]
    named = set(PATH.findall((REPO_ROOT / doc).read_text()))
    missing = sorted(p for p in named if not any((r / p).is_file() for r in roots))
    assert missing == []
