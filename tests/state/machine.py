"""A class's state as a model (issue 41): a projector, a console and two phones over one
store, driven at Streamlit's protocol as browsers drive it (``protocol.Tab``), by rules in
any order; after every rule, the invariants the issue lists.

``test_class_state.py`` runs it (``STATE_EXAMPLES`` sequences), ``make test-state`` runs 200+.
``STATE_APP_ROOT`` points the server at another checkout (main's, to see it find defect 1).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from attention_core.exercises import all_exercises
from attention_ui import i18n
from attention_ui.classroom.rooms import NoRoomError, Rooms
from attention_ui.frame import guard
from attention_ui.frame.pages import BY_KEY
from attention_ui.live.phone import RECONNECTING
from attention_ui.storage.store import open_store
from tests.state.protocol import Tab

EX = {ex.id: ex.short_title.template for ex in all_exercises()}
LANGS = tuple(i18n.NAMES)
PHONES = ("phone1", "phone2")
TABS = ("projector", "console", *PHONES)
PAGES = ("start", "softmax", "exercises", "present")
NO_LOCK = "no lock: every open one"
TEACHER_COOKIE = "attention_lab_teach"
PICKERS = ("lang_sidebar", "lang_start")


def said(code: str, msgid: str) -> str:
    """``msgid`` as a browser in ``code`` shows it (this checkout's catalogue)."""
    return i18n.translations(code).gettext(msgid)


def raised(tab: Tab) -> list[str]:
    """What says a page or a callback raised: a traceback, or the app's own notice of it
    (``frame.guard``, in any language). Not every red alert: a wrong answer's verdict on the
    Exercises page, or "not sent: the class cannot be reached", are the app's messages."""
    notices = {said(code, m) for code in LANGS for m in (guard.NOTICE, guard.CALLBACK_NOTICE)}
    return [*tab.exceptions, *(a for a in tab.alerts if a in notices)]


def path(page: str) -> str:
    return "" if page == "start" else page


class Outage:
    """The SQLite file moved aside and a folder in its place, then put back (as
    tests.live.test_live_faults.SqliteOutage), safe against the server: a file it creates
    in the moment between the move and the folder is removed, never kept as the class's."""

    def __init__(self, folder: Path) -> None:
        self.path, self.aside = folder / "live.db", folder / "aside"
        self.url = f"sqlite://{self.path}"

    def stop(self) -> None:
        self.aside.mkdir(exist_ok=True)
        for f in self.path.parent.glob("live.db*"):
            f.rename(self.aside / f.name)
        while True:
            try:
                self.path.mkdir()
                return
            except FileExistsError:  # the server opened the path meanwhile: a new file
                for f in self.path.parent.glob("live.db*"):
                    f.unlink()

    def start(self) -> None:
        self.path.rmdir()
        for f in self.aside.iterdir():
            f.rename(self.path.parent / f.name)


class ClassMachine(RuleBasedStateMachine):
    """Set ``url`` and ``outage`` (an ``Outage`` of the server's store) on the class."""

    url = ""
    outage: Outage

    def __init__(self) -> None:
        super().__init__()
        self.tabs: dict[str, Tab] = {}
        self.lang = dict.fromkeys(TABS, "en")
        self.down = False
        self.log: list[str] = []  # the steps, for a failing sequence's message
        self.t0 = time.monotonic()
        self._go_live()

    def _go_live(self) -> None:
        for tab in self.tabs.values():
            tab.close()
        console = Tab(self.url, "console")
        for _try in range(5):  # a store just back may refuse its first connection
            console.click("live_start")
            if TEACHER_COOKIE in console.cookies:
                break
            time.sleep(0.5)
        else:
            raise AssertionError(f"Go live did not start a class: {console.text[:300]}")
        self.code = console.cookies[TEACHER_COOKIE].split(".")[0]
        self.tabs = {"console": console,
                     "projector": Tab(self.url, "", cookies=console.cookies)}  # fmt: skip
        for phone in PHONES:
            self.tabs[phone] = Tab(self.url, "", query=f"join={self.code}")
        self.lang = dict.fromkeys(TABS, "en")

    def teardown(self) -> None:
        if path := os.environ.get("STATE_LOG"):  # each sequence's steps and seconds
            with open(path, "a") as f:
                f.write(f"{time.monotonic() - self.t0:.1f} s, {len(self.log)} steps\n")
        if self.down:
            self.outage.start()
        for tab in self.tabs.values():
            tab.close()

    def _step(self, what: str) -> None:
        self.log.append(what)

    # ---- any session -----------------------------------------------------------------------
    @rule(who=st.sampled_from(TABS), code=st.sampled_from(LANGS))
    def pick_language(self, who: str, code: str) -> None:
        tab = self.tabs[who]
        picker = next((k for k in PICKERS if k in tab.drawn()), None)
        if picker is None:
            return
        self._step(f"{who}: {picker} -> {code}")
        tab.choose(picker, i18n.NAMES[code])
        self.lang[who] = code

    @rule(who=st.sampled_from(TABS))
    def poll(self, who: str) -> None:
        """A rerun as the page's own timers send one (the dashboard's fragment, a phone's
        watch, the projector's count): what the browser holds goes with it."""
        self._step(f"{who}: poll")
        tab = self.tabs[who].rerun()
        room = None if self.down or who not in PHONES else self._room()
        if room is not None and "live_explore" in tab.drawn():  # a phone that follows
            assert tab.page == path(room.page), self._why(
                f"{who} follows on {tab.page!r}, the room is on {room.page!r}"
            )

    @rule(who=st.sampled_from(TABS))
    def reload(self, who: str) -> None:
        self._step(f"{who}: reload")
        self.tabs[who] = self.tabs[who].reload()

    # ---- a phone ---------------------------------------------------------------------------
    @rule(phone=st.sampled_from(PHONES), page=st.sampled_from(PAGES))
    def open_page(self, phone: str, page: str) -> None:
        self._step(f"{phone}: open {page}")
        tab = self.tabs[phone]
        tab.open_link(path(page), tab.query)

    @rule(phone=st.sampled_from(PHONES))
    def explore(self, phone: str) -> None:
        if "live_explore" in self.tabs[phone].drawn():
            self._step(f"{phone}: explore")
            self.tabs[phone].click("live_explore")

    @rule(phone=st.sampled_from(PHONES))
    def back_to_teacher(self, phone: str) -> None:
        if "live_back" in self.tabs[phone].drawn():
            self._step(f"{phone}: back to the teacher")
            self.tabs[phone].click("live_back")

    @rule(phone=st.sampled_from(PHONES), answer=st.sampled_from(("1, 2, 3", "3, 1, 0")))
    def check(self, phone: str, answer: str) -> None:
        tab = self.tabs[phone]
        drawn = tab.drawn()
        boxes = sorted(k for k in drawn if k.startswith("ex_") and f"{k}_check" in drawn)
        if not boxes:
            return
        self._step(f"{phone}: check {boxes[0]} = {answer}")
        tab.choose(boxes[0], answer)
        self._click_if_there(tab, f"{boxes[0]}_check")

    # ---- the console -----------------------------------------------------------------------
    def _labels(self, ids: list[str]) -> list[str]:
        return [said(self.lang["console"], EX[i] if i else NO_LOCK) for i in ids]

    @rule(ids=st.lists(st.sampled_from(list(EX)), min_size=1, max_size=3, unique=True))
    def start_practice(self, ids: list[str]) -> None:
        console = self.tabs["console"]
        if "pace_pick" not in console.drawn():
            return
        self._step(f"console: start {ids}")
        console.choose("pace_pick", *self._labels(ids))
        self._click_if_there(console, "pace_start")

    def _click_if_there(self, tab: Tab, key: str) -> None:
        """The second half of a pick-then-click: the pick's own run may have taken the button
        away (the store went down meanwhile): a person cannot click it then, nor can a Tab."""
        if key in tab.drawn():
            tab.click(key)
        else:
            self._step(f"  ({key} is gone after the pick)")

    @rule(exercise=st.sampled_from(["", *EX]))
    def lock(self, exercise: str) -> None:
        self._choose("pace_lock_", [exercise])

    @rule(ids=st.lists(st.sampled_from(list(EX)), min_size=1, max_size=4, unique=True))
    def open_exercises(self, ids: list[str]) -> None:
        self._choose("pace_open_", ids)

    def _choose(self, prefix: str, ids: list[str]) -> None:
        console = self.tabs["console"]
        key = next((k for k in console.drawn() if k.startswith(prefix)), None)
        labels = self._labels(ids)
        if key is None or not set(labels) <= set(console.find(key).options):
            return
        self._step(f"console: {prefix} {ids}")
        console.choose(key, *labels)

    @rule()
    def stop_practice(self) -> None:
        if "pace_stop" in self.tabs["console"].drawn():
            self._step("console: stop the practice")
            self.tabs["console"].click("pace_stop")

    @precondition(lambda self: not self.down)
    @rule()
    def end_class(self) -> None:
        """End it for everyone, then a new class (so that the sequence goes on)."""
        if "live_end" in self.tabs["console"].drawn():
            self._step("console: end the class, go live again")
            self.tabs["console"].click("live_end")
            self._go_live()

    # ---- the store -------------------------------------------------------------------------
    @precondition(lambda self: not self.down)
    @rule()
    def store_outage(self) -> None:
        self._step("store: down")
        self.outage.stop()
        self.down = True

    @precondition(lambda self: self.down)
    @rule()
    def store_back(self) -> None:
        self._step("store: back (the console's dashboard polls)")
        self.outage.start()
        self.down = False
        console = self.tabs["console"].rerun()  # its fragment's next second: the store's view
        back = said(self.lang["console"], RECONNECTING)
        for _second in range(5):  # a store just back may refuse its first connection: the
            if back not in console.alerts:  # console says so and polls again a second later
                break
            time.sleep(0.5)
            console.rerun()

    # ---- after every rule --------------------------------------------------------------------
    def _room(self):
        try:
            return Rooms(open_store(self.outage.url)).get(self.code)
        except NoRoomError:
            return None

    @invariant()
    def no_page_raised(self) -> None:
        for who, tab in self.tabs.items():
            failed = raised(tab)
            assert not failed, self._why(f"{who} on {tab.page!r} shows {failed[0][:200]}")

    @invariant()
    def each_speaks_its_language(self) -> None:
        for who, tab in self.tabs.items():
            code = self.lang[who]
            for picker in (k for k in PICKERS if k in tab.drawn()):
                shown = tab.held_value(picker)
                assert shown == i18n.NAMES[code], self._why(
                    f"{who}'s {picker} shows {shown!r}, its language is {code}"
                )
                assert tab.find(picker).label == said(code, "Language"), self._why(
                    f"{who} speaks {tab.find(picker).label!r}, it chose {code}")  # fmt: skip

    @invariant()
    def the_record_holds_ids(self) -> None:
        if self.down or (room := self._room()) is None:
            return
        assert room.page in BY_KEY, self._why(f"the room's page is {room.page!r}")
        p = room.practice
        if p:
            assert set(p["open"]) <= set(EX) and p.get("lock", "") in {"", *EX}, self._why(
                f"the room's practice holds {p}"
            )

    @invariant()
    def the_console_offers_stop_and_end(self) -> None:
        console = self.tabs["console"]
        if self.down or console.page != "console":
            return
        assert "live_end" in console.drawn(), self._why("the console has no End the class")
        room = self._room()
        if room is not None and room.practice:
            assert "pace_stop" in console.drawn(), self._why("the console has no Stop")

    def _why(self, what: str) -> str:
        return what + "\nsteps:\n  " + "\n  ".join(self.log)
