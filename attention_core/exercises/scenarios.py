"""Scenarios the exercises are built on, beside the presets'.

They depend only on ``Scenario``, never on the rest of this package, so
``attention_core.presets`` can import them (to offer them as presets) without a cycle.
"""

from __future__ import annotations

import numpy as np

from attention_core.scenario import Scenario


def causal_scenario() -> Scenario:
    """Three tokens, d_k = 4 (scale 1/2), with a causal mask."""
    return Scenario(
        name="Exercise: causal mask",
        mode="direct",
        tokens=("I", "like", "tea"),
        Q=np.array([[2.0, 0, 0, 0], [0, 2, 2, 0], [2, 0, 2, 2]]),  # (3, d_k=4)
        K=np.array([[1.0, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 1]]),  # (3, d_k=4)
        V=np.array([[1.0, 0], [0, 1], [1, 1]]),  # (3, d_v=2)
        mask_kind="causal",
    )


def embeddings_scenario() -> Scenario:
    """Three tokens, d_model = d_k = d_v = 2, small whole-number projections."""
    return Scenario(
        name="Exercise: from embeddings",
        tokens=("cats", "chase", "mice"),
        X=np.array([[1.0, 0], [0, 1], [1, 1]]),  # (3, d_model=2)
        W_q=np.array([[1.0, 0], [1, 1]]),  # (2, d_k=2)
        W_k=np.array([[1.0, 1], [0, 1]]),  # (2, d_k=2)
        W_v=np.array([[1.0, 0], [0, 2]]),  # (2, d_v=2)
    )


def saturation_scenario(seed: int = 6, n: int = 4, d_k: int = 32) -> Scenario:
    """Unit-normal Q and K with d_k = 32 and the scaling off: most rows' softmax saturates."""
    rng = np.random.default_rng(seed)
    Q = np.round(rng.normal(size=(n, d_k)), 1) + 0.0  # (n, d_k)
    K = np.round(rng.normal(size=(n, d_k)), 1) + 0.0  # (n, d_k)
    return Scenario(
        name="Exercise: no scaling, d_k = 32",
        mode="direct",
        tokens=("big", "dot", "products", "saturate")[:n],
        Q=Q, K=K, V=np.eye(n),
        scaled=False,
    )  # fmt: skip
