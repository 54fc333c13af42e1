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
