"""What an AppTest page shows, as text, and the English sentences a catalogue translates."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.pofile import read_po
from google.protobuf.message import Message
from streamlit.testing.v1 import AppTest

from attention_ui import i18n

APP = str(Path(__file__).resolve().parents[2] / "app.py")
_FIELD = re.compile(r"\{[^{}]*\}")


def shown_text(at: AppTest) -> str:
    """Every string of every element on the page (main, sidebar): bodies, labels, help,
    options, chart specs (their titles, axes and hover text), one per line; not the app's
    own script and style (look.FRAME: its comments are for developers)."""
    out: list[str] = []

    def strings(msg: Message) -> Iterator[str]:
        for field, value in msg.ListFields():
            values = value if field.is_repeated else [value]
            for v in values:
                if isinstance(v, str) and "<script" not in v:  # the app's own script (look.FRAME)
                    yield v
                elif isinstance(v, Message):
                    yield from strings(v)

    def walk(node: object) -> None:
        proto = getattr(node, "proto", None)
        if isinstance(proto, Message):
            out.extend(strings(proto))
        children = getattr(node, "children", None)
        for child in children.values() if isinstance(children, dict) else children or []:
            walk(child)

    walk(at._tree)
    return "\n".join(out)


def english_left(code: str) -> list[tuple[str, str]]:
    """(msgid, a sentence of it) for each entry ``code`` translates differently: a page in
    ``code`` must not show that English sentence. A sentence: a run of 3 words or more
    ("weights · V" is not one), 4 between placeholders ("step by step" is too common)
    between placeholders; an entry whose translation quotes its English is left out."""
    with i18n.catalogue(code).open("rb") as f:
        cat = read_po(f)
    found = []
    for m in cat:
        if not m.id or isinstance(m.id, tuple) or not m.string or m.string == m.id:
            continue
        chunks = _FIELD.split(m.id)
        least = 3 if len(chunks) == 1 else 4  # a piece between placeholders: a longer one
        for chunk in chunks:
            chunk = chunk.strip(" \n:.,*()")
            words = [w for w in chunk.split() if w.isalpha()]
            if len(words) >= least and chunk not in m.string:
                found.append((m.id, chunk))
    return found
