"""One decoder head as a direct-mode Scenario with its causal mask, for the walkthrough."""

from __future__ import annotations

from attention_core.decoder.model import DecoderRun
from attention_core.decoder.tokenize import short_label
from attention_core.i18n import N_
from attention_core.scenario import Scenario
from attention_core.trained.to_scenario import walkthrough_scenario


def decoder_head_scenario(
    run: DecoderRun, layer: int, head: int, title: str | None = None
) -> Scenario:
    """Layer ``layer``, head ``head`` (0-based) as a validated direct-mode Scenario.

    Q (n, 64) is the head's own and K, V (n, 64) its key/value head's, all after RoPE, as
    the head used them (float64); the mask is causal. The tokens are the prompt's, as text.
    ``title`` begins the scenario's name (the app gives it in the learner's language).
    """
    trace = run.head(layer, head)  # raises InputError for a head that does not exist
    kv = run.config.kv_head(head)
    return walkthrough_scenario(
        trace,
        [short_label(t) for t in run.tokens],
        title or f"SmolLM2 layer {layer + 1}, head {head + 1} (K/V head {kv + 1})",
        run.text,
        too_many=N_("this prompt has {n} tokens; the walkthrough shows at most {max}"),
        mask_kind="causal",
    )
