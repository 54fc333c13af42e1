"""Issue 41's defects 1, 2 and 3, each as a browser drives it (``protocol.Tab``: what the
frontend holds goes back with every rerun), over one server for the module.

Each failed on the code before issue 41: ``STATE_APP_ROOT=<a checkout of main>`` serves it.
"""

from __future__ import annotations

from attention_ui import i18n
from attention_ui.classroom.rooms import Rooms
from attention_ui.storage.store import open_store
from tests.state.machine import EX, TEACHER_COOKIE, said
from tests.state.protocol import Tab

LABEL = {i: EX[i] for i in EX}  # the catalogue's English short titles
FOLLOWING = "Explore on my own"  # the following phone's button


def _live(url: str) -> tuple[Tab, str, str]:
    console = Tab(url, "console")
    console.click("live_start")
    code, _dot, secret = console.cookies[TEACHER_COOKIE].partition(".")
    return console, code, secret


def _practising(url: str, *ids: str) -> tuple[Tab, str, str]:
    console, code, secret = _live(url)
    console.choose("pace_pick", *(LABEL[i] for i in ids))
    console.click("pace_start")
    assert "pace_stop" in console.drawn(), console.text[:500]
    return console, code, secret


def _ok(tab: Tab) -> Tab:
    assert not tab.errors, f"{tab.page!r}: {tab.errors[0][:300]}"
    return tab


def _record(store: str, code: str) -> dict:
    return Rooms(open_store(store)).get(code).practice or {}


def _speaks(tab: Tab, code: str, msgid: str = "Language") -> None:
    """Its address and its pickers say the language it chose, and its page (the pickers'
    label, or ``msgid``'s text where the page has no sidebar) speaks it."""
    if msgid == "Language":
        picker = next(k for k in ("lang_sidebar", "lang_start") if k in tab.drawn())
        assert tab.find(picker).label == said(code, msgid), tab.find(picker).label
    else:
        assert said(code, msgid) in tab.text, tab.text[:300]
    for key in {"lang_sidebar", "lang_start"} & tab.drawn():
        assert tab.held_value(key) == i18n.NAMES[code], (key, tab.held_value(key))
    assert f"lang={code}" in tab.query, tab.query


# ---- defect 1: the console's language during a class at its own pace ------------------------
def test_a_console_that_changes_language_keeps_its_practice(served) -> None:
    """Go live, open exercises 1 and 2, start, pick Español then Deutsch: the console keeps
    its dashboard, Stop and End, in every later run and after a reload; the room's record
    holds ids only (before: "lock": "3 · Two keys", then ValueError on every load)."""
    server, outage = served
    console, code, _secret = _practising(server.url, "paper_toy", "hungry")
    for lang in ("es", "de"):
        _ok(console.choose("lang_sidebar", i18n.NAMES[lang]))
        _ok(console.rerun())  # the dashboard's fragment, a second later
        record = _record(outage.url, code)
        assert record["open"] == ["paper_toy", "hungry"] and record["lock"] == "", record
        assert {"pace_stop", "live_end"} <= console.drawn()
    lock = next(k for k in console.drawn() if k.startswith("pace_lock_"))
    _ok(console.choose(lock, said("de", EX["hungry"])))
    assert _record(outage.url, code)["lock"] == "hungry"
    console = _ok(console.reload())
    assert {"pace_stop", "live_end"} <= console.drawn()
    _speaks(console, "de")


def test_the_start_form_survives_a_language_switch(served) -> None:
    """Kept from the state machine's first finding on main: a console with no practice yet,
    Español then 简体中文: the start form's exercise picker sent its English labels back
    and the console failed (TypeError in Streamlit's serializer)."""
    server, _outage = served
    console, _code, _secret = _live(server.url)
    _ok(console.choose("lang_sidebar", i18n.NAMES["es"]))
    _ok(console.choose("lang_sidebar", i18n.NAMES["zh"]))
    _ok(console.rerun())
    assert console.held_value("pace_pick") == [said("zh", EX["paper_toy"])]


def test_a_record_with_labels_is_read_back_as_ids_by_every_screen(served) -> None:
    """A record a console wrote before issue 41 (labels where ids belong, a name of no
    exercise): the console, the projector and a phone draw it; the console says what it
    left out and writes the record again as ids; Stop and End are there."""
    server, outage = served
    console, code, secret = _practising(server.url, "paper_toy")
    rooms = Rooms(open_store(outage.url))
    labels = [said("de", EX["paper_toy"]), EX["hungry"], "no such one"]
    rooms.drive(code, secret, practice={"open": labels, "lock": said("es", EX["quiz88"]),
                "stuck_s": 300.0, "projected": True, "started": 0.0})  # fmt: skip
    projector = _ok(Tab(server.url, "", cookies=console.cookies))
    phone = _ok(Tab(server.url, "", query=f"join={code}"))
    _ok(console.rerun())
    assert "no such one" in console.text and {"pace_stop", "live_end"} <= console.drawn()
    record = _record(outage.url, code)
    assert record["open"] == ["paper_toy", "hungry", "quiz88"] and record["lock"] == "quiz88"
    for tab in (projector, phone):
        _ok(tab.rerun())


# ---- defects 2 and 3: a picked language lasts ------------------------------------------------
def test_a_phone_keeps_its_language_when_it_goes_back_to_the_teacher(served) -> None:
    server, _outage = served
    _console, code, _secret = _live(server.url)
    phone = _ok(Tab(server.url, "", query=f"join={code}"))
    phone.click("live_explore")
    _ok(phone.open_link("", phone.query))  # the Start page, exploring
    _ok(phone.choose("lang_start", i18n.NAMES["zh"]))
    _speaks(phone, "zh")
    _ok(phone.click("live_back"))
    _speaks(phone, "zh", FOLLOWING)
    phone.click("live_explore")
    _ok(phone.open_link("", phone.query))
    _ok(phone.choose("lang_sidebar", i18n.NAMES["es"]))
    _ok(phone.choose("lang_start", i18n.NAMES["de"]))  # before: came back in Español
    _ok(phone.click("live_back"))
    _speaks(phone, "de", FOLLOWING)


def test_on_start_a_picked_language_lasts_into_the_walkthrough(served) -> None:
    server, _outage = served
    for picker, lang in (("lang_start", "es"), ("lang_sidebar", "fr")):
        tab = _ok(Tab(server.url, ""))
        _ok(tab.choose(picker, i18n.NAMES[lang]))
        _speaks(tab, lang)  # both pickers show it (before: the other one stayed English)
        _label, page, query = next(link for link in tab.links if "inputs" in link[1])
        _ok(tab.open_link(page.strip("/"), query))
        assert tab.page == "inputs", tab.page
        _speaks(tab, lang)
        tab.close()
