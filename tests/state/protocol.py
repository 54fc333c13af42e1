"""A browser tab at Streamlit's websocket protocol: what the frontend holds and sends back.

AppTest sets a widget's Python value; a browser sends what its frontend holds: for a
selectbox, a multiselect, a radio or a segmented control that is the option's *label*
(``string_value``/``string_array_value``), kept for as long as the widget's id stays on the
page, and replaced only when the server says ``set_value``. A console whose labels were
translated sent the old language's label back (issue 41, defect 1), which AppTest cannot
show. This client keeps widget values as Streamlit's frontend does:

- a widget seen for the first time takes its proto's default (the frontend sets it on mount);
- ``set_value`` replaces what is held with the proto's ``raw_value(s)``;
- at the end of a full run, widgets the run did not draw are forgotten, buttons too: a
  button is there to click (``drawn``, ``find``) only while the last run drew it;
- every rerun sends every held value, and a button's click as a one-shot trigger;
- cookies written by the page's own ``document.cookie = ...`` are kept and sent by a reload.

It is a test driver, not a browser: no JavaScript runs (the phones' watch timers are
replaced by an explicit ``rerun``), and the elements read are the ones the tests need.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect

COOKIE = re.compile(r"document\.cookie = (\"(?:[^\"\\]|\\.)*\")")
HELD = {"selectbox", "multiselect", "radio", "button_group", "checkbox", "text_input"}
DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


@dataclass
class Widget:
    id: str
    kind: str
    label: str
    options: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        """The user key Streamlit put at the end of the element id (``$$ID-<hash>-<key>``)."""
        return self.id.split("-", 2)[2] if self.id.startswith("$$ID-") else ""


class Tab:
    """One browser tab on ``base``: a Streamlit session over one websocket."""

    def __init__(self, base: str, page: str = "", query: str = "",
                 cookies: dict[str, str] | None = None, timeout: float = 30,
                 replay: Sequence[WidgetState] = ()) -> None:  # fmt: skip
        """``replay``: the widget states (a click's trigger among them) the first run carries,
        as a page's first message to a new server process after its own was lost: the
        frontend still holds what was typed, and the click that was on its way."""
        self.base, self.page, self.query, self.timeout = base.rstrip("/"), page, query, timeout
        self.cookies = dict(cookies or {})
        self.held: dict[str, WidgetState] = {}
        self.widgets: dict[str, Widget] = {}  # every widget seen, by element id
        self.shown: set[str] = set()  # the element ids of the widgets on the page now
        self.texts: list[str] = []
        self.errors: list[str] = []  # alerts of kind error, and exception elements
        self.alerts: list[str] = []  # every alert's text (error, warning, info, success)
        self.exceptions: list[str] = []  # exception elements (a traceback on the page)
        self.links: list[tuple[str, str, str]] = []  # (label, page path, query)
        self.pages: dict[str, str] = {}  # page script hash -> url path
        self.page_hash = ""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._ws = self._call(self._connect())
        self.held = {state.id: state for state in replay if not state.HasField("trigger_value")}
        self._replayed = [state for state in replay if state.HasField("trigger_value")]
        self.rerun(first=True)

    # ---- the wire -------------------------------------------------------------------------
    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(self.timeout * 2)

    async def _connect(self):
        netloc = urlsplit(self.base).netloc
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        return await connect(
            f"ws://{netloc}/_stcore/stream", subprotocols=["streamlit"], origin=self.base,
            max_size=None, ping_interval=None, open_timeout=self.timeout,
            additional_headers=headers if self.cookies else None,
        )  # fmt: skip

    def close(self) -> None:
        with contextlib.suppress(Exception):  # a tab that is gone already is closed
            self._call(asyncio.wait_for(self._ws.close(), 5))
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def rerun(self, trigger: str | None = None, page: str | None = None, query: str | None = None,
              first: bool = False) -> Tab:  # fmt: skip
        """One rerun as the frontend sends it (a click on ``trigger``; a link to ``page``)."""
        msg = BackMsg()
        rs = msg.rerun_script
        rs.query_string = self.query if query is None else query
        if page is not None or first:
            rs.page_name = self.page if page is None else page
        else:
            rs.page_script_hash = self.page_hash
        rs.context_info.url = f"{self.base}/{rs.page_name}?{rs.query_string}"
        rs.widget_states.widgets.extend(self.held.values())
        if first:
            rs.widget_states.widgets.extend(self._replayed)
        if trigger is not None:
            rs.widget_states.widgets.add(id=self.find(trigger).id, trigger_value=True)
        self._call(self._run(msg.SerializeToString()))
        return self

    async def _run(self, raw: bytes) -> None:
        await self._ws.send(raw)
        seen: set[str] = set()
        self.texts, self.errors, self.links = [], [], []
        self.alerts, self.exceptions = [], []
        while True:
            fwd = ForwardMsg()
            try:
                raw = await asyncio.wait_for(self._ws.recv(decode=False), self.timeout)
            except TimeoutError:
                raise TimeoutError(f"no end of the run on {self.page!r} in {self.timeout} s; "
                                   f"drawn: {sorted(seen)[:20]}") from None  # fmt: skip
            fwd.ParseFromString(raw)
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                seen.clear()
                self.texts, self.errors, self.links = [], [], []
                self.alerts, self.exceptions = [], []
                self.page_hash = fwd.new_session.page_script_hash
            elif kind == "navigation":
                self.pages = {p.page_script_hash: p.url_pathname for p in fwd.navigation.app_pages}
                self.page_hash = fwd.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                self._element(fwd.delta.new_element, seen)
            elif kind == "script_finished" and fwd.script_finished in DONE:
                if fwd.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    self.held = {k: v for k, v in self.held.items() if k in seen}
                    self.shown = set(seen)  # the frontend drops what the run did not draw
                else:  # a fragment's run redraws its own part only
                    self.shown |= seen
                self.page = self.pages.get(self.page_hash, self.page)
                return

    def _element(self, element, seen: set[str]) -> None:
        which = element.WhichOneof("type")
        proto = getattr(element, which)
        if which == "markdown":
            self.texts.append(proto.body)
        elif which == "alert":
            self.texts.append(proto.body)
            self.alerts.append(proto.body)
            if proto.format == proto.ERROR:
                self.errors.append(proto.body)
        elif which == "exception":
            self.errors.append(f"{proto.type}: {proto.message}")
            self.exceptions.append(self.errors[-1])
        elif which == "html":
            for raw in COOKIE.findall(proto.body):
                name, _eq, value = json.loads(raw).split(";")[0].partition("=")
                self.cookies[name] = value
        elif which == "button":
            self.texts.append(proto.label)
        elif which == "page_link":
            self.links.append((proto.label, proto.page, proto.query_string))
        if not getattr(proto, "id", "") or which not in HELD | {"button", "popover"}:
            return
        seen.add(proto.id)
        options = [o.content if which == "button_group" else o for o in
                   getattr(proto, "options", [])]  # fmt: skip
        self.widgets[proto.id] = Widget(proto.id, which, getattr(proto, "label", ""), options)
        fresh = which in HELD and (proto.id not in self.held or proto.set_value)
        if fresh and (value := _value(which, proto, options)) is not None:
            self.held[proto.id] = value

    # ---- what a person does -----------------------------------------------------------------
    def find(self, key: str) -> Widget:
        """The widget on the page (drawn by the last run) whose user key is ``key``: never one
        an earlier run drew (a button the phone showed while it followed, or a label the
        console showed in its language before)."""
        for w in self.widgets.values():
            if w.key == key and w.id in self.shown and (w.id in self.held or w.kind in
                                                        {"button", "popover"}):  # fmt: skip
                return w
        raise LookupError(f"no widget {key!r} on {self.page!r}: {sorted(self.drawn())}")

    def drawn(self) -> set[str]:
        """The user keys of the widgets on the page now (a button's only while it is drawn)."""
        return {w.key for w in self.widgets.values()
                if w.id in self.shown and (w.id in self.held or w.kind == "button")}  # fmt: skip

    def held_value(self, key: str) -> object:
        held = self.held[self.find(key).id]
        value = getattr(held, held.WhichOneof("value"))
        return list(value.data) if hasattr(value, "data") else value

    def click(self, key: str) -> Tab:
        return self.rerun(trigger=key)

    def choose(self, key: str, *labels: str) -> Tab:
        """Pick the options shown as ``labels`` (one for a selectbox or radio), as a person
        does: the frontend sends the labels."""
        w = self.find(key)
        state = WidgetState(id=w.id)
        if w.kind in {"multiselect", "button_group"}:
            state.string_array_value.data.extend(labels)
        else:
            state.string_value = labels[0]
        self.held[w.id] = state
        return self.rerun()

    def open_link(self, path: str, query: str = "") -> Tab:
        """Follow a page link (the menu's or the page's) to ``path``."""
        return self.rerun(page=path, query=query)

    def reload(self) -> Tab:
        """The same address in a new session, with this tab's cookies (a reload)."""
        self.close()
        return Tab(self.base, self.page, self.query, self.cookies, self.timeout)

    @property
    def text(self) -> str:
        return "\n".join(self.texts)


def _value(kind: str, proto, options: list[str]) -> WidgetState | None:
    state = WidgetState(id=proto.id)
    if kind in {"multiselect", "button_group"}:
        picked = list(proto.raw_values) if proto.set_value else [options[i] for i in
                                                                 proto.default]  # fmt: skip
        state.string_array_value.data.extend(picked)
    elif kind in {"selectbox", "radio"}:
        if proto.set_value:
            state.string_value = proto.raw_value
        elif proto.HasField("default") and options:
            state.string_value = options[proto.default]
        else:
            return None  # nothing picked: nothing sent
    elif kind == "checkbox":
        state.bool_value = proto.value if proto.set_value else proto.default
    else:  # text_input
        state.string_value = proto.value if proto.set_value else proto.default
    return state
