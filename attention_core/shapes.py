"""The scenario's shape rules: which sizes each matrix has, and how edits keep them in step.

A scenario's matrices must agree: X has one row per token, W_q and W_k share d_k, and so on.
When the learner changes one thing (the tokens, a size, a pasted matrix, the input mode),
the others are resized to follow, keeping every number that still fits.
"""

from __future__ import annotations

import numpy as np

from attention_core.multihead import head_divisors
from attention_core.resize import fill, resize
from attention_core.scenario import Scenario
from attention_core.types import FloatArray

Dims = dict[str, int]  # d_model, d_k, d_v

# Which sizes a matrix's (rows, cols) fix; None: the rows follow the tokens instead.
SIZES_OF: dict[str, tuple[str | None, str]] = {
    "X": (None, "d_model"),
    "W_q": ("d_model", "d_k"),
    "W_k": ("d_model", "d_k"),
    "W_v": ("d_model", "d_v"),
    "Q": (None, "d_k"),
    "K": (None, "d_k"),
    "V": (None, "d_v"),
    "W_o": ("d_v", "d_model"),  # the heads' concatenation (n, d_v) back to d_model
}
# Sizes a mode starts from when it has never had matrices of its own.
FRESH_DIMS: Dims = {"d_model": 4, "d_k": 3, "d_v": 3}


def _cols(M: FloatArray | None) -> int:
    return 1 if M is None else int(np.atleast_2d(M).shape[1])


def dims(s: Scenario) -> Dims:
    """d_model, d_k and d_v as the scenario's matrices have them (d_model 0 in direct mode)."""
    if s.mode == "embeddings":
        return {"d_model": _cols(s.X), "d_k": _cols(s.W_q), "d_v": _cols(s.W_v)}
    return {"d_model": 0, "d_k": _cols(s.Q), "d_v": _cols(s.V)}


def target_shape(s: Scenario, name: str, d: Dims) -> tuple[int, int]:
    """The (rows, cols) matrix ``name`` must have for the scenario's tokens and sizes ``d``."""
    rows_dim, cols_dim = SIZES_OF[name]
    n_rows = len(s.queries) if name == "Q" else len(s.tokens)
    return (n_rows if rows_dim is None else d[rows_dim], d[cols_dim])


def conform(s: Scenario, d: Dims | None = None) -> Scenario:
    """Every matrix (and a custom mask) resized to the tokens and sizes, keeping numbers."""
    d = d or dims(s)
    changes: dict[str, object] = {
        n: resize(getattr(s, n), *target_shape(s, n, d)) for n in s.grid_names
    }
    changes["n_heads"] = fitting_heads(s, d)
    if s.custom_mask is not None:
        changes["custom_mask"] = conform_mask(s.custom_mask, len(s.queries), len(s.tokens))
    if s.n_valid is not None:
        changes["n_valid"] = min(s.n_valid, len(s.tokens))
    return s.replace(**changes)


def conform_mask(mask: object, n_q: int, n_k: int) -> np.ndarray:
    """A (n_q, n_k) boolean mask keeping the overlap of ``mask``; new cells may attend."""
    out = np.ones((n_q, n_k), dtype=bool)  # (n_q, n_k)
    old = np.atleast_2d(np.asarray(mask, dtype=bool))
    r, c = min(n_q, old.shape[0]), min(n_k, old.shape[1])
    out[:r, :c] = old[:r, :c]
    return out


def fitting_heads(s: Scenario, d: Dims) -> int:
    """The scenario's head count if sizes ``d`` can still split into it, else 1."""
    fits = s.mode == "embeddings" and d["d_k"] == d["d_v"] and d["d_k"] % s.n_heads == 0
    return s.n_heads if fits else 1


def with_size(s: Scenario, dim: str, n: int) -> Scenario:
    """The scenario with d_model, d_k or d_v set to ``n``; the matrices follow.

    With several heads, d_k and d_v are one width (n_heads·d_head), so they move together;
    a width the heads no longer divide falls back to one head.
    """
    d = dims(s)
    d[dim] = n
    if s.n_heads > 1 and dim in ("d_k", "d_v"):
        d["d_k"] = d["d_v"] = n
    return conform(s, d)


def with_heads(s: Scenario, n_heads: int) -> Scenario:
    """The scenario split into ``n_heads`` heads (one of ``head_divisors`` of its width)."""
    return s.replace(n_heads=n_heads)


def ready_for_heads(s: Scenario, seed: int = 0) -> Scenario:
    """The scenario made able to run multi-head attention: the one-click fix of the lab.

    Embeddings mode, d_v = d_k so W_q, W_k and W_v split into slices of one width, and
    W_o (d_v, d_model) added when missing: the identity when d_v = d_model (then the output
    is the concatenation itself), else seeded random numbers. Everything the scenario
    already has is kept where it fits. Q, K and V typed directly are kept exactly
    (``embeddings_of``). Queries that are other tokens than the keys (cross-attention)
    cannot be: heads here are self-attention, so each token then asks with its own key
    (Q = K), and K and V are kept.
    """
    if s.mode == "direct":
        if s.query_tokens is not None:
            s = s.replace(query_tokens=None, Q=s.K)
        s = embeddings_of(s)
    s = switch_mode(s, "embeddings")
    d = dims(s)
    d["d_v"] = d["d_k"]
    s = conform(s, d)
    if s.W_o is None:
        how = "identity" if d["d_v"] == d["d_model"] else "random"
        s = s.replace(W_o=fill(how, target_shape(s, "W_o", d), seed=seed, name="W_o"))
    return s


def embeddings_of(s: Scenario) -> Scenario:
    """Direct mode's Q (n, d_k), K (n, d_k), V (n, d_v) as embeddings that project to them.

    X = [Q | K | V] (n, d_model = 2·w + w) and W_q, W_k, W_v pick out its three blocks, so
    X W_q = Q, X W_k = K and X W_v = V exactly. The narrower of d_k and d_v gains columns of
    zeros to width w = max(d_k, d_v), as heads need d_k = d_v: zeros in V add zero output
    columns; zeros in Q and K leave Q Kᵀ as it was (the scaling then divides by √w).
    """
    Q, K, V = (np.asarray(getattr(s, n), dtype=float) for n in "QKV")
    w = max(Q.shape[1], V.shape[1])

    def wide(M: FloatArray) -> FloatArray:  # (n, c) -> (n, w), zeros on the right
        return np.pad(M, ((0, 0), (0, w - M.shape[1])))

    X = np.hstack([wide(Q), wide(K), wide(V)])  # (n, 3w)
    pick = [np.zeros((3 * w, w)) for _ in range(3)]
    for i, P in enumerate(pick):
        P[i * w : (i + 1) * w] = np.eye(w)  # (3w, w): block i of X
    return s.replace(mode="embeddings", X=X, W_q=pick[0], W_k=pick[1], W_v=pick[2])


def heads_ready(s: Scenario) -> bool:
    """Whether the scenario can run multi-head attention as it is (see ``ready_for_heads``)."""
    d = dims(s)
    return s.mode == "embeddings" and d["d_k"] == d["d_v"] and s.W_o is not None


def head_choices(s: Scenario) -> list[int]:
    """The head counts the scenario's width d_k splits into evenly."""
    return head_divisors(dims(s)["d_k"])


def with_fill(s: Scenario, name: str, how: str, seed: int = 0) -> Scenario:
    """Matrix ``name`` refilled (random, identity or zeros) at its current shape."""
    return s.replace(**{name: fill(how, target_shape(s, name, dims(s)), seed=seed, name=name)})


def with_matrix(s: Scenario, name: str, M: FloatArray) -> tuple[Scenario, Dims]:
    """A pasted matrix: its shape sets the sizes it fixes, and the other matrices follow.

    Returns the new scenario and the sizes that changed. ``M`` is kept exactly as typed:
    if its rows disagree with the tokens, validation says so next to it.
    """
    d = dims(s)
    implied = {dim: n for dim, n in zip(SIZES_OF[name], M.shape, strict=True) if dim}
    changed = {dim: n for dim, n in implied.items() if d.get(dim) != n}
    d.update(implied)
    return conform(s.replace(**{name: M}), d).replace(**{name: M}), changed


def switch_mode(s: Scenario, mode: str, qkv: tuple[FloatArray, ...] | None = None) -> Scenario:
    """Embeddings <-> direct, carrying over what the scenario already has.

    ``qkv``: the current trace's Q, K, V, kept as the direct mode's matrices (so switching
    shows the same numbers). Matrices a mode never had are filled with seeded random numbers.
    """
    if mode == s.mode:
        return s
    if mode == "direct":
        new = s.replace(mode="direct", n_heads=1)  # heads split projections: none here
        if qkv is not None:
            new = new.replace(Q=qkv[0], K=qkv[1], V=qkv[2])
        d = {"d_model": 0, "d_k": _cols_or(new.Q, "d_k"), "d_v": _cols_or(new.V, "d_v")}
    else:
        new = s.replace(mode="embeddings", query_tokens=None)
        d = {"d_model": _cols_or(new.X, "d_model"), **{k: dims(s)[k] for k in ("d_k", "d_v")}}
    missing = {
        n: fill("random", target_shape(new, n, d), seed=i, name=n)
        for i, n in enumerate(new.matrix_names)
        if getattr(new, n) is None
    }
    return conform(new.replace(**missing), d)


def _cols_or(M: FloatArray | None, dim: str) -> int:
    return _cols(M) if M is not None else FRESH_DIMS[dim]
