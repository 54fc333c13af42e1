"""The same sentence in the encoder (MiniLM) and in the decoder (SmolLM2), side by side.

A lazy expander: MiniLM is loaded (``frame/models``, shared with the Real model lab) only
when a learner opens it. Each model shows its average head (all its heads' weights
averaged) on the learner's prompt: the encoder's covers the whole square, the decoder's
stops at the diagonal.
"""

from __future__ import annotations

import streamlit as st

from attention_core import InputError
from attention_core.decoder import DecoderRun
from attention_core.pretrained import ModelMissing
from attention_ui.decoder import data
from attention_ui.decoder import figures as df
from attention_ui.draw.text import md_escape
from attention_ui.frame import keys, models
from attention_ui.i18n import _
from attention_ui.i18n.texts import tr
from attention_ui.views.cache import lazy
from attention_ui.views.chart import plot


def side_by_side(run: DecoderRun) -> None:
    box = st.expander(
        _("The same sentence in an encoder and in this decoder"),
        key=keys.DEC_SIDE_BY_SIDE,
        on_change="rerun",
    )
    if box.open is False:
        return
    with box:
        try:
            encoder = models.encoder()
            enc_run = models.encode(encoder, run.text)
        except ModelMissing as exc:
            st.info(
                _("The encoder (MiniLM) is not on this machine: run `{command}`.").format(
                    command=exc.command
                )
            )
            return
        except InputError as exc:
            st.info(md_escape(tr(exc)))
            return
        enc_weights, enc_labels = data.encoder_rows(enc_run)
        left, right = st.columns(2)
        with left:
            title = _("Encoder (MiniLM)")
            plot(
                lazy(df.mean_attention, data.mean_head(enc_weights), enc_labels, title, False),
                key="dec_vs_encoder",
            )
        with right:
            title = _("Decoder (SmolLM2)")
            plot(
                lazy(df.mean_attention, data.mean_head(run.weights), run.labels, title, True),
                key="dec_vs_decoder",
            )
        n_enc = enc_weights.shape[0] * enc_weights.shape[1]
        st.markdown(
            _(
                "Each map is a model's average head: all its heads' weights ({n_enc} in "
                "MiniLM, {n_dec} in SmolLM2) averaged. In the encoder a token sends "
                "**{enc_share}** of its attention to the words after it (bidirectional: it "
                "reads the whole sentence at once); in the decoder **{dec_share}** (causal: it "
                "has not seen them yet). The two read the sentence in different tokens "
                "(WordPiece, lower case, against byte-level BPE): MiniLM's [CLS] and [SEP] are "
                "left out here and its rows renormalised over the typed words."
            ).format(
                n_enc=n_enc,
                n_dec=run.n_layers * run.n_heads,
                enc_share=f"{data.later_share(enc_weights):.0%}",
                dec_share=f"{data.later_share(run.weights):.0%}",
            )
        )
