"""A learner's exercise work survives a reload and a restarted browser (issue 41, defect 4).

It is kept in the app's store (``storage.store``: the live class's SQLite file, or Redis)
under a random id that the browser keeps in a cookie, as a student's seat in a live class is
(``live.pace_phone._seat_id``), and it can be downloaded and loaded back as a JSON file. What
is kept is ``attention_core.exercises.saved``'s document: exercise and step ids, what was
typed (a choice as its letter), attempts and hints; no label in any language, no name.

Why the store under a cookie, and not the browser's own storage (localStorage):
- The server reads a cookie with the session's first request (``st.context.cookies``), so the
  first run already draws the work; localStorage can only be read by JavaScript in a
  component, a round trip later (the page would show 0 steps right, then jump).
- A phone in a live class keeps its practice answers in the room, and those are deleted with
  the class; the same phone's work here has its own record and outlives the class.
- A shared school computer: the record holds no name and expires ``KEEP_DAYS`` after its last
  change; the page says where the work is kept and offers to forget it, which deletes the
  record and the cookie (localStorage would stay on that disk until someone cleared it).
- The store down: the page goes on with the session's work, says it is not saved yet, and
  saves it at the first run after the store is back; the download needs no store.
"""

from __future__ import annotations

import json
import logging
import os
import secrets

import streamlit as st

from attention_core import InputError
from attention_core.exercises import (
    MAX_BYTES,
    ChoiceStep,
    Work,
    all_exercises,
    choice_index,
    left_out_note,
    load_work,
    progress_json,
)
from attention_core.i18n import Plural, Text
from attention_ui.draw.text import md_escape
from attention_ui.frame import guard, keys
from attention_ui.i18n import N_, _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.storage.store import STORE_ENV, Store, StoreDownError, open_store

COOKIE = "attention_lab_work"  # a random id: this browser's exercise work in the store
KEEP_DAYS = 30
TTL = KEEP_DAYS * 24 * 3600.0  # seconds after the last change
_KEY = "work:{}"
_log = logging.getLogger(__name__)
NOT_FORGOTTEN = N_("The server that keeps your work cannot be reached just now, so it is not "
                   "forgotten there: try again.")  # fmt: skip
FORGOTTEN = N_("Forgotten: this page, this browser and the server hold none of your work now.")
LOADED = N_("Your progress file was loaded: {right} of {total} steps right.")


def input_key(exercise_id: str, step_id: str) -> str:
    """An answer box's (or a choice's) widget key."""
    return f"ex_{exercise_id}_{step_id}"


@st.cache_resource(show_spinner=False)
def _store(url: str) -> Store:
    return open_store(url or None)


def store() -> Store:
    """This process's store, the one the setting names (LIVE_STORE)."""
    return _store(os.environ.get(STORE_ENV, ""))


def _kept() -> dict:
    """This session's side: the record's id (None before the first save or after
    forgetting), whether it was read, whether the latest work is saved, the cookie to write."""
    ss = st.session_state
    if keys.PRACTICE_KEPT not in ss:
        held = st.context.cookies.get(COOKIE)
        ok = isinstance(held, str) and 16 <= len(held) <= 64 and held.isalnum()
        ss[keys.PRACTICE_KEPT] = {"id": held if ok else None, "read": not ok, "saved": True,
                                  "down": False, "cookie": None, "said": None}  # fmt: skip
    return ss[keys.PRACTICE_KEPT]


# ---- the work in the session ---------------------------------------------------------------
def put(work: Work) -> None:
    """Make ``work`` the page's: records, hints, open solutions, and the answer boxes."""
    ss = st.session_state
    ss[keys.PRACTICE_PROGRESS], ss[keys.PRACTICE_HINTS] = work.progress, work.hints
    ss[keys.PRACTICE_SOLUTIONS] = list(work.solutions)
    for ex in all_exercises():
        for step in ex.steps:
            # assigned, not removed: a box whose key is removed gets the browser's text back
            rec = work.progress.get(ex.id, {}).get(step.id)
            answer = rec.answer if rec is not None and rec.attempts else ""
            if isinstance(step, ChoiceStep):
                ss[input_key(ex.id, step.id)] = choice_index(step, answer) if answer else None
            else:
                ss[input_key(ex.id, step.id)] = answer


def _document() -> str:
    ss = st.session_state
    return progress_json(all_exercises(), ss[keys.PRACTICE_PROGRESS], ss[keys.PRACTICE_HINTS])


def restore() -> None:
    """Once a session: the work this browser kept, unless the session has work of its own
    (a store that cannot be read now is tried again at the next run)."""
    kept = _kept()
    if kept["read"]:
        return
    try:
        raw = store().get(_KEY.format(kept["id"]))
    except (StoreDownError, ValueError, ImportError) as exc:
        _log.warning("exercise work not read: %s", exc)
        kept["down"] = True
        return
    kept["read"], kept["down"] = True, False
    if raw is None:
        return
    try:
        work = load_work(raw, all_exercises())
    except InputError:  # a record another version wrote: as good as expired
        return
    ss = st.session_state
    if not any(ss.get(keys.PRACTICE_PROGRESS) or {}) and not any(ss.get(keys.PRACTICE_HINTS) or {}):
        put(work)


def changed() -> None:
    """The work changed (a check, a hint, a solution, a load, a reset): save it now."""
    _kept()["saved"] = False
    save()


def save() -> None:
    """Write the work under the browser's id (a first save draws an id and its cookie)."""
    kept = _kept()
    if kept["saved"]:
        return
    if kept["id"] is None:
        kept["id"] = secrets.token_hex(16)
        kept["cookie"] = kept["id"]
    try:
        store().set(_KEY.format(kept["id"]), _document(), TTL)
    except (StoreDownError, ValueError, ImportError) as exc:
        _log.warning("exercise work not saved: %s", exc)
        kept["down"] = True
        return
    kept["saved"], kept["down"] = True, False


@guard.callback
def _on_forget() -> None:
    kept = _kept()
    try:
        if kept["id"] is not None:
            store().delete(_KEY.format(kept["id"]))
    except (StoreDownError, ValueError, ImportError) as exc:
        _log.warning("exercise work not deleted: %s", exc)
        kept["said"] = ("error", Text(NOT_FORGOTTEN))
        return
    kept.update(id=None, read=True, saved=True, down=False, cookie="")
    put(Work())
    kept["said"] = ("success", Text(FORGOTTEN))


@guard.callback
def _on_load() -> None:
    kept = _kept()
    f = st.session_state.get(keys.PRACTICE_UPLOAD)
    if f is None:
        return
    try:
        work = load_work(f.getvalue(), all_exercises())
    except InputError as exc:  # nothing on the page changes
        kept["said"] = ("error", Text(N_("That file could not be loaded, and your work is as it "
                                         "was: {why}"), why=exc.text))  # fmt: skip
        return
    put(work)
    changed()
    total = sum(len(ex.steps) for ex in all_exercises())
    right = sum(r.right for recs in work.progress.values() for r in recs.values())
    said: list[Text | Plural] = [Text(LOADED, right=right, total=total)]
    if work.left_out:
        said.append(left_out_note(work.left_out))
    kept["said"] = ("success", said)


# ---- what the page shows -------------------------------------------------------------------
def line() -> None:
    """The line saying where the work is kept and Forget; what a load or Forget did; the
    cookie, when its id was drawn or forgotten in this run."""
    kept = _kept()
    save()  # what a store outage held back
    if kept["cookie"] is not None:
        age = int(TTL) if kept["cookie"] else 0
        cookie = f"{COOKIE}={kept['cookie']}; path=/; max-age={age}; SameSite=Lax"
        st.html(f"<script>document.cookie = {json.dumps(cookie)};</script>",
                unsafe_allow_javascript=True)  # fmt: skip
        kept["cookie"] = None
    line, forget = st.columns([5, 2], vertical_alignment="center")
    line.caption(ngettext(
        "Your work is kept on this app's server for this browser (a cookie holds its key) "
        "for {n} day after your last change. On a shared computer, forget it when you are done.",
        "Your work is kept on this app's server for this browser (a cookie holds its key) "
        "for {n} days after your last change. On a shared computer, forget it when you are done.",
        KEEP_DAYS).format(n=KEEP_DAYS))  # fmt: skip
    forget.button(_("Forget it on this browser"), key="practice_forget", on_click=_on_forget,
                  icon=":material/delete:", width="stretch",
                  help=_("Delete your answers from this page, this browser and the "
                         "server."))  # fmt: skip
    if kept["down"]:
        st.warning(_("Not saved yet: the server that keeps your work cannot be reached. Go on "
                     "working; it is saved when the server is back (or download it now)."),
                   icon=":material/sync_problem:")  # fmt: skip
    if kept["said"] is not None:
        kind, said = kept["said"]
        (st.success if kind == "success" else st.error)(md_escape(tr(said)))


def loader() -> None:
    """Load a downloaded progress file back (a bad or foreign one changes nothing)."""
    st.file_uploader(_("Load a progress file (JSON)"), type=["json"], key=keys.PRACTICE_UPLOAD,
                     on_change=_on_load, max_upload_size=MAX_BYTES // 1_000_000,  # 1 MB
                     help=_("A file this page's “Download progress (JSON)” saved, in any "
                            "language: it replaces the work on this page."))  # fmt: skip
