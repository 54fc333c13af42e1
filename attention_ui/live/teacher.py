"""What a live teacher's screens show: the projector's strip and join screen, the bar on the
other pages, the control link on request, and the cookie that keeps the room after a reload.

The projector shows only what the room may see: the slide or page, the join code and QR code,
how many follow and, when the teacher chooses, the class's answers. Every control that is
not for the room's eyes (pause, ask, reveal, end, the control link) is on the teacher's
console (``practice.console``), which a teacher opens beside the projector or on a phone.
"""

from __future__ import annotations

import html
import json

import streamlit as st

from attention_ui.frame import guard, keys, state
from attention_ui.frame.address import join_address
from attention_ui.frame.pages import BY_KEY
from attention_ui.i18n import N_, _, ngettext
from attention_ui.live import ask, dashboard, session, teaching
from attention_ui.live.qr import qr_img
from attention_ui.live.rooms import ROOM_TTL
from attention_ui.live.views import RECONNECTING

COUNT_EVERY_S = 2.0
CONSOLE = BY_KEY["console"]


# ---- the cookie: a reload, a new tab or a restarted browser drives the room again ---------
def teacher_cookie() -> None:
    """Write (or clear) the teacher's cookie when the seat changed. Its value is the control
    link's ``CODE.SECRET``: it never shows in the address bar or on a screen, and only this
    browser sends it, with the session's first request (``session.kept_teacher_link``)."""
    value = session.cookie_due()
    if value is None:
        return
    age = int(ROOM_TTL) if value else 0  # as long as a room lives
    cookie = f"{session.TEACHER_COOKIE}={value}; path=/; max-age={age}; SameSite=Lax"
    st.html(f"<script>document.cookie = {json.dumps(cookie)};</script>",
            unsafe_allow_javascript=True)  # fmt: skip
    session.cookie_written(value)


# ---- Go live, and the projector's strip -------------------------------------------------------
def go_live_button(page: str, label: str = N_("Go live")) -> None:
    """Open a live class showing this page (not offered to a phone whose class just ended)."""
    if st.session_state.get(keys.LIVE_WAS_STUDENT):
        return
    st.button(_(label), key="live_start", icon=":material/groups:", width="stretch",
              on_click=guard.callback(teaching.start_class), args=(page,),
              help=_("Start a live class: students join with a code or a QR code, and their "
                     "phones follow you to any page."))  # fmt: skip


def projector_strip(page: str) -> None:
    """Presentation mode's top-row slot: Go live, or the room's code and how many follow (a
    press shows the join screen). Nothing in it drives the class."""
    s = session.seat()
    if s is None:
        go_live_button(page)
    elif s.teaching:
        _strip(s.code)


@st.fragment(run_every=COUNT_EVERY_S)
def _strip(code: str) -> None:
    n = teaching.followers()
    label = f"{code} · {n}" if n is not None else code
    help_text = (_(RECONNECTING) if n is None else
                 ngettext("{n} student following. Press to show the join screen.",
                          "{n} students following. Press to show the join screen.",
                          n).format(n=n))  # fmt: skip
    st.button(label, key="live_strip", icon=":material/groups:", width="stretch",
              help=help_text, on_click=guard.callback(teaching.drive),
              kwargs={"join": True})  # fmt: skip


def teacher_bar() -> None:
    """On any other page a live teacher leads from: the class follows here."""
    s = session.seat()
    if s is None or not s.teaching:
        return
    with st.container(key="live_teacher_bar", horizontal=True, vertical_alignment="center"):
        st.markdown(":red[●] " + _("**Live class {code}**: the class follows you to this page")
                    .format(code=s.code))  # fmt: skip
        st.button(_("Join screen"), key="live_join_show", icon=":material/qr_code_2:",
                  on_click=guard.callback(teaching.drive), kwargs={"join": True})  # fmt: skip
        console_link()
        count_line()
    ask.projector_results()  # a question out: on whatever page the class is
    dashboard.projector_counts()  # a practice's counts, when the teacher shows them


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
    s = session.seat()
    if s is None or not s.teaching:
        return
    n = teaching.followers()
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
    s = session.seat()
    if s is None or not s.teaching or not s.join_screen or _on_console():
        return False
    st.html(JOIN_CSS)
    with st.container(key="live_join_screen"):
        join_card(s.code)
        with st.container(horizontal=True, key="live_join_actions"):
            st.button(_("Start the lesson"), key="live_join_hide", type="primary",
                      icon=":material/play_arrow:", on_click=guard.callback(teaching.drive),
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
    if not address.reachable:
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


# ---- the control link, on request ----------------------------------------------------------------
def control_link(s: session.Seat) -> None:
    """The control link, shown only when asked (the console is not projected), with a QR code
    to scan with the teacher's own phone, and a copy button where the browser allows it
    (browsers give the clipboard only to https and localhost pages)."""
    link = f"{join_address(st.context.url).base}/{CONSOLE.key}?teach={s.code}.{s.secret}"
    shown = st.toggle(_("Show my control link"), key=keys.LIVE_LINK_SHOWN,
                      help=_("It drives this class: open it on your own phone to use it as a "
                             "remote, or after a restart to take the class back."))  # fmt: skip
    if not shown:
        st.caption(_("Your control link drives this class from another device (your phone as "
                     "a remote). It is hidden until you ask: never project it."))  # fmt: skip
        return
    st.warning(_("Anyone who has this link drives your class: scan it with your own phone, "
                 "and hide it before you project this screen."), icon=":material/key:")  # fmt: skip
    st.code(link, language=None, wrap_lines=True)
    words = {
        "COPY_LABEL": _("Copy my control link"),
        "COPIED": _("Copied"),
        "COPY_FAILED": _("Copy failed (the clipboard needs https): copy it above"),
    }
    copy = COPY_JS
    for name, text in words.items():  # JSON strings in the script, escaped text in the button
        copy = copy.replace(f"{name}_JSON", json.dumps(text)).replace(name, html.escape(text))
    copy = copy.replace("LINK_JSON", json.dumps(link))  # last: nothing replaces in the link
    st.html(qr_img(link, _("QR code of your control link")) + copy,
            unsafe_allow_javascript=True)  # fmt: skip


COPY_JS = """
<button type="button" class="al-copy-control" style="padding:0.4rem 0.8rem;min-height:2.5rem;
border-radius:0.5rem;border:1px solid rgba(49,51,63,0.4);background:transparent;color:inherit;
cursor:pointer;display:block;margin-top:0.5rem">COPY_LABEL</button>
<script>
(() => {
  for (const b of document.querySelectorAll("button.al-copy-control")) {
    if (b.dataset.ready) continue;
    b.dataset.ready = "1";
    b.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(LINK_JSON); b.textContent = COPIED_JSON; }
      catch (e) { b.textContent = COPY_FAILED_JSON; }
    });
  }
})();
</script>
<style>.al-qr { max-width: 100%; height: auto; }</style>
"""
