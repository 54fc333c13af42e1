"""Short share links (?l=ID, issue 22) against both real stores: a SQLite file and a
redis-server; the page's side through AppTest with each store, and with no store at all."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS
from attention_ui.classroom.rooms import ALPHABET
from attention_ui.frame import keys, links
from attention_ui.frame.links import LINK_TTL, ShortLinks
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.sidebar import SHARE_BOX
from attention_ui.storage.store import StoreDownError
from tests.ports import free_port

APP = str(Path(__file__).resolve().parents[2] / "app.py")
HUNGRY = PRESETS["hungry"].build().to_url()
MONTH = 30 * 24 * 3600  # the promised lifetime, in seconds


def expires_in(backend, link: str) -> float:
    """Seconds until the store drops the link's record, read from the store itself."""
    name, _, handle = backend
    if name == "sqlite":
        with sqlite3.connect(handle) as db:
            (expires,) = db.execute(
                "SELECT expires FROM kv WHERE key = ?", (f"link:{link}",)
            ).fetchone()
        return expires - time.time()
    import redis

    return redis.Redis.from_url(handle.url).pttl(f"link:{link}") / 1000


def test_a_short_link_holds_the_scenario_and_page_for_a_month(backend) -> None:
    _, store, _ = backend
    short = ShortLinks(store)
    link = short.make(HUNGRY, "softmax")
    assert re.fullmatch(f"[{ALPHABET}]{{10}}", link)
    assert short.resolve(link) == (HUNGRY, "softmax", {})
    assert LINK_TTL == MONTH
    assert MONTH - 60 < expires_in(backend, link) <= MONTH  # a minute of slack for the test
    record = json.loads(store.get(f"link:{link}"))
    assert record == {"s": HUNGRY, "page": "softmax"}  # only what the full link holds


def test_a_short_link_holds_the_pages_own_parameters_too(backend) -> None:
    _, store, _ = backend
    short = ShortLinks(store)
    picks = {keys.TR_DK: "64", keys.TR_LR: "3.0", keys.TR_SEED: "5", keys.TR_STEP: "40"}
    link = short.make(HUNGRY, "training", picks)
    assert short.resolve(link) == (HUNGRY, "training", picks)
    assert json.loads(store.get(f"link:{link}"))["q"] == picks  # ids and numbers only
    assert short.make(HUNGRY, "training", {**picks, keys.TR_SEED: "6"}) != link
    assert short.make(HUNGRY, "training") != link


def test_the_same_numbers_on_the_same_page_give_the_same_link(backend) -> None:
    _, store, _ = backend
    short = ShortLinks(store)
    first = short.make(HUNGRY, "softmax")
    assert short.make(HUNGRY, "softmax") == first  # renewed, not a second record
    assert short.make(HUNGRY, "scores") != first
    assert short.make(PRESETS["quiz88"].build().to_url(), "softmax") != first


def test_an_id_taken_by_other_content_gets_a_longer_one(backend) -> None:
    _, store, _ = backend
    short = ShortLinks(store)
    record = json.dumps({"s": HUNGRY, "page": "softmax"}, sort_keys=True)
    store.set(f"link:{links.link_id(record)}", "someone else's", ttl=60)  # a forced collision
    link = short.make(HUNGRY, "softmax")
    assert len(link) == 16 and short.resolve(link) == (HUNGRY, "softmax", {})


@pytest.mark.parametrize("bad", ["", "abc", "K7MQ4K7MQ4K", "0000000000", "<script>x", "l" * 10])
def test_what_is_not_a_link_resolves_to_nothing(backend, bad: str) -> None:
    _, store, _ = backend
    assert ShortLinks(store).resolve(bad) is None


def test_an_unknown_or_unreadable_link_resolves_to_nothing(backend) -> None:
    _, store, _ = backend
    short = ShortLinks(store)
    assert short.resolve("ABCDEFGHJK") is None
    store.set("link:ABCDEFGHJK", "not json", ttl=60)
    assert short.resolve("ABCDEFGHJK") is None
    store.set("link:ABCDEFGHJK", '{"page": "softmax"}', ttl=60)
    assert short.resolve("ABCDEFGHJK") is None


def test_a_store_that_stops_raises_store_down(backend) -> None:
    name, store, handle = backend
    short = ShortLinks(store)
    link = short.make(HUNGRY, "softmax")
    if name == "redis":
        handle.stop()
    else:
        handle.unlink()
        handle.mkdir()  # a folder where the file was: SQLite cannot open it
    with pytest.raises(StoreDownError):
        short.resolve(link)
    with pytest.raises(StoreDownError):
        short.make(HUNGRY, "softmax")


# ---- the page: make one in the sidebar, follow it in another session -----------------------
def session(store_url: str, monkeypatch: pytest.MonkeyPatch, query: dict | None = None) -> AppTest:
    monkeypatch.setenv("LIVE_STORE", store_url)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[SHARE_BOX] = True  # the sidebar's "Share and export", open
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return at.run()


def share_boxes(at: AppTest) -> str:
    return " ".join(h.proto.body for h in at.get("html") if "al-share" in h.proto.body)


def make_and_follow(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher = session(store_url, monkeypatch, {"s": HUNGRY})
    teacher.switch_page(BY_KEY["softmax"].path).run()
    teacher.sidebar.button(key="short_link_make").click().run()
    assert not teacher.exception, [e.value for e in teacher.exception]
    made = teacher.session_state[keys.SHORT_LINK]
    assert made[:2] == (HUNGRY, "softmax") and made[2] is not None
    assert f"?l={made[2]}" in share_boxes(teacher)  # with its own copy button
    assert "Copy short link" in share_boxes(teacher)
    student = session(store_url, monkeypatch, {"l": made[2]})
    assert not student.exception, [e.value for e in student.exception]
    assert student.session_state[keys.SCENARIO].to_url() == HUNGRY
    assert student.title[0].value == BY_KEY["softmax"].title  # the page it was made on
    assert "l" not in student.query_params  # the address becomes the full link
    assert not student.sidebar.warning


def test_a_short_link_made_in_the_sidebar_opens_in_another_session_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_and_follow(f"sqlite://{tmp_path / 'live.db'}", monkeypatch)


def test_a_short_link_made_in_the_sidebar_opens_in_another_session_redis(
    redis_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    links._links.clear()  # the process's store for this URL, fresh
    make_and_follow(redis_server.url, monkeypatch)


def test_without_a_store_there_is_no_short_link_and_a_clear_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    nobody = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    at = session(nobody, monkeypatch)
    assert "Copy link" in share_boxes(at)  # the full link is there all the same
    at.sidebar.button(key="short_link_make").click().run()
    assert not at.exception
    note = " ".join(i.value for i in at.sidebar.info)
    assert "No short link just now" in note and "The full link works without it" in note
    assert "redis://" not in note  # the store's address stays in the server's log
    follower = session(nobody, monkeypatch, {"l": "ABCDEFGHJK"})
    assert not follower.exception
    warning = " ".join(w.value for w in follower.sidebar.warning).replace("\\", "")
    assert "cannot be opened just now" in warning
    assert follower.session_state[keys.SCENARIO] == PRESETS["cat_mat"].build()


def test_an_expired_link_says_so_and_opens_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = session(f"sqlite://{tmp_path / 'live.db'}", monkeypatch, {"l": "ABCDEFGHJK"})
    assert not at.exception
    warning = " ".join(w.value for w in at.sidebar.warning).replace("\\", "")
    assert "unknown or has expired (short links last 30 days)" in warning
    assert at.title[0].value == BY_KEY["start"].title
