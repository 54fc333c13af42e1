"""What a live teacher's console shows of the live class, beside ``practice.console``'s
controls: the join address's check, the control link on request; and the cookie that keeps
the teacher's seat after a reload, written on every page of the teacher's browser.

None of it is for the room's eyes: the console is never projected (``live.projector`` holds
what the projector shows).
"""

from __future__ import annotations

import html
import json

import streamlit as st

from attention_ui.classroom.rooms import ROOM_TTL
from attention_ui.frame import keys
from attention_ui.frame.address import join_address
from attention_ui.frame.pages import BY_KEY
from attention_ui.i18n import _
from attention_ui.live import projector, seats
from attention_ui.live.qr import qr_img

CONSOLE = BY_KEY["console"]


# ---- the cookie: a reload, a new tab or a restarted browser drives the room again ---------
def teacher_cookie() -> None:
    """Write (or clear) the teacher's cookie when the seat changed. Its value is the control
    link's ``CODE.SECRET``: it never shows in the address bar or on a screen, and only this
    browser sends it, with the session's first request (``seats.kept_teacher_link``)."""
    value = seats.cookie_due()
    if value is None:
        return
    age = int(ROOM_TTL) if value else 0  # as long as a room lives
    cookie = f"{seats.TEACHER_COOKIE}={value}; path=/; max-age={age}; SameSite=Lax"
    st.html(f"<script>document.cookie = {json.dumps(cookie)};</script>",
            unsafe_allow_javascript=True)  # fmt: skip
    seats.cookie_written(value)


# ---- the join address, checked where the teacher drives from ---------------------------
def address_check() -> None:
    """The console's copy of the join card's warning: the teacher drives from there, and the
    control link it shows is on the same address."""
    projector.unreachable_warning(join_address(st.context.url))


# ---- the control link, on request ----------------------------------------------------------------
def control_link(s: seats.Seat) -> None:
    """The control link, shown only when asked (the console is not projected), with a QR code
    to scan with the teacher's own phone, and a copy button where the browser allows it
    (browsers give the clipboard only to https and localhost pages)."""
    address = join_address(st.context.url)
    link = f"{address.base}/{CONSOLE.key}?teach={s.code}.{s.secret}"
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
