"""Figures of the real-model page: every head of a run at once (no Streamlit).

A run of all-MiniLM-L6-v2 has 6 layers x 12 heads. The page shows them as one grid of
small weight maps (``gallery``) and as 6 x 12 grids of one number per head (``head_grid``,
``targets_grid``). Rows are layers and columns heads, 1-based as the page counts them.
Tokens are learner text: every label goes through ``figures.safe``.

``phone=True`` lays a figure out for a phone's 390 px (look.phone): the gallery gets short
one-line labels and a fixed width the page scrolls sideways, and the 6 x 12 grids print no
numbers (twelve "0.00" do not fit across a phone; a tap shows the value). These figures
carry their own width, so figures.for_phone leaves them as they are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from attention_core.types import FloatArray
from attention_ui.draw import figures as fig
from attention_ui.draw.describe import Alternative
from attention_ui.draw.phone import wrapped_title
from attention_ui.draw.widths import printed_px
from attention_ui.i18n import N_, _, ngettext

GALLERY_ROW_PX = 118  # height of one layer's row of maps, label line included
# The names under the maps take the theme's ink: on the theme's grey between the maps it
# reads 6.6:1 (light) and 6.1:1 (dark); a fixed #333333 was 2:1 on the dark grey.
LABEL_FONT = {"size": 10}
# On a phone twelve maps share about 350 px: 9 px type keeps a five-letter short name
# ("Senke", "sumid") inside its map's 27 px (at 10 px German names ran into each other).
PHONE_LABEL_FONT = {"size": 9}
MAX_TARGET_CHARS = 9  # a top-target token longer than this is cut in its cell
# On a phone: each head's map gets PHONE_MAP_PX across (the page scrolls the rest), a
# layer's row PHONE_ROW_PX, and pattern names one short word (the caption spells them out).
PHONE_MAP_PX, PHONE_ROW_PX = 46, 66
PHONE_GRID_WIDTH = 350  # the 6 x 12 grids fit the main column of a 390 px screen
PHONE_FONT = {"size": 11}  # ticks and hover; the title a little larger (phone_layout)
SHORT_NAMES = {"previous token": N_("prev"), "next token": N_("next"),
               "[CLS]/[SEP] sink": N_("sink"), "same word": N_("word"),
               "broad": N_("broad")}  # fmt: skip
# A 6 x 12 grid's top margin: the title's own line at the top of the figure (as a heatmap's,
# figures.TITLE), then the "head" axis title and the H1..H12 labels, one line each.
GRID_TOP = fig.TITLE_ROOM + 2 * (fig.FONT["size"] + 6) + 8
GRID_FONT = 11  # px: a 6 x 12 grid's printed cells
GRID_LEFT = 70  # px: "L6" and the "layer" axis title left of a grid
DESKTOP_MAP_PX = 52  # px: a head's map in the gallery at the least (names of 10 px type)


def layer_names(n: int) -> list[str]:
    """Row labels: "L1".."L6" (short, so 12 columns still fit a phone's width)."""
    return [f"L{i + 1}" for i in range(n)]


def head_names(n: int) -> list[str]:
    return [f"H{i + 1}" for i in range(n)]


def short_name(name: str) -> str:
    """A pattern's English name as a phone shows it: one short word, translated."""
    return _(SHORT_NAMES.get(name, name))


def wrap_name(name: str) -> str:
    """A pattern name on two short lines ("previous<br>token"), so it fits under a small map
    (a name without a space, as in Chinese, stays on one line)."""
    first, _sep, rest = name.replace("/", "/ ").partition(" ")
    return f"{first}<br>{rest.replace('/ ', '/')}" if rest else first


# ---- the gallery: 72 weight maps in one heatmap ---------------------------------------------
def gallery_gap(n: int) -> int:
    """Rows of space under each layer's maps, for the two-line pattern names (in cells).

    A layer's row is GALLERY_ROW_PX high and holds n + gap cells; two lines of 10 px text
    need about a quarter of it.
    """
    return math.ceil(0.3 * n) + 1


def gallery_mosaic(weights: FloatArray) -> tuple[np.ndarray, int, int]:
    """Every head's (n, n) weights side by side in one array, NaN between them.

    weights (n_layers, n_heads, n, n) -> (mosaic, step_x, step_y): head (l, h) sits at rows
    l * step_y ..+n and columns h * step_x ..+n. One heatmap trace draws all 72 maps in the
    browser far faster than 72 subplots (and builds in ~1 ms instead of ~60 ms here).
    """
    n_layers, n_heads, n = weights.shape[:3]
    step_x, step_y = n + 1, n + gallery_gap(n)
    mosaic = np.full((n_layers * step_y, n_heads * step_x - 1), np.nan, dtype=np.float32)
    for layer in range(n_layers):
        for head in range(n_heads):
            r, c = layer * step_y, head * step_x
            mosaic[r : r + n, c : c + n] = weights[layer, head]  # (n, n)
    return mosaic, step_x, step_y


def gallery(
    weights: FloatArray, names: Sequence[Sequence[str]], title: str, phone: bool = False
) -> go.Figure:
    """All heads' weights as small maps: a row per layer, a column per head.

    weights (n_layers, n_heads, n, n), rows = queries, columns = keys, 0..1 on one colour
    scale; names[layer][head]: the head's computed pattern name, English ("" for none),
    written under its map in the session's language.
    """
    n_layers, n_heads, n = weights.shape[:3]
    z, step_x, step_y = gallery_mosaic(weights)
    heat = go.Heatmap(
        z=z,
        colorscale=fig.SEQUENTIAL,
        zmin=0.0,
        zmax=1.0,
        showscale=False,  # the maps' width matters more; the scale is 0 (dark) to 1 (yellow)
        hovertemplate=_("weight") + " %{z:.3f}<extra></extra>",
        hoverongaps=False,
    )
    name = short_name if phone else (lambda x: wrap_name(_(x)))
    labels = [
        {"x": h * step_x + (n - 1) / 2, "y": layer * step_y + n - 0.5, "yanchor": "top",
         "text": name(names[layer][h]), "showarrow": False,
         "font": PHONE_LABEL_FONT if phone else LABEL_FONT}
        for layer in range(n_layers) for h in range(n_heads) if names[layer][h]
    ]  # fmt: skip
    centres_x = [h * step_x + (n - 1) / 2 for h in range(n_heads)]
    centres_y = [layer * step_y + (n - 1) / 2 for layer in range(n_layers)]
    layout = {
        "title": {"text": fig.safe(title), "x": 0.0},
        "font": fig.FONT,
        "height": 90 + (PHONE_ROW_PX if phone else GALLERY_ROW_PX) * n_layers,
        "width": 40 + PHONE_MAP_PX * n_heads if phone else None,
        # a narrow window that is no phone (no "Mobile" in its agent) scrolls the maps
        # sideways rather than run the H1..H12 names into the title and each other
        "meta": {"min_px": 40 + (PHONE_MAP_PX if phone else DESKTOP_MAP_PX) * n_heads},
        "margin": {"l": 10, "r": 10, "t": 80, "b": 10},
        "plot_bgcolor": "#FFFFFF",
        "annotations": labels,
        "xaxis": {"side": "top", "tickvals": centres_x, "ticktext": head_names(n_heads),
                  "showgrid": False, "zeroline": False, "range": [-0.5, z.shape[1] - 0.5]},
        "yaxis": {"tickvals": centres_y, "ticktext": layer_names(n_layers), "showgrid": False,
                  "zeroline": False, "range": [z.shape[0] - 0.5, -0.5], "automargin": True},
    }  # fmt: skip
    figure = go.Figure(data=[heat], layout=layout)
    return phone_layout(figure) if phone else figure


def gallery_alternative(names: Sequence[Sequence[str]], n: int, title: str) -> Alternative:
    """The gallery's text alternative: its maps and their computed pattern names, and the
    names as a table (layer x head); the maps' own numbers are each head's stage tables."""
    n_layers, n_heads = len(names), len(names[0]) if names else 0
    found = [f"{layer_names(n_layers)[la]} {head_names(n_heads)[h]} {_(names[la][h])}"
             for la in range(n_layers) for h in range(n_heads) if names[la][h]]  # fmt: skip
    text = _(
        "{title}: {layers} layers × {heads} heads, each a {n} × {n} map of weights from 0 to 1."
    ).format(title=title, layers=n_layers, heads=n_heads, n=n)
    text += " " + (ngettext("{n} head with a clear pattern: {heads}.",
                            "{n} heads with a clear pattern: {heads}.", len(found))
                   .format(n=len(found), heads=", ".join(found)) if found
                   else _("No head with a clear pattern."))  # fmt: skip
    table = pd.DataFrame([[_(name) if name else "—" for name in row] for row in names],
                         index=layer_names(n_layers), columns=head_names(n_heads))  # fmt: skip
    table.index.name, table.columns.name = _("layer"), _("head")
    return Alternative(title, text, table)


def phone_layout(figure: go.Figure) -> go.Figure:
    """Small type, upright head names and no "head" axis title (H1..H12 say it), so the
    title, the names and the maps do not run into each other at a phone's width."""
    figure.update_layout(font=PHONE_FONT, title={"font": {"size": 14}},
                         margin={"t": 60})  # fmt: skip
    figure.update_xaxes(tickangle=0, title=None, tickfont={"size": 9})
    return wrapped_title(figure)


# ---- one number per head: 6 x 12 grids --------------------------------------------------------
def head_grid(
    values: FloatArray,
    title: str,
    colorbar_title: str | None = None,
    pick: tuple[int, int] | None = None,
    phone: bool = False,
) -> go.Figure:
    """values (n_layers, n_heads) in 0..1, printed in the cells; ``pick`` outlines one head;
    the colour bar's title: "weight" (in the session's language) unless given."""
    text = [[f"{v:.2f}" for v in row] for row in np.asarray(values).tolist()]
    return _grid(values, text, title, colorbar_title or _("weight"), pick, phone)


def targets_grid(
    weight: FloatArray, target_labels: Sequence[Sequence[str]], title: str, phone: bool = False
) -> go.Figure:
    """Where one token looks in every head: the top key's label and weight in each cell.

    weight (n_layers, n_heads): the weight on that key (the colour); target_labels[l][h]:
    the key's label (learner text, escaped here).
    """
    text = [
        [f"{fig.safe(_short(label))}<br>{w:.2f}" for label, w in zip(labels, row, strict=True)]
        for labels, row in zip(target_labels, np.asarray(weight).tolist(), strict=True)
    ]
    return _grid(weight, text, title, _("weight"), phone=phone)


def _grid(
    values: FloatArray,
    text: list[list[str]],
    title: str,
    colorbar_title: str,
    pick: tuple[int, int] | None = None,
    phone: bool = False,
) -> go.Figure:
    """A layers x heads heatmap on 0..1 with ``text`` (already escaped) in its cells, or,
    on a phone, only on hover.

    Cells print fixed-point numbers: a weight of 1e-16 reads 0.00, not 1.00e-16, so every
    cell stays as narrow as its neighbours.
    """
    n_layers, n_heads = np.shape(values)
    heat = go.Heatmap(
        z=values, x=head_names(n_heads), y=layer_names(n_layers), text=text,
        texttemplate="" if phone else "%{text}", textfont={"size": GRID_FONT},
        colorscale=fig.SEQUENTIAL, zmin=0.0, zmax=1.0, xgap=2, ygap=2,
        colorbar={"title": {"text": colorbar_title}, "thickness": 8 if phone else 14},
        hovertemplate=_("layer") + " %{y}, " + _("head") + " %{x}: %{text}<extra></extra>",
    )  # fmt: skip
    outline = [] if pick is None else [{
        "type": "rect", "x0": pick[1] - 0.5, "x1": pick[1] + 0.5, "y0": pick[0] - 0.5,
        "y1": pick[0] + 0.5, "line": {"color": "#D55E00", "width": 4}}]  # fmt: skip
    layout = {
        "title": fig.TITLE | {"text": fig.safe(title)},  # above the axis title, not into it
        "font": fig.FONT,
        "height": 120 + (36 if phone else 58) * n_layers + GRID_TOP - 70,
        "width": PHONE_GRID_WIDTH if phone else None,
        # on a desktop its printed cells need their width: a narrower window scrolls it
        "meta": {} if phone else {"min_px": _least_grid(text, n_heads)},
        "margin": {"l": 10, "r": 10, "t": GRID_TOP, "b": 10},
        "xaxis": {"side": "top", "type": "category", "title": {"text": _("head"), "standoff": 2}},
        "yaxis": {
            "type": "category",
            "autorange": "reversed",
            "automargin": True,
            "title": {"text": _("layer")},
        },
        "shapes": outline,
    }
    figure = go.Figure(data=[heat], layout=layout)
    return phone_layout(figure) if phone else figure


def _least_grid(text: list[list[str]], n_heads: int) -> int:
    """px under which a desktop 6 x 12 grid's printed cells ("sat<br>0.93") would run into
    each other: the widest line in the cells' 11 px type, the row labels and the colour bar."""
    lines = [[line for t in row for line in t.split("<br>")] for row in text]
    return GRID_LEFT + n_heads * printed_px(lines, GRID_FONT) + fig.COLORBAR


def _short(label: str) -> str:
    return label if len(label) <= MAX_TARGET_CHARS else label[: MAX_TARGET_CHARS - 1] + "…"


def compare_bars(
    labels: Sequence[str], first: FloatArray, second: FloatArray, title: str,
    phone: bool = False,
) -> go.Figure:  # fmt: skip
    """One query's weights in two sentences, key by key (keys lined up between them).

    labels (n,) the first sentence's keys ("tired / wide" where the two differ); first,
    second (n,): the weights, NaN where the second sentence has no matching key.
    """
    names = (_("first sentence"), _("second sentence"))
    bars = [
        go.Bar(x=fig.safe_labels(labels), y=y, name=name, marker_color=fig.OKABE_ITO[k],
               hovertemplate=f"{name}: %{{x}} %{{y:.3f}}<extra></extra>")
        for k, (name, y) in enumerate(zip(names, (first, second), strict=True))
    ]  # fmt: skip
    layout = {
        "title": {"text": fig.safe(title), "x": 0.0},
        "font": fig.FONT,
        "height": 360,
        "barmode": "group",
        "yaxis": {"title": {"text": _("weight")}, "range": [0, 1], "automargin": True},
        "xaxis": {"type": "category", "automargin": True},
        "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 1, "xanchor": "right"},
        "margin": {"l": 10, "r": 10, "t": 80, "b": 10},
    }
    figure = go.Figure(data=bars, layout=layout)
    return wrapped_title(figure) if phone else figure
