"""deploy/compose.yml's services without Docker, run inside a network and mount namespace
of their own (tests/deploy/test_container.py starts this with `unshare`):

    python -m tests.deploy.compose_stack APP_SPEC.json NGINX_CONF WORK_DIR

Each service gets the address compose's network would give it, under its name (an
/etc/hosts of this namespace only): `redis` (Debian's redis-server on 6379, append-only as
compose runs it), two replicas of `app` (the image's entry point with compose's
environment, each on its own address's port 8501, as in its own container) and `lb`
(nginx with NGINX_CONF as its whole nginx.conf, on port 80, which compose publishes as
8501). Then, through nginx: the health check, a walkthrough page, a room opened in Redis
and a follower's watch file. Prints what it saw as one JSON line; stops everything.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import secrets
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import redis

from tests.deploy.image import as_image_user
from tests.deploy.page_client import open_page

HOSTS = "127.0.0.1 localhost\n127.0.0.2 app\n127.0.0.3 app\n127.0.0.4 redis\n"
APPS = ("127.0.0.2", "127.0.0.3")
LB = "http://127.0.0.1:80"
REDIS_URL = "redis://redis:6379/0"  # compose.yml's LIVE_STORE


def loopback_up() -> None:
    """`ip link set lo up`, without iproute2: a new network namespace starts with lo down."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(s, 0x8913, request))[1]  # SIOCGIFFLAGS
        fcntl.ioctl(s, 0x8914, struct.pack("16sh", b"lo", flags | 1))  # SIOCSIFFLAGS, IFF_UP


RESOLVE_SINCE = (1, 27, 3)  # `server ... resolve` in open-source nginx


def nginx_version() -> tuple[int, ...]:
    out = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr
    return tuple(int(n) for n in out.rsplit("/", 1)[1].split()[0].split("."))


def conf_for_this_nginx(conf: str, work: Path) -> str:
    """``conf`` itself where this nginx re-resolves upstream names; else a copy without
    ``resolve`` (Debian 12's nginx is 1.22: it would refuse the parameter), which then finds
    `app` once at start, as in the namespace nothing recreates it. The `resolver` line and
    the upstream's `zone` stay: 1.22 takes both."""
    if nginx_version() >= RESOLVE_SINCE:
        return conf
    older = work / "nginx-without-resolve.conf"
    older.write_text(
        re.sub(r"(\bserver\s+\S+[^;]*?)\s+resolve\s*;", r"\1;", Path(conf).read_text())
    )
    return str(older)


def health(base: str) -> str:
    try:
        with urllib.request.urlopen(f"{base}/_stcore/health", timeout=5) as r:
            return r.read().decode()
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"


def wait(base: str, procs: list[subprocess.Popen], seconds: float = 150) -> None:
    deadline = time.monotonic() + seconds
    while health(base) != "ok":
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            raise SystemExit(f"{base} did not answer its health check")
        time.sleep(0.3)


def main(spec_path: str, nginx_conf: str, work: str) -> dict:
    spec, work_dir = json.loads(Path(spec_path).read_text()), Path(work)
    loopback_up()
    hosts = work_dir / "hosts"
    hosts.write_text(HOSTS)
    subprocess.run(["mount", "--bind", str(hosts), "/etc/hosts"], check=True)
    procs: list[subprocess.Popen] = []
    logs = (work_dir / "stack.log").open("w")
    try:
        procs.append(subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.4", "--port", "6379", "--appendonly", "yes",
             "--save", "", "--dir", str(work_dir)], stdout=logs, stderr=logs))  # fmt: skip
        env = {**spec["env"], "LIVE_STORE": REDIS_URL,
               "ATTENTION_LAB_PUBLIC_URL": "",  # compose.yml's default: the teacher's own
               "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32)}  # fmt: skip
        # as the image's user where we really are root (inside a user namespace, we are not)
        user = as_image_user(spec["uid"]) if spec["uid"] != os.geteuid() else []
        for address in APPS:
            argv = user + [a.replace("{address}", address) for a in spec["argv"]]
            procs.append(subprocess.Popen(argv, cwd=spec["cwd"], env=env, stdout=logs,
                                          stderr=logs))  # fmt: skip
        for address in APPS:
            wait(f"http://{address}:8501", procs)
        procs.append(
            subprocess.Popen(
                [
                    "nginx",
                    "-c",
                    conf_for_this_nginx(nginx_conf, work_dir),
                    "-e",
                    str(work_dir / "nginx-error.log"),
                    "-g",
                    f"daemon off; pid {work_dir / 'nginx.pid'};",
                ],
                stdout=logs,
                stderr=logs,
            )
        )
        wait(LB, procs, 20)
        return through_nginx()
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            p.wait(timeout=30)
        logs.close()


def through_nginx() -> dict:
    from attention_core import default_scenario
    from attention_ui.classroom.rooms import Rooms
    from attention_ui.storage.store import open_store

    seen: dict = {"health": [health(f"http://{a}:8501") for a in APPS] + [health(LB)]}
    scores = open_page(LB, "scores")
    seen["scores_drawn"] = any("Q K" in t.replace("K^T", "K") for t in scores.texts)
    store = open_store(REDIS_URL)
    room, _ = Rooms(store).open("present", 1, default_scenario().to_url())
    seen["room_version"] = str(room.version)
    follower = open_page(LB, "", f"join={room.code}")
    seen["page_errors"] = scores.exceptions + follower.exceptions
    body, deadline = "", time.monotonic() + 10
    while body != seen["room_version"] and time.monotonic() < deadline:
        time.sleep(0.2)
        try:
            with urllib.request.urlopen(f"{LB}/app/static/live/{room.code}", timeout=5) as r:
                body = r.read().decode().strip()
        except OSError:
            continue
    seen["watch_file"] = body
    seen["rooms_in_redis"] = len(redis.Redis.from_url(REDIS_URL).keys(f"room:{room.code}"))
    return seen


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:4])))
