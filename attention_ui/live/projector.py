"""What a live teacher's projector shows: the room's page as the class sees it, with Go live
or the room's code and count (presentation mode's strip), the bar on every other page the
class follows the teacher to, and the join screen with its card.

The projector shows only what the room may see: the slide or page, the join code and QR code,
how many follow and, when the teacher chooses, the class's answers. Every control that is
not for the room's eyes (pause, ask, reveal, end, the control link) is on the teacher's
console (``practice.console``, with ``live.console``), which a teacher opens beside the
projector or on a phone; the projector offers only a link to it.
"""

from __future__ import annotations

import html

import streamlit as st

from attention_ui.frame import guard, keys, state
from attention_ui.frame.address import JoinAddress, join_address
from attention_ui.frame.pages import BY_KEY
from attention_ui.i18n import N_, _, ngettext
from attention_ui.live import ask_console, pace_console, room_control, seats
from attention_ui.live.phone import RECONNECTING
from attention_ui.live.qr import qr_img

COUNT_EVERY_S = 2.0
CONSOLE = BY_KEY["console"]


# ---- Go live, and the projector's strip -------------------------------------------------------
def go_live_button(page: str, label: str = N_("Go live")) -> None:
    """Open a live class showing this page (not offered to a phone whose class just ended)."""
    if st.session_state.get(keys.LIVE_WAS_STUDENT):
        return
    st.button(_(label), key="live_start", icon=":material/groups:", width="stretch",
              on_click=guard.callback(room_control.start_class), args=(page,),
              help=_("Start a live class: students join with a code or a QR code, and their "
                     "phones follow you to any page."))  # fmt: skip


def projector_strip(page: str) -> None:
    """Presentation mode's top-row slot: Go live, or the room's code and how many follow (a
    press shows the join screen). Nothing in it drives the class."""
    s = seats.seat()
    if s is None:
        go_live_button(page)
    elif s.teaching:
        _strip(s.code)


@st.fragment(run_every=COUNT_EVERY_S)
def _strip(code: str) -> None:
    n = room_control.followers()
    label = f"{code} · {n}" if n is not None else code
    help_text = (_(RECONNECTING) if n is None else
                 ngettext("{n} student following. Press to show the join screen.",
                          "{n} students following. Press to show the join screen.",
                          n).format(n=n))  # fmt: skip
    st.button(label, key="live_strip", icon=":material/groups:", width="stretch",
              help=help_text, on_click=guard.callback(room_control.drive),
              kwargs={"join": True})  # fmt: skip


def teacher_bar() -> None:
    """On any other page a live teacher leads from: the class follows here."""
    s = seats.seat()
    if s is None or not s.teaching:
        return
    with st.container(key="live_teacher_bar", horizontal=True, vertical_alignment="center"):
        st.markdown(":red[●] " + _("**Live class {code}**: the class follows you to this page")
                    .format(code=s.code))  # fmt: skip
        st.button(_("Join screen"), key="live_join_show", icon=":material/qr_code_2:",
                  on_click=guard.callback(room_control.drive), kwargs={"join": True})  # fmt: skip
        console_link()
        count_line()
    ask_console.projector_results()  # a question out: on whatever page the class is
    pace_console.projector_counts()  # a practice's counts, when the teacher shows them


def console_link() -> None:
    """Open the teacher's console in a new tab (this browser's cookie makes it the teacher's)."""
    if (st.context.url or "").split("?")[0].endswith("/" + CONSOLE.key):
        return
    st.link_button(_(CONSOLE.title), here(CONSOLE.key), icon=":material/tune:",
                   help=_("Your controls (pause, ask, reveal, end) in a new tab, off the "
                          "projector"))  # fmt: skip


def here(path: str) -> str:
    """An address of this app as this browser reaches it (the console opens beside it)."""
    url = (st.context.url or "").split("?")[0]
    scheme, _, rest = url.partition("://")
    host = rest.split("/", 1)[0]
    return f"{scheme}://{host}/{path}" if host else f"/{path}"


@st.fragment(run_every=COUNT_EVERY_S)
def count_line() -> None:
    s = seats.seat()
    if s is None or not s.teaching:
        return
    n = room_control.followers()
    if n is None or s.down:
        st.caption(_(RECONNECTING))
        return
    line = ngettext("{n} student following", "{n} students following", n).format(n=n)
    st.caption(line + (" · " + _("paused") if s.paused else ""))


# ---- the join screen ------------------------------------------------------------------------
def join_screen() -> bool:
    """The projector's join screen, over the page, while the room says so; True if shown.

    Sized by the screen, not in pixels: the code and a QR code that scans fit together at
    1280 x 720 and 1024 x 768 (and on a teacher's phone) with no scrolling.
    """
    s = seats.seat()
    if s is None or not s.teaching or not s.join_screen or _on_console():
        return False
    st.html(JOIN_CSS)
    with st.container(key="live_join_screen"):
        join_card(s.code)
        with st.container(horizontal=True, key="live_join_actions"):
            st.button(_("Start the lesson"), key="live_join_hide", type="primary",
                      icon=":material/play_arrow:", on_click=guard.callback(room_control.drive),
                      kwargs={"join": False})  # fmt: skip
            console_link()
        count_line()
    return True


def _on_console() -> bool:
    return BY_KEY[state.current_page()].console


def join_card(code: str) -> None:
    """The address, the code in big letters, and the QR code of ``<address>/?join=CODE``."""
    address = join_address(st.context.url)
    url = address.join_url(code)
    join_at, with_code = html.escape(_("Join at")), html.escape(_("with the code"))
    spelled = html.escape(_("code {letters}").format(letters=" ".join(code)), quote=True)
    alt = _("QR code of {address}").format(address=url)
    st.html(
        f'<div class="al-join"><div class="al-join-words"><p>{join_at}</p>'
        f'<p><b class="al-address">{html.escape(address.base)}</b></p><p>{with_code}</p>'
        f'<p class="al-code" aria-label="{spelled}">{code}</p></div>'
        f"{qr_img(url, alt)}</div>"
    )
    unreachable_warning(address)


def unreachable_warning(address: JoinAddress) -> None:
    """Said where the join address or the control link is shown, when no phone can open it.
    A loopback value of the setting is named as the cause: the teacher sees the warning, the
    one who deployed the app wrote the setting (compose.yml once defaulted it to localhost)."""
    if address.reachable:
        return
    if address.from_setting:
        st.warning(
            _(
                "{setting} is set to {address}, this computer's own (loopback) address: "
                "phones cannot reach it. Set it to the address students use, or leave it "
                "empty so that the app finds this computer's address on the network."
            ).format(setting="ATTENTION_LAB_PUBLIC_URL", address=address.base)
        )
        return
    st.warning(
        _(
            "This address is this computer's own (loopback): phones cannot reach it. "
            "Set {setting}, or start the app with {command}."
        ).format(setting="ATTENTION_LAB_PUBLIC_URL", command="make classroom")
    )


# Our own static CSS. The join screen covers the page (as the pause notice does a phone's);
# the QR code takes what the screen's height leaves after a line of buttons, and its side
# never exceeds half the width, so the words fit beside it on a projector.
JOIN_CSS = """
<style>
.st-key-live_join_screen { position: fixed; inset: 0; z-index: 999980; overflow: auto;
  display: flex; flex-direction: column; justify-content: center; align-items: center;
  padding: 1rem 1.5rem; background: var(--st-background-color, #FFFFFF); gap: 0.5rem; }
.al-join { display: flex; flex-wrap: wrap; align-items: center; justify-content: center;
  gap: 0 2.5rem; }
.al-join-words { text-align: center; }
.al-join p { font-size: 1.6rem; margin: 0.1rem 0; }
.al-join .al-address { font-size: 1.8rem; overflow-wrap: anywhere; }
.al-join .al-code { font-size: 4.5rem; font-weight: 700; letter-spacing: 0.3em;
  margin-right: -0.3em; }
.al-join .al-qr { width: min(calc(100vh - 9rem), 48vw); height: auto; aspect-ratio: 1;
  image-rendering: pixelated; }
@media (max-width: 640px) {
  .al-join .al-qr { width: min(86vw, calc(100vh - 20rem)); }
  .al-join .al-code { font-size: 3rem; }
  .al-join p, .al-join .al-address { font-size: 1.2rem; }
}
.st-key-live_join_actions { justify-content: center; }
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"] { visibility: hidden; }
</style>
"""
