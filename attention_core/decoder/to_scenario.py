"""One decoder head as a direct-mode Scenario with its causal mask, for the walkthrough."""

from __future__ import annotations

from attention_core.decoder.model import DecoderRun
from attention_core.decoder.tokenize import short_label
from attention_core.errors import InputError
from attention_core.parsing import MAX_TOKEN_CHARS, MAX_TOKENS
from attention_core.scenario import Scenario

MAX_NAME_TEXT = 60


def decoder_head_scenario(run: DecoderRun, layer: int, head: int) -> Scenario:
    """Layer ``layer``, head ``head`` (0-based) as a validated direct-mode Scenario.

    Q (n, 64) is the head's own and K, V (n, 64) its key/value head's, all after RoPE, as
    the head used them (float64); the mask is causal. The tokens are the prompt's, as text.
    """
    trace = run.head(layer, head)  # raises InputError for a head that does not exist
    if run.n > MAX_TOKENS:
        raise InputError(
            f"this prompt has {run.n} tokens; the walkthrough shows at most {MAX_TOKENS}",
            where="tokens",
        )
    text = run.text if len(run.text) <= MAX_NAME_TEXT else run.text[: MAX_NAME_TEXT - 1] + "…"
    kv = run.config.kv_head(head)
    scenario = Scenario(
        tokens=tuple(_token_text(t) for t in run.tokens),
        mode="direct",
        Q=trace.Q,
        K=trace.K,
        V=trace.V,
        mask_kind="causal",
        name=f"SmolLM2 layer {layer + 1}, head {head + 1} (K/V head {kv + 1}): {text}",
    )
    scenario.validate()  # raises InputError if anything does not fit the walkthrough
    return scenario


def _token_text(token: str) -> str:
    """A token as Scenario accepts it (1 to MAX_TOKEN_CHARS characters, not blank)."""
    token = short_label(token)
    return token if len(token) <= MAX_TOKEN_CHARS else token[: MAX_TOKEN_CHARS - 1] + "…"
