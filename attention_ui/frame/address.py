"""The address students type or scan: one a phone can reach, not the teacher's loopback.

Today's share link came from the teacher's own address bar; a teacher on
``http://127.0.0.1:8501`` would hand out a link no phone can open. In order:

1. ``ATTENTION_LAB_PUBLIC_URL``, the setting for a proxy or a public name
   (``make classroom`` sets it to this machine's address on the network); a loopback or
   ``localhost`` value is kept, since it was asked for, but marked unreachable and
   ``from_setting``, so the teacher is told that the setting is what sends phones nowhere
   (deploy/compose.yml used to default it to ``http://localhost:8501``);
2. the teacher's own address, when its host is not a loopback one;
3. this machine's address on the network (the interface of its default route), with the
   teacher's port.

Only when none is known is the answer a loopback address, and ``reachable`` says so.
No Streamlit here: the caller passes the teacher's address (st.context.url).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

PUBLIC_URL_ENV = "ATTENTION_LAB_PUBLIC_URL"


@dataclass(frozen=True)
class JoinAddress:
    base: str  # scheme://host:port, no trailing slash
    reachable: bool  # False: a loopback address, which no phone can open
    from_setting: bool = False  # True: ATTENTION_LAB_PUBLIC_URL gave it

    def join_url(self, code: str) -> str:
        return f"{self.base}/?join={code}"


def _is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.endswith(".localhost")


def network_ip() -> str | None:
    """This machine's address on its default route (no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            ip = s.getsockname()[0]
    except OSError:
        return None
    return None if _is_loopback(ip) else ip


def join_address(teacher_url: str | None, environ: dict[str, str] | None = None) -> JoinAddress:
    env = os.environ if environ is None else environ
    if env.get(PUBLIC_URL_ENV, "").strip():
        base = env[PUBLIC_URL_ENV].strip().rstrip("/")
        return JoinAddress(base, not _is_loopback(urlsplit(base).hostname or ""), True)
    parts = urlsplit(teacher_url or "http://localhost:8501")
    scheme, host, port = parts.scheme or "http", parts.hostname or "", parts.port

    def netloc(h: str) -> str:  # an IPv6 address in brackets: [::1]:8501, not ::1:8501
        h = f"[{h}]" if ":" in h else h
        return f"{h}:{port}" if port else h

    if not _is_loopback(host):  # the teacher's own network location, whole (no user info)
        return JoinAddress(f"{scheme}://{parts.netloc.rpartition('@')[2]}", True)
    ip = network_ip()
    if ip is not None:
        return JoinAddress(f"{scheme}://{netloc(ip)}", True)
    return JoinAddress(f"{scheme}://{netloc(host or 'localhost')}", False)


def reachable(url: str, teacher_url: str | None = None) -> str:
    """``url`` (a page of this app, as the teacher's browser sees it) on the address a phone
    can reach: a share link or a short link handed to a class works on every phone, not only
    on the teacher's computer. A reachable address is kept as it is."""
    parts = urlsplit(url)
    if not _is_loopback(parts.hostname or ""):
        return url
    base = join_address(teacher_url or url)
    if not base.reachable:
        return url
    return base.base + url[len(f"{parts.scheme}://{parts.netloc}") :]
