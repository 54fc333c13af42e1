"""bench/'s packages import each other one way only, and never another module's private
helper (issue 45, item 14: bench/pages and bench/profile imported each other, and `_measure`
and `_pick` were imported by four files each; what several benchmarks share is in
bench/common). Read with ast: nothing is run."""

from __future__ import annotations

import ast
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def imports() -> list[tuple[Path, str, list[str]]]:
    """(file, module, names) of every `from bench... import names` in bench/."""
    found = []
    for path in sorted(BENCH.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bench"):
                found.append((path, node.module or "", [a.name for a in node.names]))
    return found


def package(path: Path) -> str:
    rel = path.relative_to(BENCH).parts
    return rel[0] if len(rel) > 1 else ""  # "" : bench/__init__.py and its siblings


def test_no_private_helper_is_imported_from_another_module() -> None:
    private = [f"{p.relative_to(BENCH)}: from {m} import {n}"
               for p, m, names in imports() for n in names if n.startswith("_")]  # fmt: skip
    assert private == []


def test_no_two_bench_packages_import_each_other() -> None:
    edges = set()
    for path, module, _ in imports():
        parts = module.split(".")
        target = parts[1] if len(parts) > 1 else ""
        source = package(path)
        if source and target and source != target and (BENCH / target).is_dir():
            edges.add((source, target))
    both = sorted((a, b) for a, b in edges if (b, a) in edges and a < b)
    assert both == [], both
