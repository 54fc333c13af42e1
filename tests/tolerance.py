"""Float tolerances derived from the arithmetic, never from what one machine printed.

BLAS kernels (OpenBLAS picks one per CPU, or ``OPENBLAS_CORETYPE`` picks it) sum a dot
product in different orders, so two correct float32 results of the same product differ in
their last bits. A test that compares two evaluations gets its bound from one of these:

* ``matmul_bound``: the worst case for a k-term dot product, any order, with or without
  FMA. One evaluation is within gamma_k * sum|a_i b_i| of the exact value, where
  gamma_k = k u / (1 - k u) and u = eps / 2 is the unit roundoff (Higham, *Accuracy and
  Stability of Numerical Algorithms*, 2nd ed., eq. 3.5); two evaluations are within twice
  that of each other.
* ``scaled_to``: a bound measured in float32 moved to another precision. To first order a
  rounding error is u times coefficients that depend only on the computation, so the same
  computation in float64 errs eps64 / eps32 (about 1.9e-9) times as much.

A deep computation (the real model's six layers) has no useful worst case; its bound is
the reference implementation's own float32 rounding (tests/core/minilm.py).
"""

from __future__ import annotations

import numpy as np

EPS = {np.dtype(np.float32): float(np.finfo(np.float32).eps),  # 1.19e-7
       np.dtype(np.float64): float(np.finfo(np.float64).eps)}  # 2.22e-16  # fmt: skip


def eps(dtype: np.dtype | type | str) -> float:
    return EPS[np.dtype(dtype)]


def gamma(k: int, dtype: np.dtype | type | str) -> float:
    """gamma_k = k u / (1 - k u): the relative error bound of a k-term sum (u = eps / 2)."""
    ku = k * eps(dtype) / 2
    return ku / (1 - ku)


def matmul_bound(A: np.ndarray, B: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """Elementwise bound on |one evaluation of A @ B (+ bias) - another|, in A's precision.

    A (m, k), B (k, n), bias (n,) -> (m, n): 2 gamma_{k+1} (|A| @ |B| + |bias|), the
    magnitudes summed in float64. k + 1 terms when a bias is added after the sum.
    """
    mag = np.abs(A.astype(np.float64)) @ np.abs(B.astype(np.float64))  # (m, n)
    k = A.shape[-1]
    if bias is not None:
        mag = mag + np.abs(bias.astype(np.float64))
        k += 1
    return 2 * gamma(k, A.dtype) * mag


def scaled_to(bound32: float, dtype: np.dtype | type | str) -> float:
    """A float32 rounding bound for the same computation done in ``dtype``."""
    return bound32 * eps(dtype) / eps(np.float32)


def assert_within(actual: np.ndarray, desired: np.ndarray, bound: np.ndarray | float,
                  what: str = "") -> None:  # fmt: skip
    """|actual - desired| <= bound everywhere (NaN and inf must sit in the same places)."""
    a, d = np.asarray(actual, dtype=np.float64), np.asarray(desired, dtype=np.float64)
    assert a.shape == d.shape, f"{what}: shapes {a.shape} and {d.shape}"
    same_special = (np.isnan(a) == np.isnan(d)).all() and (np.isinf(a) == np.isinf(d)).all()
    assert same_special, f"{what}: NaN or inf in different places"
    finite = np.isfinite(d)
    err = np.abs(a - d)[finite]
    limit = np.broadcast_to(np.asarray(bound, dtype=np.float64), a.shape)[finite]
    if err.size and (err > limit).any():
        worst = int(np.argmax(err - limit))
        raise AssertionError(
            f"{what}: {int((err > limit).sum())} of {err.size} values off by more than their "
            f"bound; worst {err[worst]:.3e} against {limit[worst]:.3e}"
        )
