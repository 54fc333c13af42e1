"""One head of a run as a direct-mode Scenario, so the walkthrough shows its real numbers."""

from __future__ import annotations

from attention_core.i18n import N_
from attention_core.pretrained.model import Run
from attention_core.scenario import Scenario
from attention_core.trained.run import check_head
from attention_core.trained.to_scenario import walkthrough_scenario


def head_scenario(run: Run, layer: int, head: int, title: str | None = None) -> Scenario:
    """Layer ``layer``, head ``head`` (0-based) as a validated direct-mode Scenario.

    Q, K (n, 32) and V (n, 32) are the head's own (as float64); the tokens are the run's
    WordPiece tokens, [CLS] and [SEP] included. A padded run gets a padding mask with
    ``n_valid`` real keys, as the model used. Runs of more than MAX_TOKENS (64) tokens do
    not fit the walkthrough and raise InputError. ``title`` begins the scenario's name
    (the app gives it in the learner's language; "MiniLM layer 4, head 2" by default).
    """
    check_head(layer, head, run.n_layers, run.n_heads, "model")
    padded = run.n_valid < len(run.tokens)
    return walkthrough_scenario(
        run.heads[layer][head],
        # a visible space for a blank token; WordPiece never emits one
        [t if t.strip() else "\u2423" for t in run.tokens],
        title or f"MiniLM layer {layer + 1}, head {head + 1}",
        run.text,
        too_many=N_(
            "this text has {n} tokens; the walkthrough shows at most {max}. Use a shorter "
            "sentence to open a head in the walkthrough."
        ),
        mask_kind="padding" if padded else "none",
        n_valid=run.n_valid if padded else None,
    )
