"""One example of a training run at one step, as a direct-mode Scenario for the walkthrough."""

from __future__ import annotations

from attention_core.scenario import Scenario
from attention_core.training.trainer import History


def step_scenario(history: History, step: int) -> Scenario:
    """Example 0's Q, K (at the last kept step at or before ``step``) and V, with the run's
    scaling and mask, as a validated Scenario (InputError if it does not fit)."""
    c = history.at(step)
    s = history.settings
    same = history.query_tokens == history.key_tokens  # self-attention: one row of tokens
    scenario = Scenario(
        tokens=tuple(history.key_tokens),
        query_tokens=None if same else tuple(history.query_tokens),
        mode="direct",
        Q=history.Q[c],
        K=history.K[c],
        V=history.V,
        mask_kind="causal" if history.mask is not None else "none",
        scaled=history.scaled,
        name=(f"Training lab: {s.task}, d_k {s.d_k}, "
              f"{'scaled' if history.scaled else 'unscaled'}, step {history.checkpoints[c]}"),
    )  # fmt: skip
    scenario.validate()
    return scenario
