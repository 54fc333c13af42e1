"""Load SmolLM2-135M-Instruct and run a prompt through it, keeping what every head saw.

    decoder = load_decoder()                # DecoderMissing says `make model` if absent
    run = decoder.run("The capital of France is")
    run.next_tokens[0]                      # NextToken(id=7042, text=' Paris', p=0.77...)
    run.head(3, 1).weights                  # layer 4, head 2 (0-based): an AttentionTrace
    run.weights.shape                       # (30, 9, n, n), every head, lower-triangular

The weights are one memory-mapped float32 file (``convert.py``): loading takes a fraction
of a second once the file is in the page cache, and every process shares that one copy.
``tokenizers`` is imported inside ``load_decoder`` only, so the core imports without it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attention_core.attention import AttentionTrace
from attention_core.decoder import llama, sampling
from attention_core.decoder.cache import (
    CacheComparison,
    KVCache,
    cached_step,
    compare_with_recompute,
    prefill,
)
from attention_core.decoder.files import (
    CACHE_VERSION,
    INDEX_FILE,
    SMOLLM2,
    TOKENIZER_FILE,
    WEIGHTS_FILE,
    check_cache,
    decoder_dir,
    unreadable,
)
from attention_core.decoder.llama import DecoderConfig, DecoderWeights, LayerAttention
from attention_core.decoder.patterns import DecoderPattern, decoder_pattern
from attention_core.decoder.sampling import Distribution, whole_number
from attention_core.decoder.tokenize import Prompt, tokenize_prompt
from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.trained.patterns import word_id_array
from attention_core.trained.run import check_head, one_blas_thread
from attention_core.trained.tokenize import read_tokenizer

TOP_K = 10  # next tokens kept per run
MAX_NEW_TOKENS = 32  # a continuation's limit


@dataclass(frozen=True)
class NextToken:
    """One candidate for the token after the prompt: its id, its text and probability."""

    id: int
    text: str
    p: float


@dataclass(frozen=True, eq=False)
class DecoderRun:
    """One prompt through the decoder.

    ``layers[l]``: what layer l's attention saw (llama.LayerAttention: Q and K before and
    after RoPE, the shared K and V); ``weights`` (n_layers, n_heads, n, n) every head's
    attention weights; ``next_tokens``: the TOP_K likeliest tokens after the prompt.
    Indices are 0-based; pages show them 1-based.
    """

    prompt: Prompt
    config: DecoderConfig
    layers: tuple[LayerAttention, ...]
    weights: NDArray[np.float64]  # (n_layers, n_heads, n, n)
    next_tokens: tuple[NextToken, ...]
    logits: NDArray[np.float32]  # (vocab,) the last token's: the next token's scores

    def distribution(
        self, temperature: float, top_k: int | None = None, top_p: float | None = None
    ) -> Distribution:
        """The next token's distribution at ``temperature``, cut by top-k then top-p."""
        return sampling.distribution(self.logits, temperature, top_k, top_p)

    def first_draw(
        self, temperature: float, top_k: int | None, top_p: float | None, seed: int
    ) -> int:
        """The token Decoder.generate draws first after this prompt with these settings."""
        rng = np.random.default_rng(seed)
        return sampling.draw(self.distribution(temperature, top_k, top_p), sampling.uniform(rng))

    @property
    def cache(self) -> KVCache:
        """The prompt's KV cache: every layer's keys (after RoPE) and values, as computed."""
        return KVCache(tuple(la.K for la in self.layers), tuple(la.V for la in self.layers))

    # ---- the tokens, as a page shows them -------------------------------------------
    @property
    def text(self) -> str:
        return self.prompt.text

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.prompt.tokens

    @property
    def labels(self) -> list[str]:
        return self.prompt.labels

    @property
    def ids(self) -> NDArray[np.intp]:
        return self.prompt.ids

    @property
    def special(self) -> tuple[bool, ...]:
        return self.prompt.special

    @property
    def n(self) -> int:
        return self.prompt.n

    @property
    def n_layers(self) -> int:
        return self.config.n_layers

    @property
    def n_heads(self) -> int:
        return self.config.n_heads

    # ---- heads ---------------------------------------------------------------------------
    def head(self, layer: int, head: int) -> AttentionTrace:
        """Layer ``layer``, query head ``head`` (0-based) as an AttentionTrace: Q its own,
        K and V its key/value head's, after RoPE, with the causal mask."""
        check_head(layer, head, self.n_layers, self.n_heads, "decoder")
        return self.layers[layer].trace(self.config, head)  # ~0.1 ms at 64 tokens

    @property
    def heads(self) -> tuple[tuple[AttentionTrace, ...], ...]:
        """Every head's trace, [layer][head] (270 of them: built on demand)."""
        return tuple(tuple(la.trace(self.config, h) for h in range(self.n_heads))
                     for la in self.layers)  # fmt: skip

    def pattern(self, layer: int, head: int) -> DecoderPattern:
        return self.patterns()[layer][head]

    def patterns(self) -> tuple[tuple[DecoderPattern, ...], ...]:
        """The pattern label of every head, [layer][head], computed from its weights."""
        return self._patterns

    @functools.cached_property
    def _patterns(self) -> tuple[tuple[DecoderPattern, ...], ...]:
        word_ids = word_id_array(self.prompt.words)
        return tuple(
            tuple(decoder_pattern(W, word_ids, self.ids) for W in layer) for layer in self.weights
        )


@dataclass(frozen=True, eq=False)
class Decoder:
    """SmolLM2-135M-Instruct (Llama: 30 layers, 9 query heads over 3 key/value heads of
    64, width 576) in NumPy, its weights memory-mapped."""

    weights: DecoderWeights
    tokenizer: Any  # tokenizers.Tokenizer
    path: Path
    special_ids: tuple[int, ...]
    eos_id: int

    @property
    def config(self) -> DecoderConfig:
        return self.weights.config

    def tokenize(self, text: str) -> Prompt:
        """The prompt's tokens without running the model (cheap)."""
        return tokenize_prompt(self.tokenizer, text, self.special_ids)

    def decode(self, ids: Sequence[int]) -> str:
        return self.tokenizer.decode(list(map(int, ids)), skip_special_tokens=False)

    def logits(self, ids: Sequence[int] | NDArray[np.integer]) -> NDArray[np.float32]:
        """The forward pass alone: (n, vocab) logits for token ids (n,)."""
        with one_blas_thread():
            logits, _ = llama.forward(self.weights, ids)
        return logits

    def run(self, text: str) -> DecoderRun:
        """Run a prompt (cut to 64 tokens: ``run.prompt.cut`` says where)."""
        return self.run_prompt(self.tokenize(text))

    def run_prompt(self, prompt: Prompt) -> DecoderRun:
        with one_blas_thread():
            logits, layers = llama.forward(self.weights, prompt.ids, last_only=True)
        logp = log_softmax(logits)[0]  # (vocab,) float64
        top = np.argpartition(-logp, TOP_K)[:TOP_K]
        top = top[np.argsort(-logp[top], kind="stable")]  # the TOP_K likeliest, in order
        next_tokens = tuple(NextToken(int(i), self.decode([i]), float(np.exp(logp[i])))
                            for i in top)  # fmt: skip
        weights = np.stack([la.weights for la in layers])  # (n_layers, n_heads, n, n)
        # each layer's weights become a view of the stack: one copy per run, not two
        layers = tuple(
            dataclasses.replace(la, weights=w) for la, w in zip(layers, weights, strict=True)
        )
        return DecoderRun(prompt=prompt, config=self.config, layers=layers, weights=weights,
                          next_tokens=next_tokens, logits=logits[0])  # fmt: skip

    def loss(self, text: str) -> float:
        """Mean next-token loss (cross-entropy, nats) of a text (cut to 64 tokens): how
        surprised the model is, on average, by each of the text's own next tokens."""
        ids = self.tokenize(text).ids
        if ids.shape[0] < 2:
            raise InputError("a loss needs at least two tokens", where="text")
        logp = log_softmax(self.logits(ids))  # (n, vocab)
        return float(-logp[np.arange(ids.shape[0] - 1), ids[1:]].mean())

    def greedy(self, text: str, n_new: int) -> list[int]:
        """The ids of the ``n_new`` tokens the model finds likeliest, one after another
        (each appended before the next is predicted; stops at the end-of-turn token)."""
        return self.generate(text, n_new, 0.0)

    def step_and_recompute(self, run: DecoderRun, token: int) -> CacheComparison:
        """``token`` after the run's prompt both ways: one cached step, and the whole text
        again (what the KV cache saves), for a page to show that they agree."""
        with one_blas_thread():
            return compare_with_recompute(self.weights, run.ids, run.cache, token)

    def next_token_distribution(
        self, prompt: str, temperature: float, top_k: int | None = None,
        top_p: float | None = None,
    ) -> Distribution:  # fmt: skip
        """The next token's distribution: softmax(logits / T) cut by top-k then top-p
        (sampling.distribution; T = 0 greedy). ``.ids`` and ``.p``, likeliest first."""
        sampling.check_sampling(temperature, top_k, top_p)
        ids = self.tokenize(prompt).ids
        with one_blas_thread():
            logits, _ = llama.forward(self.weights, ids, last_only=True)
        return sampling.distribution(logits[0], temperature, top_k, top_p)

    def generate(
        self, prompt: str, n: int, temperature: float, top_k: int | None = None,
        top_p: float | None = None, seed: int = 0, cache: bool = True,
    ) -> list[int]:  # fmt: skip
        """The ids of ``n`` tokens drawn one after another (stops after the end-of-turn
        token), each from next_token_distribution's rule with one uniform number of a
        generator seeded by ``seed`` (sampling.uniform: the same draws on every machine).
        ``cache``: each new token's one row against the KV cache; False recomputes the
        whole text for every token. Both give the same tokens."""
        check_generation(n, seed)
        sampling.check_sampling(temperature, top_k, top_p)
        ids = list(self.tokenize(prompt).ids)
        rng = np.random.default_rng(seed)
        new: list[int] = []
        with one_blas_thread():
            logits, kv = prefill(self.weights, ids)
            while True:
                dist = sampling.distribution(logits, temperature, top_k, top_p)
                new.append(sampling.draw(dist, sampling.uniform(rng)))
                if len(new) == n or new[-1] == self.eos_id:
                    return new
                if cache:
                    step = cached_step(self.weights, kv, new[-1])
                    logits, kv = step.logits, step.cache
                else:
                    ids.append(new[-1])
                    logits = llama.forward(self.weights, ids, last_only=True)[0][0]


def check_generation(n: object, seed: object) -> None:
    """1 <= n <= MAX_NEW_TOKENS and a seed that is a whole number >= 0, or an InputError."""
    if not whole_number(n, 1) or n > MAX_NEW_TOKENS:
        raise InputError(N_("generate 1 to {most} tokens, not {n}"), where="n",
                         most=MAX_NEW_TOKENS, n=str(n))  # fmt: skip
    if not whole_number(seed, 0):
        raise InputError(N_("the seed must be a whole number, 0 or more, not {seed}"),
                         where="seed", seed=str(seed))  # fmt: skip


def log_softmax(logits: NDArray[np.floating]) -> NDArray[np.float64]:
    """Row-wise log-probabilities in float64 (the max subtracted first). (n, v) -> (n, v)."""
    z = np.asarray(logits, dtype=np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def load_decoder(path: str | Path | None = None) -> Decoder:
    """Map the converted decoder in ``path`` (default .model/SmolLM2-135M-Instruct).

    Raises DecoderMissing, naming what is missing and `make model`, when the converted files
    are absent, from an older cache version, or unreadable.
    """
    folder = decoder_dir(path)
    check_cache(folder)
    try:
        info = json.loads((folder / INDEX_FILE).read_text())
        if info.get("version") != CACHE_VERSION:
            raise ValueError(f"cache version {info.get('version')}, expected {CACHE_VERSION}")
        config = DecoderConfig.from_json(info["config"])
    except (ValueError, KeyError, TypeError) as exc:
        raise unreadable(folder, INDEX_FILE, exc) from None
    weights = _map_weights(folder, info, config)
    tokenizer = read_tokenizer(SMOLLM2, folder, TOKENIZER_FILE)
    return Decoder(weights=weights, tokenizer=tokenizer, path=folder,
                   special_ids=tuple(info["special_ids"]), eos_id=int(info["eos_id"]))  # fmt: skip


def _map_weights(folder: Path, info: dict, config: DecoderConfig) -> DecoderWeights:
    """Views into the memory-mapped flat array (read-only: nothing can write the weights)."""
    try:
        flat = np.load(folder / WEIGHTS_FILE, mmap_mode="r")
        if flat.dtype != np.float32 or flat.shape != (info["length"],):
            raise ValueError(f"{flat.dtype} {flat.shape}, expected float32 ({info['length']},)")
        flat = flat.view(np.ndarray)  # a plain ndarray over the same mapped pages
        tensors = {
            name: flat[t["offset"] : t["offset"] + int(np.prod(t["shape"]))].reshape(t["shape"])
            for name, t in info["tensors"].items()
        }
        return DecoderWeights.from_tensors(config, tensors)
    except (OSError, ValueError, KeyError) as exc:
        raise unreadable(folder, WEIGHTS_FILE, exc) from None
