"""The scenarios several benchmarks measure on (AppTest and Chromium alike)."""

from __future__ import annotations

from attention_core import random_scenario, shapes


def scenario_6x4():
    """6 tokens, d_model = 8, d_k = d_v = 8 split into 4 heads of d_head = 2, with W_O."""
    s = random_scenario(seed=1, n_tokens=6, d_model=8, d_k=8, d_v=8)
    return shapes.with_heads(shapes.ready_for_heads(s), 4)
