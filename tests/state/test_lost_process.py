"""An answer sent while the page was moving to another server process (issue 41: nothing a
user does is lost). When `make classroom` loses a Streamlit process, each of its pages
reconnects to another, where it is a new session: the first message that session gets can
be the Send the student had just pressed, with the answer the page still holds. Streamlit
runs a widget's callback only for a widget of the session's previous run, and a new
session has none: the answer was never counted (seen in 2 of 4 runs of
tests/deploy/test_lesson_browser.py's killed process: the phone kept its box filled, with
no verdict). At Streamlit's protocol (tests/state/protocol.py), over one real server and
its SQLite store: a new session of the same phone, whose first run carries the typed
answer and the click, must count it and show its verdict."""

from __future__ import annotations

import re

from streamlit.proto.WidgetStates_pb2 import WidgetState

from tests.state.protocol import Tab


def test_an_answer_whose_click_reaches_a_new_session_is_counted(machine) -> None:
    m = machine
    console, phone = m.tabs["console"], m.tabs["phone1"]
    console.click("live_ask")  # the suggested cell of the room's scenario
    phone.rerun()  # its poll: the question, with a box and Send
    assert {"live_answer", "live_answer_send"} <= phone.drawn(), phone.text[:400]
    box, send = phone.find("live_answer"), phone.find("live_answer_send")
    typed = WidgetState(id=box.id, string_value="0.5")
    click = WidgetState(id=send.id, trigger_value=True)
    # the page, on another process: a new session, the seat's cookie, the same address
    moved = Tab(m.url, phone.page, phone.query, phone.cookies, replay=[typed, click])
    m.tabs["phone1"] = moved  # closed with the others at the end
    phone.close()
    assert "Your answer: **0\\.5**" in moved.text, moved.text[:600]  # Markdown, escaped
    assert "Sent: your first answer is the one counted." in moved.text
    assert "live_answer_send" not in moved.drawn()  # sent: no box to send it again
    projector = m.tabs["projector"].rerun()  # counted in the class's store
    assert re.search(r"\b1 of \d+ students? answered", projector.text), projector.text[:600]
