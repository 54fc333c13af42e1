"""The catalogues (issue 36): extraction up to date, offered languages complete, plurals by
each language's rule, placeholders safe, and the checker's verdicts alike in every language.

No Streamlit: the language a lookup speaks is set through ``i18n.set_language_source``,
the hook frame.lang points at the session (see ``speaking``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from attention_core.exercises import all_exercises, check_answer, check_choice
from attention_core.exercises.model import ChoiceStep, NumericStep
from attention_core.exercises.text import format_value
from attention_ui import i18n
from attention_ui.i18n import _, ngettext

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from compile_catalogue import problems  # noqa: E402

LANGS = ("es", "fr", "de", "zh")
# The languages complete today: the picker offers exactly these (README, "Languages").
OFFERED = ("en", "es", "fr", "de", "zh")


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Every lookup in the block speaks ``code`` (as a session in that language would)."""
    before = i18n._source[0]  # frame.lang's, once the app was imported in this process
    i18n.set_language_source(lambda: code)
    try:
        yield
    finally:
        i18n.set_language_source(before)


def _ids(path: Path) -> set[str]:
    with path.open("rb") as f:
        return {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(f) if m.id}


def test_the_template_is_what_the_code_marks(tmp_path: Path) -> None:
    """`make i18n-extract` would add no msgid and drop none: every _(), ngettext() and N_()
    of the code is in messages.pot (run `make i18n-update` after adding a string)."""
    fresh = tmp_path / "messages.pot"
    subprocess.run(
        [Path(sys.executable).parent / "pybabel", "-q", "extract", "-F", "babel.cfg",
         "--no-location", "--sort-output", "-k", "N_", "-k", "Text", "-k", "Plural:1,2",
         "-c", "Translators:", "--omit-header",
         "-o", str(fresh), "app.py", "app_pages", "attention_ui", "attention_core"],
        cwd=ROOT, check=True,
    )  # fmt: skip
    now, stored = _ids(fresh), _ids(i18n.TEMPLATE)
    assert now - stored == set(), "new strings: run make i18n-update"
    assert stored - now == set(), "strings gone from the code: run make i18n-update"
    assert len(stored) > 100


@pytest.mark.parametrize("code", LANGS)
def test_each_catalogue_has_the_templates_entries(code: str) -> None:
    assert _ids(i18n.catalogue(code)) == _ids(i18n.TEMPLATE)


def test_the_offered_languages_are_the_complete_ones() -> None:
    assert i18n.offered() == OFFERED
    for code in OFFERED[1:]:
        with i18n.catalogue(code).open("rb") as f:
            cat = read_po(f)
        untranslated = [m.id for m in cat if m.id and not all(
            m.string if isinstance(m.string, tuple) else (m.string,))]  # fmt: skip
        assert untranslated == [], code
        assert not [m.id for m in cat if m.id and m.fuzzy], code


@pytest.mark.parametrize("code", LANGS)
def test_no_translation_names_a_placeholder_its_english_lacks(code: str) -> None:
    assert problems(code) == []


def test_lookups_speak_the_sessions_language_and_fall_back_to_english() -> None:
    with speaking("es"):
        assert _("Share and export") == "Compartir y exportar"
        assert _("a sentence no catalogue has") == "a sentence no catalogue has"
    with speaking("zh"):
        assert _("5. Mask") == "5. 掩码"
    assert _("Share and export") == "Share and export"  # outside a session: English
    for code in OFFERED:  # gettext's answer for "" is the catalogue's header: never shown
        with speaking(code):
            assert _("") == ""


@pytest.mark.parametrize(
    ("code", "one", "two"),
    [("en", "1 key", "2 keys"), ("es", "1 clave", "2 claves"), ("fr", "1 clé", "2 clés"),
     ("de", "1 Key", "2 Keys"), ("zh", "1 个键", "2 个键")],
)  # fmt: skip
def test_plural_forms_follow_each_languages_rule(code: str, one: str, two: str) -> None:
    with speaking(code):
        assert ngettext("{n} key", "{n} keys", 1).format(n=1) == one
        assert ngettext("{n} key", "{n} keys", 2).format(n=2) == two
    # French counts 0 as singular (Plural-Forms: n > 1), English and Spanish as plural
    with speaking("fr"):
        assert ngettext("{n} key", "{n} keys", 0).format(n=0) == "0 clé"
    with speaking("es"):
        assert ngettext("{n} key", "{n} keys", 0).format(n=0) == "0 claves"


@pytest.mark.parametrize(
    ("wanted", "code"),
    [("es", "es"), ("es-MX", "es"), ("de_AT", "de"), ("fr-CA", "fr"), ("zh-CN", "zh"),
     ("zh-Hans-CN", "zh"), ("zh-TW", None), ("zh-Hant", None), ("en-GB", "en"), ("pt-BR", None),
     ("", None), (None, None)],
)  # fmt: skip
def test_a_browser_locale_or_link_picks_an_offered_language(
    wanted: str | None, code: str | None
) -> None:
    assert i18n.match(wanted) == code


def _answers(step: NumericStep) -> list[str]:
    """The right answer and every named slip's answer, typed as a learner would."""
    right = [format_value(v.value, step.decimals) for v in step.accepted]
    return right + [format_value(m.value, step.decimals) for m in step.mistakes]


def test_the_checker_gives_the_same_verdicts_and_slips_in_every_language() -> None:
    """Verdicts and slip ids come from the core, which has no language: each of the five
    languages gets the same Feedback for every right answer and named slip of every step."""
    cases = []
    for ex in all_exercises():
        for step in ex.steps:
            if isinstance(step, NumericStep):
                cases += [(step, text) for text in _answers(step)]
    assert len(cases) > 50

    def verdicts() -> list[tuple[object, ...]]:
        out: list[tuple[object, ...]] = []
        for step, text in cases:
            fb = check_answer(step, text)
            out.append((fb.correct, fb.mistake, fb.variant, fb.message))
        for ex in all_exercises():
            for step in ex.steps:
                if isinstance(step, ChoiceStep):
                    for k in range(len(step.choices)):
                        fb = check_choice(step, k)
                        out.append((fb.correct, fb.mistake, fb.message))
        return out

    english = verdicts()
    slips = {v[1] for v in english if v[1]}
    assert {"unscaled", "softmax_columns", "transposed", "divided_by_dk", "no_mask"} <= slips
    assert any(v[0] for v in english) and not all(v[0] for v in english)
    for code in LANGS:
        with speaking(code):
            assert verdicts() == english, code


def test_french_keeps_its_space_before_a_colon_on_the_same_line() -> None:
    """French puts a non-breaking space before : ; ? ! (dev/i18n/typography.py), so a narrow
    phone column never starts a line with the colon; mathematics and code are left alone."""
    with i18n.catalogue("fr").open("rb") as f:
        cat = read_po(f)
    math_or_code = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`", re.S)
    plain, spaced = [], 0
    for m in cat:
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            prose = math_or_code.sub("", text or "")
            plain += [text[:60] for _ in re.finditer(r"\S [:;?!](?=\s|$|\*)", prose)]
            spaced += len(re.findall("\u00a0[:;?!]", prose))
    assert spaced > 300  # the rule is in use (about 500 entries have one)
    assert plain == []


# One gender for softmax in each language that gives it one (issue 42, item 10): Spanish
# says "la softmax" (la función), French "le softmax"; mixed, a learner reads two things.
GENDER = {"es": r"\b(?:[Ee]l|del|al) softmax\b", "fr": r"\b(?:[Ll]a|[Dd]e la) softmax\b"}


@pytest.mark.parametrize("code", sorted(GENDER))
def test_softmax_keeps_one_gender(code: str) -> None:
    with i18n.catalogue(code).open("rb") as f:
        cat = read_po(f)
    texts = [t for m in cat for t in (m.string if isinstance(m.string, tuple) else (m.string,))]
    other = [t[:80] for t in texts if t and re.search(GENDER[code], t)]
    assert other == []
    assert sum(bool(re.search(r"softmax", t or "")) for t in texts) > 20  # the rule is in use
