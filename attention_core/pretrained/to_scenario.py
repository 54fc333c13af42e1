"""One head of a run as a direct-mode Scenario, so the walkthrough shows its real numbers."""

from __future__ import annotations

from attention_core.errors import InputError
from attention_core.parsing import MAX_TOKEN_CHARS, MAX_TOKENS
from attention_core.pretrained.model import Run
from attention_core.scenario import Scenario

MAX_NAME_TEXT = 60


def head_scenario(run: Run, layer: int, head: int) -> Scenario:
    """Layer ``layer``, head ``head`` (0-based) as a validated direct-mode Scenario.

    Q, K (n, 32) and V (n, 32) are the head's own (as float64); the tokens are the run's
    WordPiece tokens, [CLS] and [SEP] included. A padded run gets a padding mask with
    ``n_valid`` real keys, as the model used. Runs of more than MAX_TOKENS (64) tokens do
    not fit the walkthrough and raise InputError.
    """
    if not (0 <= layer < run.n_layers and 0 <= head < run.n_heads):
        raise InputError(
            f"there is no layer {layer + 1}, head {head + 1}: the model has "
            f"{run.n_layers} layers of {run.n_heads} heads",
            where="head",
        )
    n = len(run.tokens)
    if n > MAX_TOKENS:
        raise InputError(
            f"this text has {n} tokens; the walkthrough shows at most {MAX_TOKENS}. "
            "Use a shorter sentence to open a head in the walkthrough.",
            where="tokens",
        )
    trace = run.heads[layer][head]
    padded = run.n_valid < n
    short = run.text if len(run.text) <= MAX_NAME_TEXT else run.text[: MAX_NAME_TEXT - 1] + "…"
    scenario = Scenario(
        tokens=tuple(_token_text(t) for t in run.tokens),
        mode="direct",
        Q=trace.Q,
        K=trace.K,
        V=trace.V,
        mask_kind="padding" if padded else "none",
        n_valid=run.n_valid if padded else None,
        name=f"MiniLM layer {layer + 1}, head {head + 1}: {short}",
    )
    scenario.validate()  # raises InputError if anything does not fit the walkthrough
    return scenario


def _token_text(token: str) -> str:
    """A token as Scenario accepts it (1 to MAX_TOKEN_CHARS characters, not blank)."""
    token = token if token.strip() else "\u2423"  # a visible space; WordPiece never emits one
    return token if len(token) <= MAX_TOKEN_CHARS else token[: MAX_TOKEN_CHARS - 1] + "…"
