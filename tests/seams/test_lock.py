"""The locks (requirements.lock, requirements-dev.lock; `make lock`) hold what the
requirements files ask for, every package with its hashes, and nothing of the dev side
in the app's lock."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", re.M)


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    return {_norm(n): v for n, v in PIN.findall(path.read_text())}


def blocks(lock: Path) -> dict[str, str]:
    """Each locked package's whole entry (its pin line and the lines that continue it)."""
    text = lock.read_text()
    starts = [(m.start(), _norm(m.group(1))) for m in PIN.finditer(text)]
    ends = [s for s, _ in starts[1:]] + [len(text)]
    return {name: text[s:e] for (s, name), e in zip(starts, ends, strict=True)}


@pytest.mark.parametrize(
    ("wanted", "lock"),
    [("requirements.txt", "requirements.lock"), ("requirements-dev.txt", "requirements-dev.lock"),
     ("requirements-uv.txt", "requirements-uv.lock")],
)  # fmt: skip
def test_the_lock_holds_every_chosen_pin_with_its_hashes(wanted: str, lock: str) -> None:
    chosen, locked = pins(ROOT / wanted), pins(ROOT / lock)
    if wanted == "requirements-dev.txt":
        chosen |= pins(ROOT / "requirements.txt")  # -r requirements.txt
    stale = {n: (v, locked.get(n)) for n, v in chosen.items() if locked.get(n) != v}
    assert not stale, f"{lock} is behind {wanted} (chosen, locked): {stale}; run `make lock`"
    unhashed = [n for n, block in blocks(ROOT / lock).items() if "--hash=sha256:" not in block]
    assert not unhashed


def test_the_apps_lock_is_the_dev_locks_runtime_part() -> None:
    app, dev = pins(ROOT / "requirements.lock"), pins(ROOT / "requirements-dev.lock")
    assert {n: dev.get(n) for n in app} == app  # the same versions on both sides
    assert not {"pytest", "mypy", "ruff", "playwright", "safetensors"} & set(app)


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-dev.lock"])
def test_the_locks_are_universal(lock: str) -> None:
    """Made with --universal (issue 45, item 7): a platform's own packages are in the lock
    under their marker. Without it a lock made on Linux had no colorama, which tqdm needs on
    Windows, and a hash-checked install there failed."""
    text = (ROOT / lock).read_text()
    assert "--universal" in text.split("\n", 3)[1], "the lock's own header: how it was made"
    assert re.search(r"^colorama==\S+ ; sys_platform == 'win32'", text, re.M)


def test_make_installs_by_syncing_to_the_locks() -> None:
    """`uv pip sync`, not `uv pip install`: a package a new lock drops leaves the .venv, and
    uv's own lock is synced with it (or sync would remove uv itself)."""
    make = (ROOT / "Makefile").read_text()
    installs = re.findall(r"^\t.*\$\(UV\) pip (\w+) .*$", make, re.M)
    assert installs and set(installs) == {"sync", "compile"}, installs
    for line in re.findall(r"^\t.*\$\(UV\) pip sync .*$", make, re.M):
        assert "--require-hashes" in line and "requirements-uv.lock" in line, line
    for line in re.findall(r"^\t.*\$\(UV\) pip compile .*$", make, re.M):
        assert "--universal" in line and "--generate-hashes" in line, line
