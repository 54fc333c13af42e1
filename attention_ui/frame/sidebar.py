"""The sidebar every page shares: current scenario, presets, share link, JSON export/import."""

from __future__ import annotations

import html
from urllib.parse import urlencode

import streamlit as st

from attention_core import PRESETS, InputError, Scenario
from attention_core.exercises.scenarios import NAMES as EXERCISE_NAMES
from attention_core.presets import TITLES
from attention_core.scenario import MAX_URL_CHARS
from attention_ui.draw.text import EDITED, NAME_CHARS, md_escape
from attention_ui.frame import examples, grids, guard, keys, lang, language, links, menu, state
from attention_ui.frame.address import reachable
from attention_ui.i18n import _, ngettext
from attention_ui.i18n.texts import tr
from attention_ui.stages.data import MASK_NAMES

UPLOAD_ERROR = keys.UPLOAD_ERROR
SHARE_BOX = "share_export"
PRESET_TITLES = frozenset(TITLES.values()) | EXERCISE_NAMES  # the app's names, translated


def toasts() -> None:
    """What happened since the last run, as toasts (every page, with a sidebar or not)."""
    for message in state.pop_flashes():
        st.toast(message)
    for message in state.pop_notices():  # for the top of a page that has no header: a toast
        st.toast(md_escape(message))


def render() -> None:
    """The sidebar's content; app.py calls it inside a sidebar container."""
    navigation()
    lang.picker("lang_sidebar")
    if st.session_state.get(keys.URL_ERROR):
        st.warning(md_escape(tr(st.session_state[keys.URL_ERROR])))
    scenario = state.get_scenario()
    name = md_escape(shown_name(scenario.name))
    st.markdown(_("Scenario: **{name}**").format(name=name))
    st.caption(_summary(scenario))
    undo_control()
    preset_picker()
    # Lazy: its six elements (the link, the name box, the file widgets) are sent on every run
    # of every page otherwise; opening it reruns once.
    box = st.expander(_("Share and export"), key=SHARE_BOX, on_change="rerun")
    if box.open is not False:
        with box:
            share_and_export(scenario)


def navigation() -> None:
    """Every page by section, as links that carry the scenario along (``menu``, one element).

    Streamlit's own sidebar menu clears the query string on every click; the app then
    writes ``?s=`` back, which costs a second browser-history entry (Back needed two
    presses). The menu's links switch page with ``?s=`` already in place.
    """
    query = state.share_query() if state.link_fits() else None
    menu.render(state.current_page(), query)
    st.divider()


def _summary(s: Scenario) -> str:
    t = state.get_trace()
    mode = _("embeddings") if s.mode == "embeddings" else _("Q, K, V typed directly")
    n_q, n_k = len(s.queries), len(s.tokens)
    parts = [
        ngettext("{n} query", "{n} queries", n_q).format(n=n_q)
        + " × "
        + ngettext("{n} key", "{n} keys", n_k).format(n=n_k),
        f"d_k = {t.d_k}",
        f"d_v = {t.V.shape[1]}",
        mode,
        _("mask: {kind}").format(kind=_(MASK_NAMES.get(s.mask_kind, s.mask_kind))),
    ]
    if not s.scaled:
        parts.append(_("scaling OFF"))
    if s.n_heads > 1:
        parts.append(_("{n} heads (Multi-head page)").format(n=s.n_heads))
    return " · ".join(parts)


def shown_name(name: str) -> str:
    """A scenario's name as shown: an example's title in the session's language (the name
    itself travels in links in English), the learner's own name as typed, never translated."""
    if not name:
        return _("your own")
    if name.endswith(EDITED) and name != EDITED:  # the app's mark, in the session's language
        return _("{name} (edited)").format(name=shown_name(name.removesuffix(EDITED)))
    return _(name) if name in PRESET_TITLES else name


def preset_picker(key: str = "preset_choice") -> None:
    """Pick an example and load it (replaces the current scenario)."""
    choice = st.selectbox(
        _("Load an example"),
        list(PRESETS),
        index=None,
        key=language.relabelled(key),
        # translated here, in the run: a format_func may be called again outside it (AppTest)
        format_func={k: _(p.title) for k, p in PRESETS.items()}.__getitem__,
        placeholder=_("Choose an example..."),
    )
    if choice is not None:
        st.caption(_(PRESETS[choice].description))
        st.button(_("Load it"), key=f"{key}_load", on_click=_load, args=(key,), type="primary")


load_example = guard.callback(examples.load)  # the on_click of every "Load" button


def undo_control(key: str = "undo_replace") -> None:
    """One button that brings back the scenario the last load replaced (if any)."""
    previous = state.previous_scenario()
    if previous is None:
        return
    st.button(
        _("Undo: bring back “{name}”").format(
            name=md_escape(shown_name(previous.name) if previous.name else _("your own scenario"))
        ),
        key=key,
        on_click=guard.callback(state.undo_replace),
        icon=":material/undo:",
        help=_(
            "The last example, exercise or file you loaded replaced this scenario. "
            "Bring it back (the one you loaded can be brought back the same way)."
        ),
    )


@guard.callback
def _load(key: str) -> None:
    load_example(st.session_state[key])
    st.session_state[key] = None


def share_and_export(s: Scenario) -> None:
    key = name_key()  # a new box whenever the editors are re-seeded: it shows the new name
    st.text_input(
        _("Name (your students see it)"),
        value=s.name,
        key=key,
        max_chars=NAME_CHARS,
        on_change=_on_name,
        args=(key,),
        help=_("Leave it empty to have the name follow your edits."),
    )
    if state.link_fits():
        share_links()
    else:
        st.info(
            _(
                "This scenario is too large for a link ({n} characters; links hold up to "
                "{most}). Download it as JSON to share it."
            ).format(n=f"{len(state.scenario_url()):,}", most=f"{MAX_URL_CHARS:,}")
        )
    st.download_button(
        _("Download scenario (JSON)"),
        state.per_scenario("json", s.to_json),  # about 3 ms to write; the sidebar is on every run
        file_name="scenario.json",
        mime="application/json",
        key="download_json",
    )
    st.file_uploader(
        _("Load a scenario (JSON)"), type=["json"], key="upload_json", on_change=_on_upload
    )
    if st.session_state.get(UPLOAD_ERROR):
        st.error(md_escape(_("That file could not be loaded: {why}").format(
            why=tr(st.session_state[UPLOAD_ERROR]))))  # fmt: skip


def share_links() -> None:
    """The full link with a copy button, and a short one kept in the live class's store.

    The full link holds the whole scenario and needs no server; the short one (``?l=``) is
    made on request, and when the store cannot be reached the page says so instead.
    """
    page_url = reachable((st.context.url or "").split("?")[0])  # a phone's address
    full = f"{page_url}?{urlencode(state.share_link_query())}"
    st.markdown(_("**Share link** (opens these numbers on this page):"))
    copy_box(full, "al-share-full", _("Copy link"), live=True)
    st.caption(_("The whole scenario is in it (about {n} characters): it needs no server.")
               .format(n=f"{len(full):,}"))  # fmt: skip
    made = st.session_state.get(keys.SHORT_LINK)
    here = (state.scenario_url(), state.current_page(), _page_params())
    if made is None or (*made[:2], made[4]) != here:  # other numbers, page or picks
        st.button(_("Make a short link"), key="short_link_make", on_click=_on_short_link,
                  icon=":material/link:")  # fmt: skip
    elif made[2] is not None:
        short = urlencode({keys.SHORT: made[2], **language.language_query()})
        copy_box(f"{page_url}?{short}", "al-share-short", _("Copy short link"))
        days = round(links.LINK_TTL / 86400)
        st.caption(ngettext("Kept on this server for {n} day: everything the full link "
                            "holds (the numbers, the page and its settings).", "Kept on this "
                            "server for {n} days: everything the full link holds (the "
                            "numbers, the page and its settings).", days)
                   .format(n=days))  # fmt: skip
    else:
        st.info(tr(made[3]))


def _page_params() -> dict[str, str]:
    """This page's own parameters in its full link (a picked row, the lab's settings)."""
    own = keys.PAGE_PARAMS.get(state.current_page(), ())
    return {k: v for k, v in state.share_link_query().items() if k in own}


@guard.callback
def _on_short_link() -> None:
    s, page, params = state.scenario_url(), state.current_page(), _page_params()
    link, why = links.make(s, page, params)
    st.session_state[keys.SHORT_LINK] = (s, page, link, why, params)


def copy_box(link: str, box_id: str, label: str, live: bool = False) -> None:
    """A link in a read-only box and a button that copies it (look.FRAME's script does).

    ``live``: the box follows the address bar, which a picker in a fragment changes without
    rerunning the sidebar. The link is escaped: its page address comes from the browser.
    """
    value = html.escape(link, quote=True)
    name = html.escape(_("{label}: the link").format(label=label))
    origin = html.escape("/".join(link.split("/", 3)[:3]), quote=True)  # scheme://host:port
    follow = f' data-live data-origin="{origin}"' if live else ""
    st.html(
        f'<div class="al-share"><input class="al-link" id="{box_id}" value="{value}" readonly'
        f'{follow} aria-label="{name}"><button type="button" '
        f'class="al-copy" data-for="{box_id}">{html.escape(label)}</button>'
        f'<span class="al-copied" id="{box_id}-note" role="status"></span></div>'
    )


def name_key() -> str:
    return f"scenario_name_{grids.editor_gen()}"


@guard.callback
def _on_name(key: str) -> None:
    state.rename(st.session_state.get(key, ""))


@guard.callback
def _on_upload() -> None:
    f = st.session_state.get("upload_json")
    st.session_state[UPLOAD_ERROR] = None
    if f is None:
        return
    try:
        state.replace_scenario(Scenario.from_json(f.getvalue()))
    except InputError as exc:
        st.session_state[UPLOAD_ERROR] = exc.text  # shown in the language of the run showing it
