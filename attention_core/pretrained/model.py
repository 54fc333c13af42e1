"""Load all-MiniLM-L6-v2 and run a sentence through it, keeping every head's trace.

    model = load_model()                      # ModelMissing says `make model` if absent
    run = model.encode("The animal didn't cross the street because it was too tired")
    run.tokens                                # ('[CLS]', 'the', 'animal', 'didn', "'", ...)
    run.heads[3][1].weights                   # layer 4, head 2 (indices are 0-based)
    run.hidden_states.shape                   # (7, n, 384)

tokenizers is imported inside ``load_model`` only, so the core imports without it; the
weights file is memory-mapped by ``trained.weights`` (NumPy), not read with safetensors.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attention_core.attention import AttentionTrace
from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.parsing import label_tokens
from attention_core.pretrained import bert
from attention_core.pretrained.files import MINILM, check_files, model_dir, unreadable
from attention_core.pretrained.patterns import HeadPattern, head_pattern
from attention_core.pretrained.tokenize import PAD, Tokenized, Truncation, tokenize
from attention_core.trained.patterns import word_id_array
from attention_core.trained.run import one_blas_thread
from attention_core.trained.tokenize import read_tokenizer
from attention_core.trained.weights import map_safetensors

MAX_BATCH = 16


@dataclass(frozen=True, eq=False)
class Run:
    """One text through the model.

    Per token (n entries, padding included in a batch): ``tokens``, ``ids``, ``offsets``,
    ``words``, ``special``, ``unknown`` (see ``Tokenized``). ``heads[layer][head]`` is the
    AttentionTrace of that head (Q, K, V (n, 32); weights (n, n)); ``weights`` stacks
    all of them, (n_layers, n_heads, n, n). ``hidden_states`` (n_layers + 1, n, 384): the
    embeddings, then each layer's output. Indices are 0-based; pages show them 1-based.
    """

    tokenized: Tokenized
    heads: tuple[tuple[AttentionTrace, ...], ...]
    weights: NDArray[np.float64]  # (n_layers, n_heads, n, n)
    hidden_states: NDArray[np.floating]  # (n_layers + 1, n, d_model)
    dtype: np.dtype

    # ---- the tokens, as a page shows them -------------------------------------------
    @property
    def text(self) -> str:
        return self.tokenized.text

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.tokenized.tokens

    @property
    def labels(self) -> list[str]:
        """Unique labels for chart axes ("the (1)", "the (2)"): charts merge equal labels."""
        return label_tokens(self.tokens)

    @property
    def ids(self) -> NDArray[np.intp]:
        return self.tokenized.ids

    @property
    def offsets(self) -> tuple[tuple[int, int], ...]:
        return self.tokenized.offsets

    @property
    def words(self) -> tuple[int | None, ...]:
        return self.tokenized.words

    @property
    def special(self) -> tuple[bool, ...]:
        return self.tokenized.special

    @property
    def unknown(self) -> tuple[bool, ...]:
        return self.tokenized.unknown

    @property
    def unknown_text(self) -> tuple[str, ...]:
        return self.tokenized.unknown_text

    @property
    def truncated(self) -> Truncation | None:
        return self.tokenized.truncated

    @property
    def n_valid(self) -> int:
        """Real tokens; in a padded batch the rest are [PAD]."""
        return self.tokenized.n_valid

    @property
    def n_layers(self) -> int:
        return len(self.heads)

    @property
    def n_heads(self) -> int:
        return len(self.heads[0])

    def word_text(self, i: int) -> str | None:
        return self.tokenized.word_text(i)

    def find(self, token: str, start: int = 0) -> int:
        """Index of the first token equal to ``token`` (case-insensitive) from ``start``."""
        want = token.lower()
        for i in range(start, self.n_valid):
            if self.tokens[i].lower() == want:
                return i
        raise InputError(N_("the token '{token}' is not in this sentence"), "token", token=token)

    # ---- per-head summaries ----------------------------------------------------------
    def pattern(self, layer: int, head: int) -> HeadPattern:
        """The pattern label of one head, computed from its weights (see ``patterns``)."""
        return head_pattern(
            self.weights[layer, head],
            special=np.array(self.special),
            word_ids=word_id_array(self.words),
            token_ids=self.ids,
            n_valid=self.n_valid,
        )

    def patterns(self) -> tuple[tuple[HeadPattern, ...], ...]:
        """``pattern`` for every head: [layer][head]."""
        return self._patterns

    # Computed once per run (a run never changes): 72 heads cost about 20 ms, and the real
    # model page asks on every rerun. cached_property writes the instance's __dict__
    # directly, so it works on a frozen dataclass.
    @functools.cached_property
    def _patterns(self) -> tuple[tuple[HeadPattern, ...], ...]:
        return tuple(
            tuple(self.pattern(layer, head) for head in range(self.n_heads))
            for layer in range(self.n_layers)
        )


@dataclass(frozen=True, eq=False)
class Model:
    """all-MiniLM-L6-v2 (BERT: 6 layers, 12 heads of 32, width 384) in NumPy."""

    weights: bert.BertWeights
    tokenizer: Any  # tokenizers.Tokenizer, padding and truncation off
    path: Path
    pad_id: int

    @property
    def config(self) -> bert.BertConfig:
        return self.weights.config

    @property
    def dtype(self) -> np.dtype:
        return self.weights.dtype

    def tokenize(self, text: str) -> Tokenized:
        """Tokens and word/offset information without running the model (cheap)."""
        return tokenize(self.tokenizer, text)

    def encode(self, text: str) -> Run:
        """Run one text (cut to 128 tokens, ``run.truncated`` says where); no padding."""
        return self.run_tokens(self.tokenize(text))

    def encode_batch(self, texts: Sequence[str]) -> list[Run]:
        """Run texts padded with [PAD] to the longest one, as a batch is fed to BERT.

        Each run has the batch's length n; ``run.n_valid`` real tokens, then [PAD]. Its
        traces carry the (n, n) padding mask (keys past n_valid may not be attended to, so
        they get weight 0); a run without padding has mask None.
        """
        if not 1 <= len(texts) <= MAX_BATCH:
            raise InputError(f"a batch needs 1 to {MAX_BATCH} texts", where="text")
        tokenized = [self.tokenize(t) for t in texts]
        n = max(len(t.tokens) for t in tokenized)
        return [self.run_tokens(t.padded(n, self.pad_id)) for t in tokenized]

    def run_tokens(self, tokenized: Tokenized) -> Run:
        with one_blas_thread():
            hidden, heads = bert.forward(self.weights, tokenized.ids, tokenized.n_valid)
        weights = np.stack([np.stack([t.weights for t in layer]) for layer in heads])
        return Run(
            tokenized=tokenized,
            heads=heads,
            weights=weights,  # (n_layers, n_heads, n, n)
            hidden_states=hidden,
            dtype=self.dtype,
        )


def load_model(path: str | Path | None = None, dtype: type[np.floating] = np.float32) -> Model:
    """Read the model from ``path`` (default: .model/all-MiniLM-L6-v2 in the repo).

    ``dtype`` float32 (default, as the model was trained) or float64 (the weights are
    widened; every product is then float64). Raises ModelMissing, naming the missing files
    and the command that fetches them, when the files are absent or unreadable.
    """
    if np.dtype(dtype) not in (np.float32, np.float64):
        raise InputError("the model runs in float32 or float64", where="dtype")
    folder = model_dir(path)
    check_files(folder)
    tokenizer = _read_tokenizer(folder)
    config = _read_config(folder)
    tensors = _read_tensors(folder)
    try:
        weights = bert.BertWeights.from_tensors(config, tensors, dtype)
    except KeyError as exc:
        raise unreadable(folder, "model.safetensors", exc) from None
    return Model(
        weights=weights, tokenizer=tokenizer, path=folder, pad_id=tokenizer.token_to_id(PAD)
    )


def _read_config(folder: Path) -> bert.BertConfig:
    try:
        return bert.BertConfig.from_json(json.loads((folder / "config.json").read_text()))
    except (ValueError, KeyError, TypeError) as exc:
        raise unreadable(folder, "config.json", exc) from None


def _read_tokenizer(folder: Path) -> Any:
    tokenizer = read_tokenizer(MINILM, folder)
    tokenizer.no_padding()  # the file pads every text to 128; a run has its own length
    tokenizer.no_truncation()  # done in tokenize(), which reports where the text was cut
    return tokenizer


def _read_tensors(folder: Path) -> dict[str, np.ndarray]:
    """The weights, memory-mapped (``trained.weights``: no copy, and no GIL held meanwhile)."""
    try:
        return map_safetensors(folder / "model.safetensors")
    except (OSError, ValueError) as exc:  # a cut-short or malformed file
        raise unreadable(folder, "model.safetensors", exc) from None
