"""The live class's part in every run of the app: app.py calls these three and only routes.

``arrive`` comes before the routing (it says which page the room is on), ``before_page``
after it and before the page, ``after_page`` once the page and its sidebar ran.
"""

from __future__ import annotations

from attention_ui.frame import guard, state
from attention_ui.frame.pages import PageSpec
from attention_ui.live import console, phone, projector, room_control, seats


def arrive(asked: str | None) -> str | None:
    """Take a seat from the address (?teach= / ?join=) and follow the room: the page key
    the room is on, or None. A following student whose menu asked for another page than
    this one explores on their own from now on (the router then switches to it)."""
    room_page = seats.arrive()
    if asked is not None and asked != state.current_page():
        seats.explore()
    return room_page


def before_page(spec: PageSpec) -> bool:
    """After the routing, before the page: publish a teacher's pick, draw the live bars and
    screens; False when the class is paused (the pause screen stands in for the page)."""
    seats.stay_or_explore(state.current_page())  # a student who left the room's page explores
    room_control.publish_early()  # a live teacher's step or pick: the class draws it at once
    guard.before_fragment_runs(room_control.publish_early)  # the same for a pick in a fragment
    guard.after_fragment_runs(room_control.publish_current)  # and what the fragment changed
    console.teacher_cookie()  # a reload or a new tab of the teacher's browser drives again
    bar = projector.teacher_bar if spec.sidebar and not spec.console else None  # a strip, a console
    phone.follow_bar(spec.watches, bar=bar)
    projector.join_screen()  # over the page, on a live teacher's projector, when the room says
    return not phone.pause_screen()


def after_page() -> None:
    """The teacher's page, step, scenario and picks, if they changed, go to the room."""
    room_control.publish_current()
