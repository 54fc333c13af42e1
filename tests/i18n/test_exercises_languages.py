"""The exercises in every language (issue 36): every text the exercises show is in the
catalogue with its placeholders filled, the checker's verdicts and slips are the same in
every language while its words are not, its plurals read naturally, and a learner walks one
exercise from a named slip, through a hint, to the solution in Spanish and in Chinese.

The expected sentences below are written out by hand from the tables in
dev/i18n/tables/exercises_<lang>.py, never read back from a catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import presets
from attention_core.exercises import (
    ChoiceStep,
    NumericStep,
    all_exercises,
    answer_format,
    check_answer,
    check_choice,
    exercise_by_id,
)
from attention_core.exercises.cell import CELL_STAGES, cell_question
from attention_core.exercises.text import format_value
from attention_core.i18n import Message, Piece, Plural, Text, english, pieces
from attention_ui import i18n
from attention_ui.frame.pages import BY_KEY
from attention_ui.i18n.texts import tr
from tests.i18n.pages import APP

LANGS = ("es", "fr", "de", "zh")


def speak(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    """Every lookup from here to the test's end speaks ``code``, as a session would."""
    monkeypatch.setattr(i18n, "_source", [lambda: code])


# ---- everything the exercises can say --------------------------------------------------
def _answers(step: NumericStep) -> Iterator[str]:
    """Answers that reach every branch of the checker: right, each slip, too coarse, the
    right numbers in another order, another shape, wrong values, unreadable, empty."""
    for v in (*step.accepted, *step.mistakes):
        yield format_value(v.value, step.decimals, sep="\n")
    yield format_value(step.expected, 1 if step.decimals else None, sep="\n")
    yield format_value(step.expected[::-1], step.decimals, sep="\n")
    yield format_value(step.expected[:, ::-1], step.decimals, sep="\n")
    yield format_value(step.expected + 0.5, step.decimals, sep="\n")
    yield "1 2 3 4 5"
    yield "1, x"
    yield "50 %, 50"
    yield ""


def _said() -> list[Piece | Message]:
    """Every text of every exercise card, and the checker's feedback on many answers."""
    out: list[Piece | Message] = []
    for ex in all_exercises():
        out += [ex.title, ex.short_title, ex.source, ex.statement]
        for step in ex.steps:
            out += [step.title, step.prompt, *step.hints]
            out += [step.explanation] if step.explanation else []
            if isinstance(step, ChoiceStep):
                for k, choice in enumerate(step.choices):
                    out += [step.option(k), choice.explanation, check_choice(step, k).said]
                out.append(check_choice(step, None).said)
                continue
            out += [step.layout, answer_format(step)]
            out += [m.said for m in step.mistakes] + [v.label for v in step.accepted if v.label]
            out += [check_answer(step, text).said for text in _answers(step)]
    t = presets.hungry().trace()
    for stage in CELL_STAGES:  # a live class's one-cell questions
        step = cell_question(t, stage, 0, 1, "it", "jungle")
        out += [step.title, step.prompt, step.explanation, *(m.said for m in step.mistakes)]
        out += [check_answer(step, text).said for text in ("0.5", "-3", "x", "")]
    return out


SAID = _said()


def test_every_piece_is_in_the_catalogue_and_every_placeholder_is_filled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ids = i18n.template_ids()
    all_pieces = pieces(SAID)
    assert len(all_pieces) > 1000
    missing = {p.template if isinstance(p, Text) else p.singular for p in all_pieces} - ids
    assert missing == set(), sorted(missing)[:5]
    for code in LANGS:
        speak(monkeypatch, code)
        for said in SAID:
            shown = tr(said)  # raises KeyError if a translation names a field it lacks
            for piece in pieces(said):
                left = {f"{{{name}}}" for name, _ in piece.params} | (
                    {"{n}"} if isinstance(piece, Plural) else set())  # fmt: skip
                assert not [f for f in left if f in shown], (code, shown)


def test_the_feedback_speaks_each_language_and_the_verdicts_do_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tally is counted from the core's verdicts: the same (right, slip, variant) for
    every answer in every language, while what the learner reads is translated."""
    cases = [(s, a) for ex in all_exercises() for s in ex.steps if isinstance(s, NumericStep)
             for a in _answers(s)]  # fmt: skip
    verdicts = [(fb.correct, fb.mistake, fb.variant) for s, a in cases
                if (fb := check_answer(s, a))]  # fmt: skip
    assert {"unscaled", "transposed", "too_few_decimals", "swapped_order"} <= {
        v[1] for v in verdicts}  # fmt: skip
    english_words = [english(check_answer(s, a).said) for s, a in cases]
    for code in LANGS:
        speak(monkeypatch, code)
        feedback = [check_answer(s, a) for s, a in cases]
        assert [(fb.correct, fb.mistake, fb.variant) for fb in feedback] == verdicts
        shown = [tr(fb.said) for fb in feedback]
        same = [e for e, s in zip(english_words, shown, strict=True) if e == s]
        assert set(same) <= SAME_WORD.get(code, set()), (code, same[:3])


# Every message a learner reads is translated; French says "Correct." as English does.
SAME_WORD = {"fr": {"Correct."}}

TOY_SCALED = exercise_by_id("paper_toy").step("scaled")  # 4 decimals
QUIZ_WEIGHTS = exercise_by_id("quiz88").step("weights")  # 3 decimals, or 1 as a percentage
TOY_OUTPUT = exercise_by_id("paper_toy").step("output")  # two accepted answers

# (step, typed) -> the learner's language -> what they read
NATURAL = {
    (TOY_SCALED, "0.7071, 1.4142"): {
        "en": "Correct.", "es": "Correcto.", "fr": "Correct.", "de": "Richtig.", "zh": "正确。",
    },
    (TOY_OUTPUT, "16.697"): {
        "en": "Correct: you used the guide's rounded weights 0.3303 / 0.6697.",
        "es": "Correcto: usaste los pesos redondeados de la guía 0.3303 / 0.6697.",
        "fr": "Correct\u00a0: vous avez utilisé les poids arrondis du guide 0.3303 / 0.6697.",
        "de": "Richtig: Du hast die gerundeten Gewichte der Anleitung 0.3303 / 0.6697 verwendet.",
        "zh": "正确：你使用的是指南中四舍五入后的权重 0.3303 / 0.6697。",
    },
    (TOY_SCALED, "0.71, 1.41"): {  # 4 decimals asked: the plural
        "en": "On the right track, but rounded too coarsely: this step asks for 4 decimals "
        "and your answer has 2.",
        "es": "Vas por buen camino, pero redondeaste demasiado: este paso pide 4 decimales y "
        "tu respuesta tiene 2.",
        "fr": "Vous êtes sur la bonne voie, mais l'arrondi est trop grossier\u00a0: cette étape "
        "demande 4 décimales et votre réponse en a 2.",
        "de": "Auf dem richtigen Weg, aber zu grob gerundet: Dieser Schritt verlangt 4 "
        "Nachkommastellen, und deine Antwort hat 2.",
        "zh": "方向对了，但舍入得太粗：这一步要求 4 位小数，而你的答案只有 2 位。",
    },
    (QUIZ_WEIGHTS, "80 %, 20 %"): {  # 1 decimal asked in a percentage: the singular
        "en": "On the right track, but rounded too coarsely: this step asks for 1 decimal in "
        "a percentage and your answer has 0.",
        "es": "Vas por buen camino, pero redondeaste demasiado: este paso pide 1 decimal en un "
        "porcentaje y tu respuesta tiene 0.",
        "fr": "Vous êtes sur la bonne voie, mais l'arrondi est trop grossier\u00a0: cette étape "
        "demande 1 décimale dans un pourcentage et votre réponse en a 0.",
        "de": "Auf dem richtigen Weg, aber zu grob gerundet: Dieser Schritt verlangt 1 "
        "Nachkommastelle in einem Prozentwert, und deine Antwort hat 0.",
        "zh": "方向对了，但舍入得太粗：这一步要求百分数保留 1 位小数，而你的答案只有 0 位。",
    },
    (TOY_SCALED, "0.7071, 1.5"): {  # one number of two off: "1 of 2 numbers is ..."
        "en": "Not yet: 1 of 2 numbers is off by more than ±0.0001. The first one off is row "
        "1, column 2. Ask for a hint if you are stuck.",
        "es": "Todavía no: 1 de 2 números se desvía más de ±0.0001. El primero que se desvía "
        "está en la fila 1, columna 2. Pide una pista si te atascas.",
        "fr": "Pas encore\u00a0: 1 sur 2 nombres s'écarte de plus de ±0.0001. Le premier écart est "
        "en ligne 1, colonne 2. Demandez un indice si vous êtes bloqué.",
        "de": "Noch nicht: 1 von 2 Zahlen weicht um mehr als ±0.0001 ab. Die erste Abweichung "
        "ist in Zeile 1, Spalte 2. Hol dir einen Hinweis, wenn du nicht weiterkommst.",
        "zh": "还没对：2 个数中有 1 个偏差超过了 ±0.0001。第一个出错的是第 1 行第 2 "
        "列。卡住时可以要一个提示。",
    },
}  # fmt: skip


@pytest.mark.parametrize("code", ["en", *LANGS])
def test_right_answers_and_coarse_rounding_read_naturally(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    speak(monkeypatch, code)
    for (step, typed), said in NATURAL.items():
        feedback = check_answer(step, typed)
        assert tr(feedback.said) == said[code]
        assert feedback.message == english(feedback.said) == said["en"]  # logs, CSV, tests


# ---- a learner on the page: a named slip, a hint, the solution ---------------------------
WALK = {
    "es": {
        "slip": "Estas son las puntuaciones brutas Q Kᵀ: olvidaste escalar. Divide cada una "
        "entre √d_k = √2 ≈ 1.414.",
        "hint": "Pista 1: d_k es la longitud de cada vector de clave: aquí 2.",
        "solution": "**Solución**, cada paso calculado por el propio código de atención de la "
        "aplicación:",
        "explained": "Ambas puntuaciones se dividen entre $\\sqrt{2} \\approx 1.41421$.",
        "tab": "1 · Ejemplo del artículo",
    },
    "zh": {
        "slip": "这些是原始分数 Q Kᵀ：你忘了缩放。把每个分数除以 √d_k = √2 ≈ 1.414。",
        "hint": "提示 1：d_k 是每个键向量的长度：这里是 2。",
        "solution": "**解答**，每一步都由本应用自己的注意力代码计算：",
        "explained": "两个分数都除以 $\\sqrt{2} \\approx 1.41421$。",
        "tab": "1 · 论文示例",
    },
}
ENGLISH = ("you forgot to scale", "Hint 1", "**Solution**", "Both scores are divided",
           "Paper toy", "Ask for a hint", "Open in the walkthrough")  # fmt: skip


def _plain(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)  # md_escape's backslashes


@pytest.mark.parametrize("code", ["es", "zh"])
def test_a_slip_a_hint_and_the_solution_in_a_language(code: str) -> None:
    want = WALK[code]
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = code
    at.run()
    at.switch_page(BY_KEY["exercises"].path).run()
    assert at.tabs[0].label == want["tab"]
    at.text_input(key="ex_paper_toy_scaled").input("1, 2")  # the raw scores: not scaled
    at.button(key="ex_paper_toy_scaled_check").click().run()
    at.button(key="ex_paper_toy_scaled_hint").click().run()
    at.button(key="ex_paper_toy_solution").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [_plain(e.value) for e in at.error] == [want["slip"]]
    assert _plain(at.info[0].value) == want["hint"]
    markdown = [m.value for m in at.markdown]
    assert want["solution"] in markdown and want["explained"] in markdown
    assert at.session_state["practice_progress"]["paper_toy"]["scaled"].mistake == "unscaled"
    page = "\n".join(
        [*markdown, *(e.value for e in (*at.error, *at.info, *at.caption)),
         *(b.label for b in at.button), *(t.label for t in at.tabs)])  # fmt: skip
    assert [w for w in ENGLISH if w in _plain(page)] == []


def test_an_exercise_scenario_is_named_in_the_learners_language() -> None:
    """The scenarios the exercises open in the walkthrough keep an English name (links,
    files) and show it translated in the sidebar, like an example's title."""
    from attention_core.exercises.scenarios import NAMES
    from attention_ui.frame.sidebar import shown_name

    assert "Exercise: causal mask" in NAMES
    before = i18n._source[0]
    i18n.set_language_source(lambda: "es")
    try:
        assert shown_name("Exercise: causal mask") == "Ejercicio: máscara causal"
        assert shown_name("Exercise: two heads (head 1 alone)") == (
            "Ejercicio: dos cabezas (solo la cabeza 1)"
        )
        assert shown_name("My own: causal mask") == "My own: causal mask"  # typed: as is
    finally:
        i18n.set_language_source(before)
