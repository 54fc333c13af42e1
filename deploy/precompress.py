"""Lay out Streamlit's frontend files for nginx to serve itself, each text file gzipped once.

    python deploy/precompress.py CACHE           # prints the folder to give nginx as its root
    python deploy/precompress.py --zopfli CACHE  # the same, then smaller .gz files (slow)

deploy/classroom.sh runs both, with CACHE=.runtime/frontend. The first fills
CACHE/<Streamlit's version>/static/..., a copy of Streamlit's own static/static/ (the
hashed JS, CSS and fonts), with a ``.gz`` beside every file that gzip makes smaller, for
nginx's ``gzip_static``: ``gzip -9``, about 1.5 s of CPU. A later start with the same
Streamlit finds it done.

Why not let nginx gzip each response: a phone's first load is 8.3 MB of JavaScript and
CSS, 0.15 s of a core to compress at every load (zlib level 5, measured here), 18 s for a
class of 120 on the machine that serves their first pages. Done once here, each phone
costs nothing.

Why zopfli afterwards: it writes gzip that any browser reads, 3.5 % smaller than
``gzip -9`` (Plotly's chunk: 1.366 against 1.415 MB), and that is what takes a phone's
first load of /scores from 3.01 to 2.93 MB (bench/RESULTS.md, "A class's first load").
It costs about 35 s of CPU, once per Streamlit version, so it runs after nginx is up and
replaces each ``.gz`` by a rename: nginx serves the old file or the new one, never half.
Without the ``zopfli`` package the ``gzip -9`` files stay.

Two things keep the first load under 3 MB from the first start (issue 34: it measured
3.01 MB again, because a classroom stopped before the background pass ended left the gzip -9
files, and the next start began that pass from its first file): Plotly's chunk, which every
page with a chart loads (1.42 of the 3.01 MB), gets zopfli at once while the rest is laid
out (2.7 s of CPU, 49 kB less); and the background pass goes from the biggest file down and
notes each file it finishes, so a later start goes on where it stopped.
"""

from __future__ import annotations

import gzip
import os
import shutil
import sys
import tempfile
from pathlib import Path

import streamlit

COMPRESS = {".js", ".mjs", ".css", ".svg", ".json", ".html", ".txt", ".map", ".ttf"}
# nginx's Content-Encoding and Vary lines cost about 50 bytes: smaller savings are losses
MIN_SAVING = 64
DONE = "complete"
ZOPFLI_DONE = "zopfli"
ZOPFLI_PROGRESS = "zopfli-progress"  # the files the background pass has finished, one a line
AT_ONCE = ("PlotlyChart.",)  # chunks every page with a chart loads: zopfli while laying out


def frontend_dir() -> Path:
    """Streamlit's build folder: the files its server answers under /static/."""
    return Path(streamlit.__file__).parent / "static" / "static"


def lay_out(dest: Path, source: Path) -> tuple[int, int, int]:
    """Fill ``dest/static``; returns (files gzipped, their bytes before, after)."""
    count = before = after = 0
    for src in sorted(p for p in source.rglob("*") if p.is_file()):
        target = dest / "static" / src.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
        if src.suffix not in COMPRESS:
            continue  # woff2 and images are compressed already
        data = src.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if src.name.startswith(AT_ONCE):
            packed = min(packed, _zopfli(data) or packed, key=len)
        if len(packed) + MIN_SAVING < len(data):
            Path(f"{target}.gz").write_bytes(packed)
            count, before, after = count + 1, before + len(data), after + len(packed)
    return count, before, after


def ensure(cache: Path, source: Path | None = None) -> Path:
    """The laid-out folder for this Streamlit, made once (in a temporary folder first, so a
    start stopped half-way leaves nothing that looks finished)."""
    source = source or frontend_dir()
    root = cache / streamlit.__version__
    if (root / DONE).is_file():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=cache, prefix=".laying-"))
    try:
        count, before, after = lay_out(work, source)
        (work / DONE).write_text(f"gzip -9: {count} files, {before} -> {after} bytes\n")
        work.chmod(0o755)  # nginx's workers (nobody, when started as root) read it
        if root.exists():
            shutil.rmtree(root)  # an unfinished one
        try:
            work.rename(root)
        except OSError:
            if not (root / DONE).is_file():  # else another start finished it first
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"gzipped {count} frontend files: {before / 1e6:.1f} -> {after / 1e6:.1f} MB",
          file=sys.stderr)  # fmt: skip
    return root


def _zopfli(data: bytes) -> bytes | None:
    """``data`` as zopfli's gzip, or None without the ``zopfli`` package."""
    try:
        from zopfli.gzip import compress
    except ImportError:
        return None
    # 1 iteration: 15 (the default) gain another 0.1 % for 5x the time
    return compress(data, numiterations=1)


def recompress(root: Path) -> tuple[int, int, int] | None:
    """Replace each ``.gz`` under ``root`` by zopfli's, where smaller, the biggest file first
    (the largest savings); a file finished is noted in ZOPFLI_PROGRESS, so a pass stopped
    half-way goes on where it stopped. None without zopfli. Returns (files, bytes before,
    after) of this pass."""
    if _zopfli(b"") is None:
        return None
    progress = root / ZOPFLI_PROGRESS
    finished = set(progress.read_text().split("\n")) if progress.is_file() else set()
    count = before = after = 0
    files = sorted(root.rglob("*.gz"), key=lambda p: (-p.stat().st_size, p.name))
    for packed in files:
        name = str(packed.relative_to(root))
        if name in finished:
            continue
        old = packed.stat().st_size
        new = _zopfli(packed.with_suffix("").read_bytes()) or b""
        if 0 < len(new) < old:
            part = packed.with_name(f".{packed.name}.part")
            part.write_bytes(new)
            os.replace(part, packed)  # atomic: nginx opens the old file or the new one
            count, before, after = count + 1, before + old, after + len(new)
        with progress.open("a") as f:
            f.write(name + "\n")
    (root / ZOPFLI_DONE).write_text(f"zopfli: {count} files, {before} -> {after} bytes\n")
    return count, before, after


def main(argv: list[str]) -> int:
    args = [a for a in argv if a != "--zopfli"]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    root = ensure(Path(args[0]).resolve())
    if "--zopfli" in argv and not (root / ZOPFLI_DONE).is_file():
        done = recompress(root)
        if done is not None:
            count, before, after = done
            print(f"zopfli: {count} frontend files {before / 1e6:.2f} -> {after / 1e6:.2f} MB",
                  file=sys.stderr)  # fmt: skip
    print(root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
