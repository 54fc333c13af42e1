"""What the two golden-file scripts share: their own venv with pinned packages, base64
arrays, writing the file, and the command line (the reference runs in that venv)."""

from __future__ import annotations

import argparse
import base64
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def ensure_venv(venv: Path, pins: tuple[str, ...]) -> Path:
    """``venv``'s python, made on first use, with ``pins`` installed in their order."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    for pin in pins:  # torch first, so transformers finds it and pulls no other build
        subprocess.run([str(python), "-m", "pip", "install", "-q", pin], check=True)
    return python


def b64(a: Any, dtype: str) -> dict[str, Any]:
    """An array as the golden files keep it: dtype, shape and its bytes in base64."""
    import numpy as np

    arr = np.ascontiguousarray(np.asarray(a, dtype=dtype))
    data = base64.b64encode(arr.tobytes()).decode()
    return {"dtype": dtype, "shape": list(arr.shape), "b64": data}


def write(golden: dict[str, Any], out_path: Path) -> None:
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(golden, indent=1) + "\n")
    print(f"wrote {out_path} ({out_path.stat().st_size / 1024:.0f} KB)")


def main(description: str, script: str, needs: Path, missing: str, out: Path,
         venv: Path, pins: tuple[str, ...], run_inside: Callable[[Path], None]) -> int:  # fmt: skip
    """The scripts' command line: outside the venv, make it and run ``script --inside``
    there; inside, ``run_inside(out)``. ``needs``: the input file (``missing`` if absent)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--inside", action="store_true", help="(internal) run in the venv")
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--max-kb", type=int, default=800)
    args = parser.parse_args()
    if not needs.exists():
        print(missing, file=sys.stderr)
        return 1
    if args.inside:
        run_inside(args.out)
        return 0
    python = ensure_venv(venv, pins)
    subprocess.run([str(python), script, "--inside", "--out", str(args.out)], check=True)
    size_kb = args.out.stat().st_size / 1024
    if size_kb > args.max_kb:
        print(f"{args.out} is {size_kb:.0f} KB, over {args.max_kb} KB", file=sys.stderr)
        return 1
    return 0
