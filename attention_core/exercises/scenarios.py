"""Scenarios the exercises are built on, beside the presets'.

They depend only on ``Scenario``, never on the rest of this package, so
``attention_core.presets`` can import them (to offer them as presets) without a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_core.i18n import N_
from attention_core.multihead import head_slice
from attention_core.scenario import Scenario
from attention_core.types import FloatArray


def causal_scenario() -> Scenario:
    """Three tokens, d_k = 4 (scale 1/2), with a causal mask."""
    return Scenario(
        name=N_("Exercise: causal mask"),
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
        name=N_("Exercise: from embeddings"),
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
        name=N_("Exercise: no scaling, d_k = 32"),
        mode="direct",
        tokens=("big", "dot", "products", "saturate")[:n],
        Q=Q, K=K, V=np.eye(n),
        scaled=False,
    )  # fmt: skip


@dataclass(frozen=True, eq=False)
class MultiHeadInputs:
    """What multi-head attention needs beyond a Scenario: the full-width projections, W_o
    and the head count. X (n, d_model); W_q, W_k, W_v (d_model, n_heads·d_head);
    W_o (n_heads·d_head, d_model)."""

    tokens: tuple[str, ...]
    X: FloatArray
    W_q: FloatArray
    W_k: FloatArray
    W_v: FloatArray
    W_o: FloatArray
    n_heads: int

    def head_scenario(self, h: int, name: str) -> Scenario:
        """Head ``h`` alone as an embeddings-mode scenario: X with its slices of W_q, W_k, W_v."""
        cols = head_slice(h, self.W_q.shape[1] // self.n_heads)  # head h's columns
        return Scenario(
            name=name, tokens=self.tokens, X=self.X,
            W_q=self.W_q[:, cols], W_k=self.W_k[:, cols], W_v=self.W_v[:, cols],
        )  # fmt: skip


def two_heads() -> MultiHeadInputs:
    """Two tokens, d_model = 4, two heads of d_head = 2, small integers.

    Head 1 (columns 1-2) scores [2 0; 0 2]: each token looks mostly at itself. Head 2
    (columns 3-4) scores [0 4; 2 0]: each token looks mostly at the other one. W_q = I, so
    Q is X itself; W_o = [I I; I -I] adds the two heads and takes their difference.
    """
    return MultiHeadInputs(
        tokens=("ice", "cream"),
        X=np.array([[1.0, 0, 0, 1], [0, 1, 1, 0]]),  # (n=2, d_model=4)
        W_q=np.eye(4),  # (d_model=4, n_heads·d_head=4)
        W_k=np.array([[2.0, 0, 2, 0], [0, 2, 0, 4], [0, 0, 0, 0], [0, 0, 0, 0]]),  # (4, 4)
        W_v=np.array([[2.0, 0, 0, 0], [0, 0, 0, 2], [0, 2, 1, 0], [0, 0, 1, 0]]),  # (4, 4)
        W_o=np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, 1, 0, -1]]),  # (4, 4)
        n_heads=2,
    )


# The names of the scenarios the exercises open in the walkthrough: English in links and
# files, shown in the learner's language (frame.sidebar.shown_name).
NAMES = frozenset({
    N_("Exercise: causal mask"),
    N_("Exercise: from embeddings"),
    N_("Exercise: no scaling, d_k = 32"),
    N_("Exercise: two heads (head 1 alone)"),
})  # fmt: skip
