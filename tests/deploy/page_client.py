"""One page run at Streamlit's protocol, as a browser's first load sends it (bench/load.py
does the same for a class): the texts the page drew, and any exception it showed."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

TEXT_FIELDS = {"markdown": "body", "heading": "body", "alert": "body", "progress": "text"}


@dataclass
class PageRun:
    texts: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    query: str = ""  # the address's query string after the run (the app may rewrite it)

    @property
    def text(self) -> str:
        return "\n".join(self.texts)


async def _open(base: str, page: str, query: str, timeout: float) -> PageRun:
    parts = urlsplit(base)
    run = PageRun(query=query)
    async with connect(
        f"ws://{parts.netloc}/_stcore/stream", subprotocols=["streamlit"], origin=base,
        max_size=None, ping_interval=None, open_timeout=timeout,
    ) as ws:  # fmt: skip
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_name = page
        msg.rerun_script.context_info.url = f"{base}/{page}?{query}"
        await ws.send(msg.SerializeToString())
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await asyncio.wait_for(ws.recv(decode=False), timeout))
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                which = element.WhichOneof("type")
                if which in TEXT_FIELDS:
                    run.texts.append(getattr(getattr(element, which), TEXT_FIELDS[which]))
                elif which == "exception":
                    run.exceptions.append(f"{element.exception.type}: {element.exception.message}")
            elif kind == "page_info_changed":
                run.query = fwd.page_info_changed.query_string
            elif kind == "script_finished" and (
                fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN  # a page switch
            ):
                return run


def open_page(base: str, page: str = "", query: str = "", timeout: float = 60) -> PageRun:
    """``base`` (http://host:port) opened at ``/page?query``: one full script run."""
    # In a thread of its own: pytest-playwright leaves an event loop running in a worker
    # that ran a browser test first, and asyncio.run refuses to start inside it (off_loop.py).
    with ThreadPoolExecutor(1, thread_name_prefix="page-client") as pool:
        return pool.submit(asyncio.run, _open(base.rstrip("/"), page, query, timeout)).result()
