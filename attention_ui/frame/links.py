"""Short share links (``?l=ID``): the server's map from a short code to the whole full link,
kept in the live class's store (``storage.store``: SQLite by default, Redis by LIVE_STORE)
for ``LINK_TTL``.

The full ``?s=`` link needs no server and always works; a short link is a convenience for a
board or a chat, and only as good as the store. So a link record holds exactly what the full
link holds: the ``?s=`` text, the page key and that page's own parameters (``keys.PAGE_PARAMS``:
a picked row, head or layer, the Training lab's settings and step), and nothing about who
made it; it expires. The language is not in it: the short link's own ``?lang=`` carries it,
as the full link's does.
The id is drawn from a hash of that content: sharing the same numbers on the same page again
gives the same link (and renews it) instead of filling the store.

``ShortLinks`` is plain Python over a ``Store``; ``shared()`` is the process's one, for the
store the setting names, and ``make``/``resolve`` turn a store that cannot be reached into a
sentence for the page (never a traceback).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re

import streamlit as st

from attention_core.i18n import Text
from attention_ui.i18n import N_
from attention_ui.storage.store import READABLE as ALPHABET
from attention_ui.storage.store import STORE_ENV, Store, StoreDownError, open_store

LINK_TTL = 30 * 24 * 3600.0  # seconds: a month of lessons, then the full link is the way
ID_LEN = 10  # 31^10 ≈ 8e14 ids, drawn from a hash: not guessable, collisions negligible
LONG_ID_LEN = 16  # used only when a 10-character id is taken by other content
_ID = re.compile(f"[{ALPHABET}]{{{ID_LEN}}}|[{ALPHABET}]{{{LONG_ID_LEN}}}")
_KEY = "link:{}"
_log = logging.getLogger(__name__)


class ShortLinks:
    def __init__(self, store: Store) -> None:
        self.store = store

    def make(self, scenario: str, page: str, params: dict[str, str] | None = None) -> str:
        """The id of a short link to ``scenario`` (its ?s= text) on page ``page`` with the
        page's own ``params``, kept (or renewed) for LINK_TTL. Raises StoreDownError when the
        store cannot be reached."""
        content: dict[str, object] = {"s": scenario, "page": page}
        if params:  # a page without picks keeps the record (and the id) it always had
            content["q"] = {k: str(v) for k, v in params.items()}
        record = json.dumps(content, sort_keys=True)
        for length in (ID_LEN, LONG_ID_LEN):
            link = link_id(record, length)
            if self.store.add(_KEY.format(link), record, LINK_TTL):
                return link
            if self.store.get(_KEY.format(link)) == record:  # the same link again: renew it
                self.store.set(_KEY.format(link), record, LINK_TTL)
                return link
        raise StoreDownError("no free short-link id")  # two hash collisions: practically never

    def resolve(self, link: str) -> tuple[str, str, dict[str, str]] | None:
        """The (?s= text, page key, page parameters) of short link ``link``; None if it is not
        one, never was, or expired. Raises StoreDownError when the store cannot be reached."""
        if not _ID.fullmatch(link or ""):
            return None
        raw = self.store.get(_KEY.format(link))
        if raw is None:
            return None
        try:
            record = json.loads(raw)
            params = {str(k): str(v) for k, v in (record.get("q") or {}).items()}
            return str(record["s"]), str(record["page"]), params
        except (ValueError, KeyError, TypeError, AttributeError):
            return None  # a record this version cannot read: as good as expired


def link_id(record: str, length: int = ID_LEN) -> str:
    """``length`` characters of ALPHABET drawn from the SHA-256 of ``record``."""
    number = int.from_bytes(hashlib.sha256(record.encode()).digest(), "big")
    chars = []
    for _ in range(length):
        number, digit = divmod(number, len(ALPHABET))
        chars.append(ALPHABET[digit])
    return "".join(chars)


# ---- the process's short links, and what a page says when the store is down ----------------
DOWN = N_(
    "No short link just now: the server that keeps short links cannot be reached. "
    "The full link works without it."
)
GONE = N_(
    "This short link is unknown or has expired (short links last {days} days), so the "
    "default example is shown. Ask for the full link: it needs no server."
)
UNREACHABLE = N_(
    "This short link cannot be opened just now: the server that keeps short links cannot be "
    "reached. Try again soon, or ask for the full link, which needs no server."
)


@st.cache_resource(show_spinner=False)
def _links(url: str) -> ShortLinks:
    return ShortLinks(open_store(url or None))


def shared() -> ShortLinks:
    """This process's short links, in the store the setting names (LIVE_STORE)."""
    return _links(os.environ.get(STORE_ENV, ""))


def make(
    scenario: str, page: str, params: dict[str, str] | None = None
) -> tuple[str | None, Text | None]:
    """(id, None), or (None, why there is no short link) when the store is down or unset
    (a Text, shown with ``i18n.said``)."""
    try:
        return shared().make(scenario, page, params), None
    except (StoreDownError, ValueError, ImportError) as exc:
        _log.warning("no short link: %s", exc)  # the store's address stays in the log
        return None, Text(DOWN)


def resolve(link: str) -> tuple[tuple[str, str, dict[str, str]] | None, Text | None]:
    """((?s= text, page, page parameters), None), or (None, what to tell the learner who
    followed it)."""
    try:
        found = shared().resolve(link)
    except (StoreDownError, ValueError, ImportError) as exc:
        _log.warning("a short link could not be read: %s", exc)
        return None, Text(UNREACHABLE)
    if found is None:
        return None, Text(GONE, days=int(LINK_TTL // 86400))
    return found, None
