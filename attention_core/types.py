"""Array aliases shared by the core."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
RealArray = NDArray[np.floating]  # float32 or float64: what attention() reads, in float64
BoolArray = NDArray[np.bool_]
