"""Links handed to a class use the address phones can reach: a share link or short link made
on the teacher's loopback address (127.0.0.1, localhost) takes the join address's host, as
the QR code does; an address that phones reach already is kept as it is."""

from __future__ import annotations

import pytest

from attention_ui.frame import address
from attention_ui.frame.address import reachable


@pytest.fixture(autouse=True)
def no_public_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(address.PUBLIC_URL_ENV, raising=False)


def test_a_loopback_link_takes_the_public_address(monkeypatch) -> None:
    monkeypatch.setenv(address.PUBLIC_URL_ENV, "http://192.168.1.20:8501")
    assert (reachable("http://127.0.0.1:8501/softmax?s=abc&softmax_row=cat")
            == "http://192.168.1.20:8501/softmax?s=abc&softmax_row=cat")  # fmt: skip
    assert (
        reachable("http://localhost:8501/?l=ABCDEFGHJK") == "http://192.168.1.20:8501/?l=ABCDEFGHJK"
    )


def test_a_loopback_link_takes_this_machines_network_address(monkeypatch) -> None:
    monkeypatch.setattr(address, "network_ip", lambda: "10.0.0.7")
    assert reachable("http://127.0.0.1:8599/scores?s=x") == "http://10.0.0.7:8599/scores?s=x"


def test_a_reachable_link_is_kept_and_no_network_keeps_loopback(monkeypatch) -> None:
    monkeypatch.setattr(address, "network_ip", lambda: None)
    assert reachable("http://192.168.1.20:8501/scores?s=x") == "http://192.168.1.20:8501/scores?s=x"
    assert reachable("https://lab.school.example/scores") == "https://lab.school.example/scores"
    assert reachable("http://127.0.0.1:8501/scores") == "http://127.0.0.1:8501/scores"
