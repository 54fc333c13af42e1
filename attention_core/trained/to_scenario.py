"""One head of a trained model's run as a direct-mode Scenario, so the walkthrough shows
its real numbers."""

from __future__ import annotations

from collections.abc import Sequence

from attention_core.attention import AttentionTrace
from attention_core.errors import InputError
from attention_core.parsing import MAX_TOKEN_CHARS, MAX_TOKENS
from attention_core.scenario import Scenario
from attention_core.trained.tokenize import shorten

MAX_NAME_TEXT = 60


def walkthrough_scenario(
    trace: AttentionTrace,
    tokens: Sequence[str],
    title: str,
    text: str,
    *,
    too_many: str,
    mask_kind: str = "none",
    n_valid: int | None = None,
) -> Scenario:
    """The head's Q, K and V (as float64) as a validated direct-mode Scenario.

    tokens (n,): the run's tokens as labels, each cut to MAX_TOKEN_CHARS here; the name is
    ``title``: ``text`` cut to MAX_NAME_TEXT. A run of more than MAX_TOKENS (64) tokens
    does not fit the walkthrough: an InputError says so with the template ``too_many``
    (marked ``N_``; its ``{n}`` tokens, at most ``{max}``).
    """
    if len(tokens) > MAX_TOKENS:
        raise InputError(too_many, where="tokens", n=str(len(tokens)), max=str(MAX_TOKENS))
    scenario = Scenario(
        tokens=tuple(shorten(t, MAX_TOKEN_CHARS) for t in tokens),
        mode="direct",
        Q=trace.Q,
        K=trace.K,
        V=trace.V,
        mask_kind=mask_kind,
        n_valid=n_valid,
        name=f"{title}: {shorten(text, MAX_NAME_TEXT)}",
    )
    scenario.validate()  # raises InputError if anything does not fit the walkthrough
    return scenario
