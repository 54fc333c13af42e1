"""The join address (attention_ui/frame/address.py) keeps the teacher's network location
whole: an IPv6 address keeps its brackets, a name or an IPv4 address its port."""

from __future__ import annotations

import pytest

from attention_ui.frame import address
from attention_ui.frame.address import join_address


@pytest.mark.parametrize(
    ("teacher", "base"),
    [
        ("http://[2001:db8::5]:8501/present?x=1", "http://[2001:db8::5]:8501"),
        ("https://[2001:db8::5]/present", "https://[2001:db8::5]"),
        ("http://192.0.2.7:8501/present", "http://192.0.2.7:8501"),
        ("https://lab.school.example/present", "https://lab.school.example"),
        ("http://someone@192.0.2.7:8501/", "http://192.0.2.7:8501"),
    ],
)
def test_a_teacher_on_a_reachable_address_shares_that_address(teacher: str, base: str) -> None:
    found = join_address(teacher, environ={})
    assert (found.base, found.reachable) == (base, True)
    assert found.join_url("ABCDE") == f"{base}/?join=ABCDE"


def test_an_ipv6_loopback_with_no_network_address_stays_bracketed(monkeypatch) -> None:
    monkeypatch.setattr(address, "network_ip", lambda: None)
    found = join_address("http://[::1]:8501/present", environ={})
    assert (found.base, found.reachable) == ("http://[::1]:8501", False)


def test_a_loopback_teacher_shares_the_machines_network_address(monkeypatch) -> None:
    monkeypatch.setattr(address, "network_ip", lambda: "192.0.2.9")
    assert join_address("http://[::1]:8501/", environ={}).base == "http://192.0.2.9:8501"
    assert join_address("http://localhost:8501/", environ={}).base == "http://192.0.2.9:8501"


@pytest.mark.parametrize(
    "setting",
    [
        "http://localhost:8501",
        "http://127.0.0.1:8501/",
        "http://[::1]:8501",
        " http://lab.localhost ",
    ],
)
def test_a_loopback_public_url_is_kept_but_said_to_be_unreachable(setting: str) -> None:
    """compose.yml defaulted the setting to http://localhost:8501, and any value was taken as
    reachable: every phone's QR code pointed at the phone itself."""
    found = join_address("http://192.0.2.7:8501/present", {address.PUBLIC_URL_ENV: setting})
    assert (found.base, found.reachable, found.from_setting) == (
        setting.strip().rstrip("/"), False, True)  # fmt: skip


def test_a_public_url_students_can_reach_is_used_as_it_is() -> None:
    found = join_address("http://127.0.0.1:8501/", {address.PUBLIC_URL_ENV: "https://lab.example/"})
    assert (found.base, found.reachable, found.from_setting) == ("https://lab.example", True, True)


def test_an_empty_public_url_finds_the_teachers_address(monkeypatch) -> None:
    """What compose.yml now passes when nothing is set: ${ATTENTION_LAB_PUBLIC_URL:-}."""
    monkeypatch.setattr(address, "network_ip", lambda: "192.0.2.9")
    found = join_address("http://localhost:8501/", {address.PUBLIC_URL_ENV: ""})
    assert (found.base, found.reachable, found.from_setting) == (
        "http://192.0.2.9:8501",
        True,
        False,
    )
