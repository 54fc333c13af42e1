"""A safetensors file's tensors as read-only views into one memory map of the file.

Why not ``safetensors.numpy.load_file``: it copies the whole file into the process while
holding the GIL. On this machine MiniLM's 91 MB took 1.1-1.3 s, and for that long no other
session of the server could run: the first student to open the Real model lab stalled a
whole class (bench/RESULTS.md, "A server that has just started"). A memory map costs no
copy and no wait: the pages are read when a product first touches them, and every
process of ``make classroom`` shares them through the page cache, as the decoder's weights
already are.

The format (https://huggingface.co/docs/safetensors): 8 bytes, the little-endian length N
of a JSON header; the header, mapping each tensor's name to its ``dtype``, ``shape`` and
``data_offsets`` [begin, end) counted from the end of the header (and an optional
``__metadata__``); then the data, little-endian and C-ordered.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2",
          "I8": "i1", "U8": "u1", "BOOL": "?"}  # fmt: skip
MAX_HEADER = 100_000_000  # bytes: the format's own limit on the header


def map_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Each tensor of the file at ``path``, by name: a read-only array over the mapped file.

    Raises ValueError for anything that is not a whole, well-formed file (cut short, a
    header that does not parse, offsets outside the data or not matching the shape), and
    OSError when the file cannot be opened.
    """
    size = path.stat().st_size
    with path.open("rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise ValueError(f"{size} bytes: too short for a safetensors header")
        n = int.from_bytes(head, "little")
        if n > MAX_HEADER or 8 + n > size:
            raise ValueError(f"header of {n} bytes in a file of {size}")
        header = json.loads(f.read(n))
    header.pop("__metadata__", None)
    start = 8 + n
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=start, shape=(size - start,))
    return {name: _tensor(data, name, info) for name, info in header.items()}


def _tensor(data: np.ndarray, name: str, info: dict) -> np.ndarray:
    """One tensor's view into ``data`` (the bytes after the header), checked against it."""
    try:
        dtype = np.dtype(DTYPES[info["dtype"]])
        shape = tuple(int(d) for d in info["shape"])
        begin, end = (int(x) for x in info["data_offsets"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"tensor {name}: bad header entry {info!r} ({exc})") from None
    if not 0 <= begin <= end <= data.size or end - begin != math.prod(shape) * dtype.itemsize:
        raise ValueError(f"tensor {name}: bytes [{begin}, {end}) of {data.size} for {shape}")
    view = data[begin:end].view(dtype).reshape(shape)
    return view.view(np.ndarray)  # a plain, read-only ndarray over the same mapped pages
