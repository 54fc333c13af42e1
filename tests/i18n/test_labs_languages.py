"""The three labs (Multi-head, Real model, Decoder) beyond their first view, in a language
(issue 36).

tests/i18n/test_nothing_left.py sees each page as it opens; here each lab is driven into its
other states (a picked stage or view, an open expander, the one-click fix, a bad input, a
cut text, a head opened in the walkthrough) once in English and once in another language,
and no run of English words may be shown in both (``english_pieces``: a string never
wrapped). Each test also checks a few sentences by name, translated, with their English
gone, and that no part of the page failed (the guard's notice). Learner text (the lessons'
sentences, tokens) stays as typed; the model labs skip when their model is absent.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS
from attention_ui import i18n
from attention_ui.decoder.lab import DEFAULT_PROMPT
from attention_ui.frame import guard, keys
from attention_ui.real_model.lab import DEFAULT_TEXT
from tests.core import minilm, smollm2
from tests.i18n.pages import english_pieces, shown_text
from tests.pages.lab_pages import open_lab

MULTI_HEAD = "app_pages/labs/multi_head.py"
REAL_MODEL = "app_pages/labs/real_model.py"
DECODER = "app_pages/labs/decoder.py"
Step = Callable[[AppTest], object]
# The labs' own sentences, learner text like any typed one: a chart's text alternative lists
# their tokens ("The, trophy, did, not, ...").
TYPED = (DEFAULT_TEXT, DEFAULT_PROMPT)
TWO_HEADS = {"s": PRESETS["two_heads"].build().to_url()}  # the Multi-head page's own example


def visit(page: str, code: str | None, query: dict | None = None, session: dict | None = None,
          then: Step | None = None) -> AppTest:  # fmt: skip
    """``page`` in language ``code`` (None: English), with ``query`` in the URL, ``session``
    set before the page runs and ``then`` done on it; no exception and no failed part."""
    at = open_lab(page, {**({"lang": code} if code else {}), **(query or {})}, session)
    if then is not None:
        then(at)
    assert not at.exception, [e.value for e in at.exception]
    failed = i18n.translations(code or "en").gettext(guard.NOTICE)
    assert failed not in [e.value for e in at.error], (page, code)
    return at


def english_left(page: str, code: str, **state: object) -> tuple[AppTest, set[str]]:
    """The page in ``code`` after ``state``, and the English it shows in both languages."""
    english = english_pieces(visit(page, None, **state))  # type: ignore[arg-type]
    assert len(english) >= 3, english  # the probe sees the state's English at all
    at = visit(page, code, **state)  # type: ignore[arg-type]
    typed = [t.lower() for t in TYPED]
    return at, {e for e in english & english_pieces(at) if not any(e.lower() in t for t in typed)}


def says(at: AppTest, *texts: str) -> None:
    shown = shown_text(at).replace("\\", "")
    for text in texts:
        assert text in shown, text


def never(at: AppTest, *texts: str) -> None:
    shown = shown_text(at).replace("\\", "")
    for text in texts:
        assert text not in shown, text


# ---- Multi-head: the one-click fix, every head, the stages, the open expanders ----------
def _fix(at: AppTest) -> None:
    at.button(key="heads_fix").click().run()


def test_multi_head_after_the_fix_in_german() -> None:
    """The default example needs the fix (it then has one head): the split, the head, its
    Scaling note, Concat × W_O and the residual, and the toast that says what happened."""
    state = {"session": {keys.HEAD_STAGE: "Scaling", keys.HEAD_AFTER: True}, "then": _fix}
    at, left = english_left(MULTI_HEAD, "de", **state)
    assert left == set(), sorted(left)
    says(at, "Die Projektionen in Heads aufteilen", "Ein Head nimmt alle 3 Spalten",
         "Mit einem Head ist d_head = d_k = 3", "Die Residualansicht: X + Ausgabe",
         "Bereit für Heads")  # the toast  # fmt: skip
    never(at, "Split the projections into heads", "One head takes all", "Ready for heads")


def test_multi_head_two_heads_in_german() -> None:
    """The page's own example: two heads, a head's Output note, the example's text, the
    convention and the figures' titles and hover text."""
    # not the code's expander: code is never translated
    session = {keys.HEAD_STAGE: "Output", keys.HEAD_AFTER: True, "mh_example_box": True}
    at, left = english_left(MULTI_HEAD, "de", query=TWO_HEADS, session=session)
    assert left == set(), sorted(left)
    says(
        at,
        "2 Heads mit d_head = 2",
        "**Head 1 findet das vorige Wort.**",
        "Die Gewichte jedes Heads",
        "Concat × W_O = Ausgabe",
        "Die hier verwendete Konvention",
    )
    never(at, "2 heads of d_head", "Head 1 finds the previous word", "Every head's weights")


def test_multi_head_before_the_fix_names_what_is_missing_in_french() -> None:
    """Q, K and V typed directly: what the fix adds, in the learner's language."""
    query = {"s": PRESETS["paper_toy"].build().to_url()}
    at, left = english_left(MULTI_HEAD, "fr", query=query)
    assert left == set(), sorted(left)
    says(at, "D'abord, un clic prépare votre scénario pour les têtes", "Ce que ce clic change",
         "**Des plongements qui donnent vos Q, K et V.**")  # fmt: skip
    never(at, "First, one click gets your scenario ready", "Embeddings that give your Q")


def test_a_head_opened_in_the_walkthrough_says_so_in_chinese() -> None:
    """The notice on the walkthrough's page, and the new scenario's name, in Chinese."""
    at = visit(MULTI_HEAD, "zh", query=TWO_HEADS,
               then=lambda at: at.button(key="mh_open").click().run())  # fmt: skip
    says(at, "头 1 的 Q、K 和 V 现在是你的场景", "第 1 个头（共 2 个）")
    never(at, "Q, K and V are now your scenario", ": head 1 of 2")


# ---- Real model ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def model():
    return minilm.model()  # skips with the reason when absent


@pytest.mark.parametrize(
    ("view", "stage"),
    [("Strongest key per head", "Mask"), ("Two sentences side by side", "Q, K, V")],
)
def test_real_model_views_and_stages_in_german(model, view: str, stage: str) -> None:
    session = {keys.RM_TOKEN_TAB: view, keys.RM_STAGE: stage, keys.RM_TOKEN_TABLE: True}
    at, left = english_left(REAL_MODEL, "de", session=session)
    assert left == set(), sorted(left)
    if view.startswith("Two"):
        says(at, "Zweiter Satz", "Wie stark sich die Attention von „it“ ändert, pro Head",
             "Änderung")  # fmt: skip
        never(at, "How much the attention of")
    else:
        says(at, "[CLS] und [SEP] bei der Suche", "Allein verarbeitet hat ein Satz")
        never(at, "Run alone, a sentence has", "Ignore [CLS] and [SEP]")
    table = at.dataframe[0].value  # the token table, open: its headers and kinds
    assert list(table.columns) == ["Token", "aus dem Text", "Art"]
    assert table["Art"].iloc[0] == "Sonder-Token (vom Modell hinzugefügt)"


def test_real_model_bad_and_long_text_in_spanish(model) -> None:
    """The core's messages (an empty box, a cut text) reach the learner translated."""
    at = visit(
        REAL_MODEL, "es", then=lambda at: at.text_input(key=keys.RM_TEXT).set_value("").run()
    )
    says(at, "escribe una frase para que el modelo la lea. Las cabezas del modelo aparecen aquí")
    never(at, "type a sentence", "The model's heads appear here")
    at.text_input(key=keys.RM_TEXT).set_value("word " * 200 + "END").run()
    says(at, "tokens, pero el modelo lee como máximo 128: se cortó en el carácter")
    never(at, "This text makes", "were left out")


# ---- Decoder -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def decoder():
    return smollm2.decoder()  # skips with the reason when absent


@pytest.mark.parametrize(
    ("stage", "extra"),
    [("RoPE", {keys.DEC_SIDE_BY_SIDE: True, keys.DEC_GALLERY_TAB: "Layers 11–20"}),
     ("Shared K and V", {keys.DEC_TOKEN_TAB: "Strongest key per head"}),
     ("Mask", {}),
     ("KV cache", {keys.DEC_TEMP: 0.8, keys.DEC_TOP_K: 5}),
     ("Online softmax", {keys.DEC_TILE: 3})],
)  # fmt: skip
def test_decoder_stages_and_views_in_german(decoder, stage: str, extra: dict) -> None:
    at, left = english_left(DECODER, "de", session={keys.DEC_STAGE: stage, **extra})
    assert left == set(), sorted(left)
    if stage == "RoPE":
        says(at, "Dieselben zwei Vektoren, als stünde der Key", "Schichten 11–20",
             "Attention-Gewichte, Schichten 11–20", "Encoder (MiniLM)", "ohne RoPE")  # fmt: skip
        never(at, "The same two vectors", "layers 11–20", "without RoPE")
    elif stage == "Shared K and V":
        says(at, "9 Query-Heads, 3 Key/Value-Heads", "Dieselben Keys, drei verschiedene Queries")
        never(at, "query heads, 3 key/value heads", "three different queries")
    elif stage == "KV cache":
        says(at, "Beim Schreiben läuft das Modell", "Gleich wie die Neuberechnung",
             "Das nächste Token bei T = 0.8", "5 Tokens bleiben", "Behaltene Tokens")  # fmt: skip
        never(at, "one token at a time", "Equal to recomputing", "tokens are kept")
    elif stage == "Online softmax":
        says(at, "Schnelle Kernels (FlashAttention)", "die sie sehen darf, in", "**Speicher:**")
        never(at, "Fast kernels", "keys it may see", "**Memory:**")
    else:
        says(at, "Das ist die **kausale Maske** in einem echten Modell")
        never(at, "causal mask** in a real model")


def test_decoder_bad_and_long_prompts_in_chinese(decoder) -> None:
    at = visit(DECODER, "zh")
    at.text_input(key=keys.DEC_TEXT).set_value("").run()
    says(at, "请输入一个提示，让模型续写。有了文字之后")
    never(at, "type a prompt", "appear here once")
    at.text_input(key=keys.DEC_TEXT).set_value("<|im_start|><|im_end|>").run()
    says(at, "这个提示只有特殊词元")
    never(at, "only special tokens")
    at.text_input(key=keys.DEC_TEXT).set_value("one two three " * 30).run()
    says(at, "但实验室最多读 64 个")
    never(at, "but the lab reads at most")
