"""What a room's record says about a class at its own pace (``Practice``): exercise ids,
numbers and flags, never a label in someone's language (no Streamlit).

``Practice.of`` reads whatever a record holds, so no screen is ever lost to it: a label
where an id belongs (what a console before issue 41 wrote after a language switch) is read
back as its id, and anything else that names no exercise is left out and listed. ``Pace``
writes only ids (``ids_only``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache

from attention_core.exercises import Exercise, all_exercises
from attention_ui import i18n
from attention_ui.i18n import N_

STUCK_AFTER_S = 300.0  # no progress this long: stuck (the teacher sets it)
NO_LOCK_LABEL = N_("no lock: every open one")  # the console's name for lock "" (_() where shown)


@dataclass(frozen=True)
class Practice:
    """The room's practice: what is open, the lock, when a seat counts as stuck."""

    open: tuple[str, ...]  # exercise ids, in the catalogue's order
    lock: str = ""  # an exercise id: every phone shows only it; "" shows every open one
    stuck_s: float = STUCK_AFTER_S
    projected: bool = False  # the projector shows the counts (never a name)
    started: float = 0.0
    unknown: tuple[str, ...] = ()  # what the record named that is no exercise (left out)

    @classmethod
    def of(cls, record: object) -> Practice | None:
        """The practice a room's record holds, whatever it holds: a label where an id
        belongs (a console before issue 41 wrote "3 · Two keys") is read back as its id,
        anything else that names no exercise is left out and listed in ``unknown``, so
        every screen can draw it; ``clean`` says whether the record needs writing again."""
        if not record or not isinstance(record, dict):
            return None
        raw = record.get("open")
        named = [str(x) for x in raw] if isinstance(raw, list | tuple) else []
        opened, lock = [exercise_id(x) for x in named], record.get("lock") or ""
        unknown = [x for x, i in zip(named, opened, strict=True) if i is None]
        locked = exercise_id(str(lock)) or ""
        if lock and not locked and not _no_lock(str(lock)):
            unknown.append(str(lock))
        return cls(catalogue_order([*opened, locked]), locked, _number(record.get("stuck_s"),
                   STUCK_AFTER_S), bool(record.get("projected")),
                   _number(record.get("started"), 0.0), tuple(unknown))  # fmt: skip

    def clean(self, record: object) -> bool:
        """Whether ``record`` (what ``of`` read this from) holds just what ``record()``
        writes: ids, numbers and flags."""
        return record == self.record()

    def record(self) -> dict:
        """What the room's record holds: exercise ids, numbers and flags, never a label."""
        out = {**asdict(self), "open": list(self.open)}
        del out["unknown"]
        return out

    def shown(self, exercises: tuple[Exercise, ...]) -> tuple[Exercise, ...]:
        """The exercises a student's page shows: the locked one, else every open one."""
        want = {self.lock} if self.lock in self.open else set(self.open)
        return tuple(ex for ex in exercises if ex.id in want)


def exercise_id(named: str) -> str | None:
    """The id of the exercise ``named`` names: its id, or its short title in any language
    the app has (a label a console wrote before issue 41); None for anything else."""
    return named if named in _ids() else _labels().get(named)


def _ids() -> frozenset[str]:
    return frozenset(ex.id for ex in all_exercises())


@cache
def _labels() -> dict[str, str]:
    """Every exercise's short title, in every language with a catalogue, to its id."""
    return {i18n.translations(code).gettext(ex.short_title.template): ex.id
            for code in i18n.NAMES for ex in all_exercises()}  # fmt: skip


def _no_lock(named: str) -> bool:
    """Whether ``named`` is the console's "no lock" in some language (a label where ""
    belongs: what a console before issue 41 wrote)."""
    return any(named == i18n.translations(code).gettext(NO_LOCK_LABEL) for code in i18n.NAMES)


def ids_only(named: list) -> None:
    """Refuse, before the store, anything that is not an exercise id."""
    wrong = [x for x in named if not isinstance(x, str) or x not in _ids()]
    if wrong:
        raise ValueError(f"not exercise ids: {wrong!r}")


def _number(value: object, default: float) -> float:
    return float(value) if isinstance(value, int | float) and value == value else default


def catalogue_order(ids: object) -> tuple[str, ...]:
    wanted = set(ids or ())  # type: ignore[arg-type]
    return tuple(ex.id for ex in all_exercises() if ex.id in wanted)
