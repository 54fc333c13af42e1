"""The app's words in the learner's language: gettext catalogues, looked up per session.

No Streamlit here (the lowest UI layer: figures and stage data translate their titles too).
Which language a run speaks is asked of one function, set once per process by
``frame.lang`` (``set_language_source``): it reads the *session's* language, so two
students in two languages on one server (Streamlit runs each session in a thread of one
process) never share it. Nothing here holds a current language.

- ``_("text")``: the text in the run's language; English (the msgid) when the catalogue has
  no translation for it, never a key or an empty string.
- ``ngettext(singular, plural, n)``: plural forms by the language's own rule (gettext's
  ``Plural-Forms``: one form in Chinese, two in the others).
- ``N_("text")``: only marks a string for extraction (a table of titles); translate it where
  it is shown, with ``_(text)``.
- The core's texts with values (``Text``, ``Plural``, an ``InputError``): ``texts.tr``.

The catalogues are ``locale/<code>/LC_MESSAGES/messages.po`` (made and updated with Babel:
``make i18n-extract``, ``make i18n-update``), compiled to ``.mo`` by ``make i18n-compile``,
which ``make run`` and ``make test`` do when a ``.po`` changed. A language is *offered* (the
picker, ``?lang=``, the browser's locale) only when its catalogue translates every entry of
the template: a half-done language never shows a page half in English.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
TEMPLATE = LOCALE_DIR / "messages.pot"
DOMAIN = "messages"
SOURCE = "en"  # the msgids are English: it needs no catalogue

# Every language the app has a catalogue for, in the picker's order, by its own name.
NAMES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "zh": "简体中文",
}
# The page's lang attribute (BCP 47): the script matters for Chinese (screen readers, fonts).
HTML_LANG: dict[str, str] = {"zh": "zh-Hans"}


def _english() -> str:
    return SOURCE


_source: list[Callable[[], str]] = [_english]  # set once per process (frame.lang)


def set_language_source(source: Callable[[], str]) -> None:
    """Where ``_`` asks which language this run speaks (``frame.lang``: the session's)."""
    _source[0] = source


def language() -> str:
    """The language of this run (English outside a session: tests, warm-up, the core)."""
    return _source[0]()


@cache
def translations(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``code``, loaded once per process and never changed.

    English, or a language whose ``.mo`` is not built, gets the msgids themselves.
    """
    mo = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if code == SOURCE or not mo.is_file():
        return gettext.NullTranslations()
    with mo.open("rb") as f:
        return gettext.GNUTranslations(f)


def _(message: str) -> str:
    """``message`` in this run's language (English where the catalogue has no entry).

    The empty string stays empty: gettext's own answer for it is the catalogue's header
    (a section with no name showed "Project-Id-Version: ..." in the menu).
    """
    return translations(language()).gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in this run's language."""
    return translations(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 (gettext's name for the marker)
    """Mark ``message`` for the catalogue without translating it here."""
    return message


@cache
def template_ids() -> frozenset[str]:
    """Every msgid of the template (messages.pot): what a complete catalogue translates."""
    return frozenset(_read_ids(TEMPLATE, translated_only=False))


@cache
def offered() -> tuple[str, ...]:
    """The languages the picker offers: English and each one whose catalogue is complete
    (every entry of the template translated, none fuzzy) and compiled."""
    ids = template_ids()
    done = [
        code
        for code in NAMES
        if code != SOURCE
        and (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()
        and ids <= _read_ids(catalogue(code), translated_only=True)
    ]
    return (SOURCE, *done)


def catalogue(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def html_lang(code: str) -> str:
    return HTML_LANG.get(code, code)


def _read_ids(path: Path, translated_only: bool) -> set[str]:
    """The msgids of a .po/.pot file (with translated_only, those with every form translated
    and not fuzzy). Babel reads it; only the picker's offer needs this, once per process."""
    from babel.messages.pofile import read_po  # only here: the app's lookups need no Babel

    if not path.is_file():
        return set()
    with path.open("rb") as f:
        cat = read_po(f)
    ids = set()
    for m in cat:
        if not m.id:
            continue
        msgid = m.id[0] if isinstance(m.id, tuple) else m.id
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if not translated_only or (all(strings) and not m.fuzzy):
            ids.add(msgid)
    return ids


def match(wanted: str | None) -> str | None:
    """The offered language for a code or a browser locale ("es", "de-AT", "zh-CN",
    "zh-Hans"), or None. Traditional Chinese (zh-TW, zh-HK, zh-Hant) is not Simplified."""
    if not wanted:
        return None
    tag = wanted.replace("_", "-").lower()
    if tag.startswith("zh") and any(t in tag for t in ("hant", "-tw", "-hk", "-mo")):
        return None
    code = tag.split("-")[0]
    return code if code in offered() else None
