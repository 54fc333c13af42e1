"""Finished figures kept per (figure function, its inputs, theme, screen, language), shared by
sessions (a figure's titles, axes and hover text are in the language it was built in).

Building a go.Figure is most of a chart page's rerun: plotly validates every property
(about 3 ms for a 6 x 6 heatmap, several times that with annotations or a trace per key),
and theming it for the browser costs as much again. A rerun that changes nothing a figure
shows (another picked cell, a tab, a row) or a second student on the same example gets
the finished figure back instead.

Why ``st.cache_resource`` and not ``st.cache_data``: cache_data pickles the value and
unpickling a figure re-validates it (about 12 ms, slower than building it).
cache_resource hands out the same object, so a cached figure must never be changed:
``st.plotly_chart`` only reads it (it serialises a deep copy), and code that wants to
change a figure builds its own.

The key is computed here, from the inputs' contents (``fingerprint``), so it is as cheap
for a 64-token trace as for a 6-token one and never confuses two arrays that happen to
share an id.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from attention_ui import i18n
from attention_ui.draw import figures as fig
from attention_ui.draw.phone import for_phone
from attention_ui.frame import look

# About 25 figures a page; enough for a class's worth of scenarios on the busy pages.
# A 6-token heatmap holds about 30 kB, a 64-token one about 1 MB (bounded by the LRU).
MAX_FIGURES = 400


class Lazy(NamedTuple):
    """A figure (or a list or dict of figures) to build with ``build(*args, **kwargs)``."""

    build: Callable[..., Any]
    args: tuple
    kwargs: dict


def ready(figure: go.Figure) -> go.Figure:
    """``figure`` themed for this page, unless it came finished from the cache."""
    return figure if isinstance(figure, Finished) else finish(figure, look.palette(), look.phone())


def lazy(build: Callable[..., Any], *args: object, **kwargs: object) -> Lazy:
    """``build(*args, **kwargs)``, built (and themed) only if no session built it before."""
    return Lazy(build, args, kwargs)


def resolve(spec: Lazy) -> Any:
    """The finished figure(s) of ``spec`` for this browser's theme and screen. Do not mutate."""
    palette, phone = look.palette(), look.phone()
    key = "|".join((_name(spec.build), fingerprint((spec.args, spec.kwargs)),
                    palette.name, str(phone), i18n.language()))  # fmt: skip
    return _finished(key, spec, palette, phone)


@st.cache_resource(max_entries=MAX_FIGURES, show_spinner=False)
def _finished(key: str, _spec: Lazy, _palette: fig.Palette, _phone: bool) -> Any:
    """Keyed by ``key`` alone (Streamlit does not hash the underscored arguments)."""
    return _each(_spec.build(*_spec.args, **_spec.kwargs),
                 lambda f: Finished.of(finish(f, _palette, _phone), key))  # fmt: skip


class Finished(go.Figure):
    """A figure that is never changed again, so it is converted to a dict once.

    st.plotly_chart calls ``to_dict()`` on every run: a deep copy of every property and a
    walk that packs arrays as base64, about as long again as the JSON encoding itself.
    A cached figure hands out the one dict it made (Streamlit only reads it).
    """

    @classmethod
    def of(cls, figure: go.Figure, revision: str) -> Finished:
        """``figure``, finished; ``revision`` names its contents (the cache key).

        The revision goes into ``layout.datarevision``: the browser re-plots a chart on
        every rerun with arrays parsed afresh, and Plotly.react reads an unchanged
        datarevision as "same data", so an unchanged chart is not drawn again.
        """
        figure.layout.datarevision = revision
        figure.__class__ = cls  # same object and state; only to_dict changes
        figure._as_dict = _slim(go.Figure.to_dict(figure))
        return figure

    def to_dict(self) -> dict:
        return self._as_dict


def _slim(figure: dict) -> dict:
    """``figure`` (a dict of its own) without the template's defaults for kinds of trace it
    does not draw: Streamlit's default template holds ten kinds (candlestick, sankey, ...),
    2.2 of the 3.7 kB of a heatmap's template, which every run encoded (three passes in
    Plotly's encoder), hashed and sent, and every browser searched ten times over for
    Streamlit's placeholder colours. A trace takes only its own kind's defaults, so the
    chart is drawn the same."""
    template = figure.get("layout", {}).get("template")
    if isinstance(template, dict) and isinstance(template.get("data"), dict):
        drawn = {trace.get("type", "scatter") for trace in figure.get("data", [])}
        template["data"] = {kind: v for kind, v in template["data"].items() if kind in drawn}
    return figure


def finish(figure: go.Figure, palette: fig.Palette, phone: bool) -> go.Figure:
    """``figure`` fitted to a phone's screen, then themed (in place).

    In that order: the phone's shorter cell numbers are what ``themed`` colours.
    """
    figure = for_phone(figure) if phone else figure
    return fig.themed(figure, palette)


def _each(value: Any, f: Callable[[go.Figure], go.Figure]) -> Any:
    """``f`` applied to every figure in ``value``: a figure, or lists and dicts of them."""
    if isinstance(value, go.Figure):
        return f(value)
    if isinstance(value, dict):
        return {k: _each(v, f) for k, v in value.items()}
    return [_each(v, f) for v in value]


def _name(f: Callable) -> str:
    return f"{f.__module__}.{f.__qualname__}"


def fingerprint(value: object) -> str:
    """A short digest of ``value``'s contents: arrays by bytes, dataclasses by fields."""
    h = hashlib.blake2b(digest_size=16)
    _feed(h, value)
    return h.hexdigest()


def _feed(h: hashlib.blake2b, value: object) -> None:
    if isinstance(value, np.ndarray) and value.dtype == object:  # its bytes are pointers
        _feed(h, value.tolist())
    elif isinstance(value, np.ndarray):
        h.update(f"a{value.dtype}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif value is None or isinstance(value, (str, int, float, bool, np.generic)):
        h.update(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, (list, tuple)):
        h.update(f"{type(value).__name__}{len(value)}(".encode())
        for item in value:
            _feed(h, item)
        h.update(b")")
    elif isinstance(value, dict):
        h.update(f"d{len(value)}(".encode())
        for k, v in value.items():
            _feed(h, k)
            _feed(h, v)
        h.update(b")")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        h.update(type(value).__qualname__.encode())
        _feed(h, [getattr(value, f.name) for f in dataclasses.fields(value)])
    elif hasattr(value, "to_numpy") and hasattr(value, "columns"):  # a pandas DataFrame
        _feed(h, [list(value.columns), list(value.index), *(value[c].to_numpy() for c in value)])
    else:  # an input the key cannot see would serve one scenario's figure to another
        raise TypeError(f"cannot fingerprint {type(value).__name__} for the figure cache")
