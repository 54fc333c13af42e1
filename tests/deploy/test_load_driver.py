"""bench/load/'s own logic, without a server: the leak check must be able to fail."""

from __future__ import annotations

import random
from urllib.parse import urlencode

from bench import load


def _student(index: int) -> load.Student:
    return load.Student(index, load.Options(), load.Stats(), random.Random(0))


def test_each_student_has_its_own_valid_scenario() -> None:
    a, b = load.student_scenario(3), load.student_scenario(4)
    assert all(t.startswith("zq0003") for t in a.tokens)
    assert not set(a.tokens) & set(b.tokens)
    assert load.tokens_in_query(urlencode({"s": a.to_url()})) == a.tokens
    a.trace()  # computable: the app would show it


def test_another_students_token_in_any_message_is_a_leak() -> None:
    me = _student(7)
    assert me._check_bytes(b"\x0a\x05zq0007a plotly spec zq0007b")
    assert me.saw_own and not me.stats.leaks
    assert not me._check_bytes(b'{"y": ["zq0007a", "zq0012c"]}')
    assert me.stats.leaks == ["student 7 got zq0012c"]


def test_a_url_holding_another_scenario_is_a_leak() -> None:
    me = _student(1)
    assert me._follow_url(urlencode({"s": load.student_scenario(1).to_url()}))
    assert not me._follow_url(urlencode({"s": load.student_scenario(2).to_url()}))
    assert len(me.stats.leaks) == 1


def test_percentile_is_nearest_rank() -> None:
    xs = [float(i) for i in range(1, 101)]
    assert load.percentile(xs, 95) == 95.0
    assert load.percentile(xs, 50) == 50.0
    assert load.percentile([0.3], 95) == 0.3


def test_loopback_students_get_distinct_source_addresses() -> None:
    addresses = {load.source_address(i) for i in range(300)}
    assert len(addresses) == 300
    assert all(a.startswith("127.") for a in addresses)


def test_without_browsers_the_summary_has_no_browser_part() -> None:
    s = load.summary(load.Stats(), load.Options(), (0.0, 0.0, 0.0))
    assert "browsers" not in s
    assert load.parse_args(["--browsers", "3"]).browsers == 3
