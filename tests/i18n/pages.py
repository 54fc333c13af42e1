"""What an AppTest page shows, as text, and the English sentences a catalogue translates."""

from __future__ import annotations

import json
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


# --- English a page shows that no catalogue entry covers (an unwrapped string) -----------

# Learner text the app ships as input: the lessons' own English sentences, shown as typed
# tokens or quoted in every language (issue 36: learner text is never translated).
LEARNER = (
    "The animal in the jungle went out on a hunt because it was hungry",
    "The cat sat on the mat",
    "the cat sat and it purred",
    "the quick brown fox jumps over the lazy dog while a small bird sings",
)
# Short English function words: a run of words with none of them is a formula or labels
# ("Q K V", "W_q W_k"), not a sentence.
_GLUE = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "is",
        "are",
        "and",
        "in",
        "on",
        "for",
        "with",
        "this",
        "that",
        "your",
        "each",
        "it",
        "by",
        "from",
        "be",
        "as",
        "at",
        "or",
        "not",
        "no",
        "its",
        "you",
        "has",
        "have",
        "which",
        "what",
        "how",
        "every",
        "all",
        "here",
        "into",
        "than",
        "then",
    ]
)
_WORD = re.compile(r"^[A-Z]?[a-z']+$")
_CODE = ("<script", "<style", "const ", "function", "=>", "querySelector")


def _strings(msg: Message) -> Iterator[str]:
    """Every string a person can read: not an input's typed value (learner text) and not
    the app's own code; a chart's JSON spec walked down to its strings, not its numbers."""
    for field, value in msg.ListFields():
        for v in value if field.is_repeated else [value]:
            if isinstance(v, Message):
                yield from _strings(v)
            elif isinstance(v, str) and field.name not in ("value", "default", "id", "key"):
                if any(c in v for c in _CODE):
                    continue
                if v[:1] in "{[":
                    try:
                        yield from _json_strings(json.loads(v))
                        continue
                    except ValueError:
                        pass
                yield v


def _json_strings(o: object) -> Iterator[str]:
    if isinstance(o, str):
        yield o
    elif isinstance(o, list):
        for x in o:
            yield from _json_strings(x)
    elif isinstance(o, dict):
        for k, x in o.items():
            if k not in ("template", "bdata", "dtype", "shape"):  # Plotly's theme; arrays
                yield from _json_strings(x)


def english_pieces(at: AppTest) -> set[str]:
    """Each run of 3+ plain words with an English function word among them, anywhere on the
    page (main and sidebar, charts included), minus the learner text above."""
    found: set[str] = set()

    def walk(node: object) -> None:
        proto = getattr(node, "proto", None)
        if isinstance(proto, Message):
            for s in _strings(proto):
                for piece in re.split(r"[\n.!?:;()\[\]<>*_`|#\"“”]", s):
                    words = [w.strip("'") for w in piece.replace(",", " ").split()]
                    if len(words) < 3 or not all(_WORD.match(w) for w in words):
                        continue
                    if _GLUE.isdisjoint(w.lower() for w in words):
                        continue
                    text = " ".join(words)
                    if not any(text.lower() in ours.lower() for ours in LEARNER):
                        found.add(text)
        children = getattr(node, "children", None)
        for child in children.values() if isinstance(children, dict) else children or []:
            walk(child)

    walk(at._tree)
    return found
