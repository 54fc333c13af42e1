"""Read Plotly figures back from what Streamlit sends: decode base64 typed arrays."""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np

from attention_ui.draw.contrast import plain


def decode(value: Any) -> Any:
    """Plotly 7 sends numpy arrays as {"dtype", "bdata", "shape"}; turn them back into arrays."""
    if isinstance(value, dict) and "bdata" in value:
        arr = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        if "shape" in value:
            arr = arr.reshape([int(s) for s in str(value["shape"]).split(",")])
        return arr
    if isinstance(value, list):
        return np.array([decode(v) for v in value], dtype=object)
    return value


def chart_specs(at: Any) -> list[dict]:
    """Every Plotly chart on an AppTest page as its JSON spec (data + layout)."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def numeric(value: Any) -> np.ndarray:
    """A heatmap's z (array or nested list with None for gaps) as float with NaN gaps."""
    v = decode(value)
    if isinstance(v, np.ndarray) and v.dtype != object:
        return v.astype(float)
    return np.array([[np.nan if x is None else float(x) for x in row] for row in value])


def menu_links(at: Any) -> list[dict]:
    """The sidebar menu's links (title, path, href) as sent to the browser (one component)."""
    menus = [
        el for el in at.sidebar.get("bidi_component") if el.proto.component_name.endswith("menu")
    ]
    return [] if not menus else json.loads(menus[0].proto.json)["items"]


def cell_texts(trace: dict) -> list[list[str]]:
    """A heatmap's printed cell texts without the colour each number is printed in."""
    return [[plain(str(t)) for t in row] for row in trace["text"]]


def grid_key(at, name: str) -> str:
    """The key of the Inputs page's grid editor for matrix ``name`` (grids.grid_key)."""
    ss = at.session_state  # AppTest's session state has no .get
    gens = ss["grid_gens"] if "grid_gens" in ss else {}  # noqa: SIM401
    return f"grid_{name}_{gens.get(name, at.session_state['editor_gen'])}"
