"""Issue 34: what a newcomer hit outside the live class (AppTest and the pure data steps).

Expected numbers are computed here with NumPy from the scenario's own matrices."""

from __future__ import annotations

import numpy as np

from attention_core import PRESETS
from attention_ui.stages.data import softmax_table
from tests.tolerance import assert_within, eps, softmax_bound


def test_a_phones_softmax_table_keeps_the_weights_in_three_columns() -> None:
    s = PRESETS["cat_mat"].build()
    t = s.trace()
    desk = softmax_table(t, 1, s.key_labels)
    phone = softmax_table(t, 1, s.key_labels, phone=True)
    assert list(desk.columns) == ["score", "e^score", "e^(score − max)",
                                  "row sum of e^(score − max)", "weight"]  # fmt: skip
    assert list(phone.columns) == ["score", "e^(score − max)", "weight"]
    row = s.trace().scores[1] / np.sqrt(3)  # cat_mat: d_k = 3, scaled
    want = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
    # the trace scales by multiplying with 1/√3, here by dividing: 2 roundings apart at most
    delta = 2 * eps(np.float64) * np.abs(row)
    assert_within(phone["weight"].to_numpy(), want, softmax_bound(row, want, delta))
    assert phone["score"].iloc[1] == f"{row[1]:.4g}"
