"""The walkthrough's Softmax page offers its picked row's online softmax (lazy: drawn only
while open), on the learner's own scenario, masks included: the numbers are the core's
online_attention, the last row the full softmax's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS, online_attention
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from tests.pages.lab_pages import chart
from tests.spec import chart_specs, numeric

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_the_online_softmax_of_the_picked_row_with_a_padding_mask() -> None:
    s = PRESETS["cat_mat"].build().replace(mask_kind="padding", n_valid=4)  # 2 keys masked
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params[keys.URL_KEY] = s.to_url()
    at.query_params[keys.SOFTMAX_TILE] = "3"
    at.run()
    at.switch_page(BY_KEY["softmax"].path).run()
    assert [e.label for e in at.expander if e.label.startswith("The online softmax")]
    titles = [sp["layout"]["title"]["text"] for sp in chart_specs(at)]
    assert not [x for x in titles if "after each tile" in x], "drawn while closed"
    at.session_state["softmax_online"] = True  # open it (lazy: drawn only while open)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    t = s.trace()
    row = 0
    o = online_attention(t.Q[:1], t.K, t.V, 3, mask=t.mask[:1])
    assert len(o.tiles) == 2  # 6 keys: the second tile holds 2 masked keys and 1 allowed
    heat = numeric(chart(at, "The row's output after each tile")["data"][0]["z"])
    np.testing.assert_array_equal(heat[:-1], [tile.partial[0] for tile in o.tiles])
    np.testing.assert_array_equal(heat[-1], t.output[row])
    frame = next(x.value for x in at.table if "m" in x.value.columns)
    assert frame["l"].tolist() == [f"{tile.l[0]:.4f}" for tile in o.tiles]
