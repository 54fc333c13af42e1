"""The exact GELU, x * Phi(x) = x/2 * (1 + erf(x / sqrt(2))), vectorised without SciPy.

NumPy has no ``erf``. BERT was trained with the exact GELU (``hidden_act: "gelu"``), and the
tanh approximation is off by up to ~5e-4, which would break parity with the reference model.
``math.erf`` is exact but scalar: looping it over a (32, 1536) activation costs tens of ms.

How ``erf`` is computed here: a table of Taylor polynomials. On a grid of centres c = j/8
(j = 0..48, so c in [0, 6]) the derivatives of erf are known in closed form,

    erf^(k)(c) = 2/sqrt(pi) * (-1)^(k-1) * H_{k-1}(c) * exp(-c^2)   (H: Hermite polynomials),

so each centre gets the degree-10 polynomial erf(c + t) = sum_k a_k t^k, |t| <= 1/16, with
a_0 = math.erf(c). The Taylor remainder is below 1e-16 there (|erf^(11)| <= 7e4 and
(1/16)^11 / 11! = 1.4e-21), so float64 results agree with ``math.erf`` to a few ulps
(tests/core/test_pretrained_gelu.py measures the worst case; bench/RESULTS.md the cost).
Beyond |x| = 6, erf(x) rounds to +-1 in float64 (erfc(6) = 2e-17), so |x| is clipped there.
Nothing is fitted and no constant is copied: the table is built at import from the formula.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

STEP = 1 / 8  # spacing of the Taylor centres
LAST_CENTRE = 6.0  # erf(6 + 1/16) == 1.0 in float64
DEGREE = 10


def _taylor_table() -> NDArray[np.float64]:
    """Coefficients a_k of erf(c + t) = sum_k a_k t^k at every centre: shape (DEGREE + 1, n_c)."""
    centres = np.arange(0, int(LAST_CENTRE / STEP) + 1) * STEP  # (n_c,)
    table = np.empty((DEGREE + 1, centres.size))
    table[0] = [math.erf(c) for c in centres]
    gauss = 2 / math.sqrt(math.pi) * np.exp(-(centres**2))  # erf'(c)
    h_prev, h = np.zeros_like(centres), np.ones_like(centres)  # H_{-1} := 0, H_0 = 1
    for k in range(1, DEGREE + 1):
        # erf^(k)(c) / k!, with H_{k-1}(c) in h
        table[k] = (-1) ** (k - 1) * h * gauss / math.factorial(k)
        h_prev, h = h, 2 * centres * h - 2 * (k - 1) * h_prev  # H_k = 2c H_{k-1} - 2(k-1) H_{k-2}
    return table


_TABLE64 = _taylor_table()
_TABLE32 = _TABLE64.astype(np.float32)


def erf(x: NDArray[np.floating]) -> NDArray[np.floating]:
    """Elementwise erf in the dtype of ``x`` (float32 or float64); any shape."""
    x = np.asarray(x)
    table = _TABLE32 if x.dtype == np.float32 else _TABLE64
    u = np.minimum(np.abs(x), LAST_CENTRE + STEP / 2) * (1 / STEP)  # erf is odd; beyond 6, 1
    centre = np.rint(u)  # nearest centre (in steps), so |t| <= STEP / 2
    t = (u - centre) * STEP  # exact: u - centre is exact and STEP a power of 2
    j = centre.astype(np.intp)
    acc = table[DEGREE].take(j)
    for k in range(DEGREE - 1, -1, -1):  # Horner: sum_k a_k t^k
        acc *= t
        acc += table[k].take(j)
    return np.copysign(acc, x)


def gelu(x: NDArray[np.floating]) -> NDArray[np.floating]:
    """Exact GELU: x * Phi(x) = x/2 * (1 + erf(x / sqrt(2))), same dtype and shape as ``x``."""
    half = x.dtype.type(0.5)
    return half * x * (1 + erf(x * x.dtype.type(1 / math.sqrt(2))))
