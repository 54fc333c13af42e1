"""The trained models, loaded once per server process and shared by every page that runs them.

Two labs run real models: the Real model lab (MiniLM, an encoder) and the Decoder lab
(SmolLM2, a decoder), and the Decoder lab also runs MiniLM to set the two side by side.
Both load here, so a process holds one copy of each whatever pages its students open:
``st.cache_resource`` (a model or a run is never pickled: one object shared by sessions).
A model is loaded on the first run of a page that needs it, never at import.

A ModelMissing (the files are not there) is raised, not cached: after ``make model`` the
next run finds the files. The folder is part of every cache key, so a test that points
ATTENTION_LAB_MODEL_DIR or ATTENTION_LAB_DECODER_DIR elsewhere never gets another
folder's model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from attention_core.decoder import Decoder, DecoderRun
from attention_core.decoder.files import decoder_dir
from attention_core.pretrained import Model, ModelMissing, Run
from attention_core.pretrained.files import model_dir
from attention_ui.draw.text import md_escape
from attention_ui.i18n import N_, _
from attention_ui.i18n.texts import tr

T = TypeVar("T")
ENCODER_RUNS = 6  # a 128-token MiniLM run holds ~50 MB of traces: 6 stay under the budget
DECODER_RUNS = 8  # a 64-token decoder run holds ~26 MB (heads rebuilt on demand from Q, K, V)


_BUILT: set[tuple] = set()  # the cached calls this process made (no spinner for them)
MAX_BUILT = 1000  # then forgotten: a call made again shows its spinner once more


def _once(message: str, cached: Callable[..., T], folder: str, *rest: object) -> T:
    """``cached(folder, *rest)``, under a spinner saying ``message`` (an English msgid) in
    the session's language the first time this process makes the call (Streamlit's own
    cache spinner has one text for every language)."""
    call = (cached.__name__, folder, *(a for a in rest if isinstance(a, str)))
    if call in _BUILT:
        return cached(folder, *rest)
    with st.spinner(_(message)):
        value = cached(folder, *rest)
    if len(_BUILT) >= MAX_BUILT:
        _BUILT.clear()
    _BUILT.add(call)
    return value


# ---- MiniLM, the encoder -------------------------------------------------------------------
@st.cache_resource(show_spinner=False)  # the spinner is the caller's, in its language
def _encoder(folder: str) -> Model:
    from attention_core.pretrained import load_model

    return load_model(folder)


def encoder() -> Model:
    """all-MiniLM-L6-v2 from .model/ (or $ATTENTION_LAB_MODEL_DIR); raises ModelMissing."""
    return _once(N_("Loading the model (once per server)…"), _encoder, str(model_dir()))


@st.cache_resource(max_entries=ENCODER_RUNS, show_spinner=False)
def _encode(folder: str, text: str, _model: Model) -> Run:
    return _model.encode(text)


def encode(model: Model, text: str) -> Run:
    """One sentence through MiniLM, shared by every session that asks for the same text."""
    return _encode(str(model.path), text, model)


# ---- SmolLM2, the decoder -------------------------------------------------------------------
@st.cache_resource(show_spinner=False)  # the spinner is the caller's, in its language
def _decoder(folder: str) -> Decoder:
    from attention_core.decoder import load_decoder

    return load_decoder(folder)


def decoder() -> Decoder:
    """SmolLM2-135M-Instruct, memory-mapped from .model/ (or $ATTENTION_LAB_DECODER_DIR);
    raises DecoderMissing (a ModelMissing) naming `make model`."""
    return _once(N_("Mapping the decoder's weights (once per server)…"), _decoder,
                 str(decoder_dir()))  # fmt: skip


@st.cache_resource(max_entries=DECODER_RUNS, show_spinner=False)  # the caller's spinner
def _run(folder: str, text: str, _decoder: Decoder) -> DecoderRun:
    return _decoder.run(text)


def run_decoder(model: Decoder, text: str) -> DecoderRun:
    """One prompt through the decoder, shared by every session that asks for the same text."""
    return _once(N_("Running the decoder…"), _run, str(model.path), text, model)


def loaded(load: Callable[[], T], what: str, where: str) -> T | None:
    """``load()`` (a model), or None after saying what to run to get it (``say_missing``)."""
    try:
        return load()
    except ModelMissing as exc:
        say_missing(exc, what, where)
        return None


def say_missing(exc: ModelMissing, what: str, where: str) -> None:
    """A page's notice that ``what`` ("The model") is not on this machine, so ``where``
    ("this page") cannot run it: the exact command that fetches it, then the details."""
    st.error(
        _(
            "**{what} is not on this machine**, so {where} cannot run it. The rest of the app "
            "works without it. In the project folder, run:"
        ).format(what=what, where=where)
    )
    st.code(exc.command, language="bash")
    st.caption(md_escape(tr(exc)))
