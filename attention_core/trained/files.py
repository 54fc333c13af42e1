"""A trained model's folder under .model/, and the errors that say how to get its files.

The files come from the package index: ``make model`` fetches them (and converts the
decoder's); the app and the core only read them and never download anything.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from attention_core.errors import InputError

REPO_ROOT = Path(__file__).resolve().parents[2]
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


@dataclass(frozen=True)
class ModelFolder:
    """Where one trained model's files live, and its errors when they are absent or bad.

    ``name``: the folder under .model/ and the model's name in messages; ``env``: the
    variable that overrides the folder; ``files``: what loading reads; ``download``: its
    size as the message says it ("an 83 MB download"); ``kind``: what the messages call it
    ("model", "decoder"); ``error``: the ModelMissing subclass raised; ``converted``: the
    files are made from the download (FETCH_COMMAND fetches and converts it).
    """

    name: str
    env: str
    files: tuple[str, ...]
    download: str
    kind: str = "model"
    error: type[ModelMissing] = ModelMissing
    converted: bool = False

    @property
    def _gets(self) -> str:
        """What FETCH_COMMAND does for this model, as the messages say it."""
        return "fetch and convert it" if self.converted else "fetch it"

    @property
    def default_dir(self) -> Path:
        return REPO_ROOT / ".model" / self.name

    def dir(self, path: str | os.PathLike[str] | None = None) -> Path:
        """The folder to read: ``path``, else $``env``, else .model/``name`` in the repo."""
        if path is not None:
            return Path(path)
        return Path(os.environ.get(self.env) or self.default_dir)

    def check(self, folder: Path) -> None:
        """Raise ``error`` naming every file of ``files`` absent from ``folder``."""
        missing = tuple(name for name in self.files if not (folder / name).is_file())
        if missing:
            raise self.error(
                f"The {self.name} {self.kind} is not on this machine: {', '.join(missing)} "
                f"missing from {folder}. Run `{FETCH_COMMAND}` in the project folder to "
                f"{self._gets} ({self.download} from the package index, once); `make run` and "
                "`make test` also do it.",
                missing=missing,
                command=FETCH_COMMAND,
            )

    def unreadable(self, folder: Path, name: str, exc: Exception) -> ModelMissing:
        """The error for a file ``name`` that is there but cannot be read (cut short, old,
        edited): delete the folder and run FETCH_COMMAND again."""
        again = "make it" if self.converted else "fetch it"  # a converted file is made
        return self.error(
            f"The {self.kind} file {name} in {folder} could not be read "
            f"({type(exc).__name__}: {exc}). "
            f"Delete the folder {folder} and run `{FETCH_COMMAND}` to {again} again.",
            missing=(name,),
            command=FETCH_COMMAND,
        )


def missing_package(name: str) -> ModelMissing:
    """The error for a reader package (safetensors, tokenizers) that is not installed."""
    return ModelMissing(
        f"The Python package {name} is needed to read the model but is not installed. "
        f"Run `{INSTALL_COMMAND}` (or `make run`, which installs it).",
        missing=(name,),
        command=INSTALL_COMMAND,
    )
