"""A network of the test's own: a network namespace joined to this one by a veth pair, with
an address at each end (issue 45, item 10). A test that needs "the machine's network
address" (what `make classroom` prints for phones) runs the server inside it and reaches it
on the namespace's address: no test sends traffic to an interface it did not create.

Needs root and iproute2 (`ip netns`); .ci/run installs iproute2 and runs as root. Elsewhere
the test is skipped, saying so; in CI it fails, as the compose stack's test does.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class Netns:
    name: str
    address: str  # the namespace's end: the server's "network address"
    peer: str  # this namespace's end: where the namespace's clients come from

    def run(self, argv: list[str]) -> list[str]:
        """``argv`` inside the namespace (ip netns exec execs it: the pid stays)."""
        return ["ip", "netns", "exec", self.name, *argv]


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


def need_netns() -> None:
    if os.geteuid() == 0 and shutil.which("ip"):
        return
    if os.environ.get("CI"):
        pytest.fail("CI must run the network tests: root and iproute2 (.ci/run installs it)")
    pytest.skip("needs root and iproute2 (ip netns) for a network namespace of the test's own")


@contextlib.contextmanager
def own_network() -> Iterator[Netns]:
    """A namespace with its loopback up, a /30 on a veth pair (a private 10.213.x.0 one
    picked at random) and a default route through this end, so that the machine's
    "network address" as the app finds it (its default route's source) is the namespace's."""
    need_netns()
    tag = secrets.token_hex(3)
    name, host_if, ns_if = f"al-{tag}", f"alh{tag}", f"aln{tag}"
    net = int(tag[:2], 16)  # 10.213.net.0/30
    peer, address = f"10.213.{net}.1", f"10.213.{net}.2"
    try:
        _ip("netns", "add", name)
        _ip("link", "add", host_if, "type", "veth", "peer", "name", ns_if)
        _ip("link", "set", ns_if, "netns", name)
        _ip("addr", "add", f"{peer}/30", "dev", host_if)
        _ip("link", "set", host_if, "up")
        _ip("-n", name, "addr", "add", f"{address}/30", "dev", ns_if)
        _ip("-n", name, "link", "set", ns_if, "up")
        _ip("-n", name, "link", "set", "lo", "up")
        _ip("-n", name, "route", "add", "default", "via", peer)
    except subprocess.CalledProcessError as exc:
        _teardown(name, host_if)
        pytest.fail(f"could not make a network namespace: {exc.cmd}: {exc.stderr}")
    try:
        yield Netns(name, address, peer)
    finally:
        _teardown(name, host_if)


def _teardown(name: str, host_if: str) -> None:
    # deleting the namespace deletes its end of the pair, and with it this end
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    subprocess.run(["ip", "link", "del", host_if], capture_output=True)
