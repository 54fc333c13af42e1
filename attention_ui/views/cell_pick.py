"""A click on a heatmap's cell, reported to the script: the heatmap itself is the click layer.

Why not Streamlit's ``on_select``: it reports selected points, and plotly.js selects scatter
points but not heatmap cells (streamlit/streamlit#8760), so a clickable grid used to lay a
see-through square marker over each of its cells. On a real head's 15 x 15 grid those 225
squares cost about as much to draw again as the whole floor chart (issue 21: a 15 x 15
score grid redrew in 2.36x the floor's time with them, 1.45x without, one server, same run).

plotly.js does emit ``plotly_click`` for a heatmap cell, with the cell's row and column.
This Streamlit v2 component (no iframe, no HTML of its own) listens for it on the chart
named by ``chart`` and sends the (row, column) back as a trigger value. It re-attaches
when Streamlit draws a new chart in that place (a remount), and hands each click to the
callback of the latest run. Nothing the learner typed reaches the script below: it reads
two integers from Plotly's event.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

CELL = "cell"  # the trigger: [row, column] of the clicked cell, 0-based

# Called on every run with the chart's key. The listener is attached once per Plotly graph
# div (a remount makes a new one); it calls the newest setTriggerValue, kept on the div.
JS = """
export default function ({ data, parentElement, setTriggerValue }) {
  const selector = `.st-key-${data.chart} .js-plotly-plot`;
  const attach = () => {
    const gd = document.querySelector(selector);
    if (!gd || typeof gd.on !== "function") return false;
    gd.__alCellSend = setTriggerValue;
    if (gd.__alCellPick) return true;
    gd.__alCellPick = true;
    gd.on("plotly_click", (event) => {
      const point = event && event.points && event.points[0];
      const index = point && point.pointNumber;
      if (!Array.isArray(index) || index.length !== 2) return;  // a heatmap cell: [row, col]
      gd.__alCellSend("cell", [Number(index[0]), Number(index[1])]);
    });
    return true;
  };
  if (parentElement.__alCellTimer) clearInterval(parentElement.__alCellTimer);
  // The chart may be drawn after this runs (Plotly's code loads on first use), and
  // Streamlit may mount a new chart in its place later: look again until it is there,
  // then whenever the chart's element changes.
  let tries = 0;
  parentElement.__alCellTimer = setInterval(() => {
    if (attach() || ++tries > 300) clearInterval(parentElement.__alCellTimer);
  }, 100);
  attach();
  const holder = document.querySelector(`.st-key-${data.chart}`);
  if (holder && !holder.__alCellWatch) {
    holder.__alCellWatch = new MutationObserver(() => attach());
    holder.__alCellWatch.observe(holder, { childList: true, subtree: true });
  }
}
"""

_CELL_PICK = st.components.v2.component("attention_lab.cell_pick", js=JS, isolate_styles=False)


def listen(chart: str, key: str, on_pick: Callable[[int, int], None]) -> None:
    """Report clicks on the heatmap drawn with ``plot(..., key=chart)``: ``on_pick(row, col)``
    runs (as a widget callback, before the rerun's script) with the clicked cell, 0-based."""

    def picked() -> None:
        result = st.session_state.get(key)
        cell = getattr(result, CELL, None) if result is not None else None
        if isinstance(cell, (list, tuple)) and len(cell) == 2:
            on_pick(int(cell[0]), int(cell[1]))

    _CELL_PICK(key=key, data={"chart": chart}, on_cell_change=picked)
