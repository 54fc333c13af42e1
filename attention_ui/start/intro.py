"""Pieces of the Start page: the 'it -> animal' intuition and the clickable pipeline."""

from __future__ import annotations

import streamlit as st

from attention_core import PRESETS
from attention_core.presets import hungry
from attention_ui.draw import figures as fig
from attention_ui.draw.diagram import pipeline_svg
from attention_ui.frame import look
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.sidebar import load_example
from attention_ui.frame.widgets import link
from attention_ui.i18n import N_, _
from attention_ui.stages.registry import PIPELINE
from attention_ui.views.chart import plot

# What the diagram shows, in the order of its boxes (assets/pipeline.svg).
DIAGRAM_ALT = N_(
    "A flow chart of five boxes from top to bottom: MatMul Q Kᵀ, Scale × 1/√d_k, "
    "Mask (optional), SoftMax of each row, and MatMul of the weights with V, giving the output."
)


def intuition() -> None:
    """Which word does 'it' look at? The post's numbers, computed by the core."""
    trace = hungry().trace()
    figure = fig.row_bars(
        trace.weights[0],
        ["animal", "jungle", "hunt"],
        _("Attention of 'it' over the candidate words"),
        _("weight"),
    )
    plot(figure, key="start_intuition")
    st.caption(
        _(
            "“The animal in the jungle went out on a hunt because **it** was hungry.” With "
            "scaled scores 3, 1 and 0, softmax gives 'animal' 84 % of the attention: the model "
            "reads 'it' mostly as 'the animal'."
        )
    )


def pipeline() -> None:
    """The five steps as a row of boxes; each box opens its page."""
    widths = [5, 1] * (len(PIPELINE) - 1) + [5]
    cols = st.columns(widths, vertical_alignment="center")
    for n, stage in enumerate(PIPELINE):
        name, detail = stage.pipeline
        with cols[2 * n].container(border=True):
            link(BY_KEY[stage.key].path, f"**{_(name)}**")
            st.caption(_(detail))
        if n + 1 < len(PIPELINE):  # → beside the next box; ↓ above it once the boxes stack
            cols[2 * n + 1].container(key=f"recipe_right_{n}").markdown("### →")
            cols[2 * n + 1].container(key=f"recipe_down_{n}").markdown("### ↓")


def diagram() -> None:
    """The recipe as a picture, its ink in the theme's text colour (on a dark page too)."""
    card = st.container(key="start_diagram")
    caption = _("The recipe of scaled dot-product attention")
    card.image(pipeline_svg(look.palette()), caption=caption, alt=_(DIAGRAM_ALT))


def preset_cards() -> None:
    """One button per example; loading one replaces the current scenario."""
    cols = st.columns(len(PRESETS))
    for col, (key, preset) in zip(cols, PRESETS.items(), strict=True):
        with col.container(border=True):
            st.markdown(f"**{_(preset.title)}**")
            st.caption(_(preset.description))
            st.button(_("Load"), key=f"start_load_{key}", on_click=load_example, args=(key,))
