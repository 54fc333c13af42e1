"""A Chromium CPU profile's self time by group (Plotly, React, Streamlit's frontend, the
engine): what bench/profile/browser_profile.py reports and bench/pages/browser_mh.py uses."""

from __future__ import annotations

import collections

GROUPS = (  # (label, what a script URL contains), first match wins
    ("Plotly", "PlotlyChart"),
    ("React", "react-dom"),
    ("Streamlit frontend", ".js"),
)
NATIVE = {"(program)": "engine (style, layout, paint)", "(garbage collector)": "GC"}


def grouped(prof: dict, steps: int) -> collections.Counter:
    """Self time (ms per interaction) by group; idle time is left out."""
    nodes = {n["id"]: n["callFrame"] for n in prof["nodes"]}
    out: collections.Counter = collections.Counter()
    for node, delta_us in zip(prof["samples"], prof["timeDeltas"], strict=True):
        frame = nodes[node]
        name, url = frame["functionName"], frame["url"]
        if name == "(idle)":
            continue
        group = NATIVE.get(name) or next((g for g, part in GROUPS if part in url), "DOM and other")
        out[group] += delta_us / 1000 / steps
    return out
