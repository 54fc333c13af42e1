"""The online softmax of one query row (FlashAttention's way): the row's keys a tile at a
time, with the running maximum m, the running sum l, the rescale factor and the output so
far after each tile, against the full softmax's. The numbers are the core's
(``attention_core.online_attention``); the Decoder lab shows it as a stage of one head and
the walkthrough's Softmax page for its own scenario's picked row.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import AttentionTrace, OnlineTrace, online_attention
from attention_ui.draw import figures as fig
from attention_ui.frame.keys import URL_PARAMS
from attention_ui.frame.widgets import bad_link_value, static_table, whole_number_in
from attention_ui.i18n import _
from attention_ui.stages.data import Labels
from attention_ui.views.cache import lazy
from attention_ui.views.chart import plot


def expander(labels: Labels, t: AttentionTrace, row: int, key: str) -> None:
    """The walkthrough's: ``row`` of the scenario's trace in a lazy expander (drawn only
    while open); its tile size is the URL parameter ``<key>_tile``."""
    box = st.expander(_("The online softmax: this row a tile at a time"),
                      key=f"{key}_online", on_change="rerun")  # fmt: skip
    if box.open is False:
        return
    with box:
        online_row(labels, t, row, t.K.shape[0], f"{key}_tile")


def online_row(labels: Labels, t: AttentionTrace, row: int, n: int, tile_key: str) -> None:
    """Row ``row`` of trace ``t`` over its first ``n`` keys (a causal row: up to the query,
    the rest can never enter), in tiles of the size picked on the slider ``tile_key`` (a
    declared URL parameter: a link keeps it)."""
    assert tile_key in URL_PARAMS, f"undeclared URL parameter {tile_key!r}"
    st.markdown(
        _(
            "Fast kernels (FlashAttention) never hold a whole row of scores. They read the "
            "keys **a tile at a time** and keep three things: the largest score so far **m**, "
            "the sum so far **l** of exp(score − m), and the output so far. When a tile brings "
            "a larger m, what was kept is multiplied by **exp(m_old − m_new)** first. The "
            "stable softmax's “subtract the max” is the first half of this idea."
        )
    )
    bad_link_value(tile_key, *whole_number_in(1, max(2, n)))
    size = st.slider(_("Keys per tile"), 1, max(2, n), min(4, n), key=tile_key,
                     bind="query-params")  # fmt: skip
    mask = None if t.mask is None else t.mask[row : row + 1, :n]
    # the trace's scale is 1 when it is unscaled (and when d_k = 1, where both agree)
    o = online_attention(t.Q[row : row + 1], t.K[:n], t.V[:n], int(size), mask=mask,
                         scaled=t.scale != 1.0)  # fmt: skip
    seen = n if mask is None else int(mask.sum())
    st.caption(
        _("Row “{q}” (the token picked above): the {n} keys it may see, in {tiles} tiles.").format(
            q=labels.queries[row], n=seen, tiles=len(o.tiles)
        )
    )
    static_table(_tile_frame(labels, o, t.output[row]), hide_index=True)
    partials = np.vstack([s.partial[0] for s in o.tiles] + [t.output[row]])
    rows = [_("tile {i}").format(i=i + 1) for i in range(len(o.tiles))] + [_("full softmax")]
    cols = [str(i + 1) for i in range(partials.shape[1])]
    plot(lazy(fig.heatmap, partials, rows, cols, _("The row's output after each tile"),
              row_title=_("after"), col_title=_("dimension")),
         key=f"{tile_key}_out")  # fmt: skip
    _memory(o, t, row, n)


def _memory(o: OnlineTrace, t: AttentionTrace, row: int, n: int) -> None:
    diff = float(np.abs(o.output[0] - t.output[row]).max())
    st.markdown(
        _(
            "After the last tile the output equals the full softmax's to {diff} (float64). "
            "**Memory:** this row held {held} numbers at a time (m, l, {d} output numbers and "
            "one tile of {tile} scores), whatever the length; the full softmax holds the "
            "row's {n} scores, and the score grid {rows} × {n} = {grid}."
        ).format(
            diff=f"{diff:.0e}",
            held=o.held,
            d=t.V.shape[1],
            tile=o.tile,
            n=n,
            rows=t.Q.shape[0],
            grid=f"{t.Q.shape[0] * n:,}",
        )
    )


def _tile_frame(labels: Labels, o: OnlineTrace, final: np.ndarray) -> pd.DataFrame:
    """One row per tile: its keys, its largest score, m, the rescale factor, l, and how far
    the output so far is from the final one."""

    def shown(x: float) -> str:
        return "−∞" if x == -np.inf else f"{x:.4f}"

    return pd.DataFrame(
        {
            _("tile"): [str(i + 1) for i in range(len(o.tiles))],
            _("keys"): [f"{labels.keys[s.start]} … {labels.keys[s.stop - 1]}" for s in o.tiles],
            _("largest score in the tile"): [shown(float(s.scores[0].max())) for s in o.tiles],
            "m": [shown(float(s.m[0])) for s in o.tiles],
            "exp(m_old − m_new)": [shown(float(s.rescale[0])) for s in o.tiles],
            "l": [shown(float(s.l[0])) for s in o.tiles],
            _("distance to the final output"): [
                f"{float(np.abs(s.partial[0] - final).max()):.2e}" for s in o.tiles
            ],
        }
    )
