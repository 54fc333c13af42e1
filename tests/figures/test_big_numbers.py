"""Large finite numbers are written as powers of ten wherever a cell prints them (issue 41,
defect 9): 1.37e30 in fixed decimals is 36 characters, and a table's cell showed its tail
(".37e+30")."""

from __future__ import annotations

import numpy as np

from attention_ui.draw.figures import cell_texts
from attention_ui.draw.text import fixed, vec
from attention_ui.stages.data import residual_table


def test_one_formatter_writes_large_numbers_as_powers_of_ten() -> None:
    assert fixed(1.37e30) == "1.3700e+30"
    assert fixed(-2.5e6, 2) == "−2.50e+06"
    assert fixed(999_999.0, 1) == "999999.0"  # below a million: the digits as they are
    assert fixed(float("inf")) == "∞" and fixed(float("-inf")) == "−∞"


def test_table_and_heatmap_cells_stay_short() -> None:
    assert vec(np.array([1.37e30, -0.5])) == "[1.3700e+30, −0.5000]"
    assert cell_texts(np.array([[1.37e30, 0.25]])) == [["1.37e+30", "0.25"]]
    assert cell_texts(np.array([[1.37e30]]), digits=3, fixed=True) == [["1.370e+30"]]
    table = residual_table(np.array([1.0, 2.0]), np.array([1.37e30, 0.5]))
    assert table.loc["e1"].tolist() == ["1.0000", "1.3700e+30", "1.3700e+30"]
    assert table.loc["e2"].tolist() == ["2.0000", "0.5000", "2.5000"]
