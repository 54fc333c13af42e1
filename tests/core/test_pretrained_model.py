"""The real model's runs: traces, masks, tokens a page explains, bad input, missing files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from minilm import LESSON, model, network_tol

from attention_core import InputError, Scenario, attention
from attention_core.pretrained import (
    REQUIRED_FILES,
    ModelMissing,
    head_scenario,
    load_model,
    top_targets,
)
from tests.tolerance import assert_within, matmul_bound

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lesson():
    return model().encode(LESSON)


# ---- traces ------------------------------------------------------------------------------
def test_each_head_trace_is_attention_on_that_heads_q_k_v(lesson):
    """Q, K, V rebuilt from the layer input and the weights; attention() on them again.

    The rebuild is another float32 product over the 384 columns, summed in whatever order
    this machine's BLAS kernel picks: its bound is matmul_bound's worst case for a 385-term
    sum (about 4.6e-5 of sum |x_i w_i|), not a number one machine printed.
    """
    w = model().weights
    for layer, lw in enumerate(w.layers):
        X = lesson.hidden_states[layer]  # the layer's input, (n, 384)
        pairs = {"Q": (lw.W_q, lw.b_q), "K": (lw.W_k, lw.b_k), "V": (lw.W_v, lw.b_v)}
        rebuilt = {name: (X @ W.T + b, matmul_bound(X, W.T, b)) for name, (W, b) in pairs.items()}
        for head, trace in enumerate(lesson.heads[layer]):
            cols = slice(32 * head, 32 * head + 32)
            for name, (M, bound) in rebuilt.items():
                assert_within(getattr(trace, name), M[:, cols], bound[:, cols], f"{name} {layer}")
            again = attention(trace.Q, trace.K, trace.V)  # the same function on the same arrays
            np.testing.assert_array_equal(again.weights, trace.weights)
            np.testing.assert_array_equal(again.output, trace.output)
            assert trace.d_k == 32
            assert trace.mask is None


def test_rows_sum_to_one_and_weights_stack_the_traces(lesson):
    assert lesson.weights.shape == (6, 12, 15, 15)
    np.testing.assert_allclose(lesson.weights.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(lesson.weights[3, 1], lesson.heads[3][1].weights)


def test_padded_keys_get_zero_weight_and_real_tokens_are_unchanged():
    long, short = model().encode_batch([LESSON, "It was too wide."])
    assert len(short.tokens) == len(long.tokens) == 15
    assert short.n_valid == 7
    assert short.tokens[7:] == ("[PAD]",) * 8
    assert long.heads[0][0].mask is None  # the longest text needs no padding
    for layer in short.heads:
        for trace in layer:
            assert trace.mask is not None and trace.mask.shape == (15, 15)
            assert not trace.mask[:, 7:].any() and trace.mask[:, :7].all()
            assert (trace.weights[:, 7:] == 0.0).all()  # exactly 0, not just small
            np.testing.assert_allclose(trace.weights.sum(axis=-1), 1.0, atol=1e-12)
    # Padded or alone, the real tokens get the same numbers up to the order BLAS sums in
    # (a batch of 15 rows may be blocked differently from one of 7): compared in float64,
    # within the network's own rounding (minilm.network_tol).
    m64 = model("float64")
    (_, short64), alone = (
        m64.encode_batch([LESSON, "It was too wide."]),
        m64.encode("It was too wide."),
    )
    assert_within(
        short64.weights[:, :, :7, :7], alone.weights, network_tol("full_weights", "float64")
    )
    assert_within(
        short64.hidden_states[:, :7], alone.hidden_states, network_tol("hidden", "float64")
    )


def test_float64_model_runs_in_float64():
    run = model("float64").encode("It was too wide.")
    assert run.hidden_states.dtype == np.float64
    f32 = model().encode("It was too wide.")
    assert f32.hidden_states.dtype == np.float32
    # float64 is exact by comparison: the difference is float32's own rounding
    assert_within(f32.weights, run.weights, network_tol("full_weights"), "float32 against float64")


# ---- tokens as a page explains them -----------------------------------------------------
def test_lesson_tokens_and_words(lesson):
    assert lesson.tokens == ("[CLS]", "the", "animal", "didn", "'", "t", "cross", "the",
                             "street", "because", "it", "was", "too", "tired", "[SEP]")  # fmt: skip
    assert lesson.special == (True,) + (False,) * 13 + (True,)
    assert [lesson.word_text(i) for i in (3, 4, 5)] == ["didn't"] * 3
    assert lesson.words[3] == lesson.words[4] == lesson.words[5] == 2
    assert lesson.words[0] is None and lesson.words[-1] is None
    assert lesson.offsets[2] == (4, 10)  # "animal"
    assert lesson.truncated is None
    assert not any(lesson.unknown)
    assert lesson.find("it") == 10
    assert lesson.labels[1] == "the (1)" and lesson.labels[7] == "the (2)"
    assert lesson.find("the", start=2) == 7


def test_subword_pieces_share_their_word():
    run = model().encode("Tokenization works")
    assert run.tokens[1:3] == ("token", "##ization")
    assert run.word_text(1) == run.word_text(2) == "Tokenization"
    assert run.word_text(3) == "works"


def test_text_over_128_tokens_is_cut_and_says_where():
    text = "word " * 200  # "word" is one token: 200 + [CLS] + [SEP] = 202
    run = model().encode(text)
    assert len(run.tokens) == 128 and run.tokens[-1] == "[SEP]"
    cut = run.truncated
    assert cut is not None
    assert (cut.n_tokens, cut.n_kept, cut.n_dropped) == (202, 128, 74)
    assert cut.cut_char == 126 * 5  # the 127th "word " starts at character 630 (0-based)
    assert "202 tokens" in cut.message and "128" in cut.message
    assert "character 631" in cut.message  # 1-based for people
    assert "74 tokens" in cut.message
    assert run.weights.shape[-1] == 128


def test_emoji_becomes_unk_and_is_flagged():
    run = model().encode("I love pizza \U0001f355 so much")
    i = run.tokens.index("[UNK]")
    assert run.unknown[i] and sum(run.unknown) == 1
    assert run.unknown_text == ("\U0001f355",)
    assert run.word_text(i) == "\U0001f355"


def test_rtl_text_runs_and_maps_back_to_its_words():
    text = "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd"  # Hebrew: "hello world"
    run = model().encode(text)
    assert run.n_valid > 2
    assert {run.word_text(i) for i in range(1, run.n_valid - 1)} == {
        "\u05e9\u05dc\u05d5\u05dd",
        "\u05e2\u05d5\u05dc\u05dd",
    }
    for i in range(1, run.n_valid - 1):
        a, b = run.offsets[i]
        assert run.tokens[i].removeprefix("##") == text[a:b]
    np.testing.assert_allclose(run.weights.sum(axis=-1), 1.0, atol=1e-12)


def test_html_and_markdown_pass_through_as_plain_token_text():
    run = model().encode("<b>bold</b> <script>alert(1)</script> **md**")
    assert run.tokens[1:4] == ("<", "b", ">")
    assert "script" in run.tokens and "*" in run.tokens
    scenario = head_scenario(run, 0, 0)
    assert scenario.tokens == run.tokens


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "\x00\x01"])
def test_empty_text_is_an_input_error(text):
    with pytest.raises(InputError) as err:
        model().encode(text)
    assert err.value.where == "text"


def test_top_targets_are_each_heads_argmax(lesson):
    it = lesson.find("it")
    focus = top_targets(lesson, it)
    for layer in range(6):
        for head in range(12):
            row = lesson.heads[layer][head].weights[it]
            assert focus.target[layer, head] == int(np.argmax(row))
            assert focus.weight[layer, head] == row.max()
    words = top_targets(lesson, it, skip_special=True)
    assert not any(lesson.special[j] for j in words.target.ravel())


# ---- a head in the walkthrough -----------------------------------------------------------
def test_head_scenario_is_a_valid_direct_scenario_with_the_heads_numbers(lesson):
    s = head_scenario(lesson, 3, 1)
    assert s.mode == "direct" and s.mask_kind == "none"
    assert s.tokens == lesson.tokens
    assert s.Q.shape == (15, 32)
    np.testing.assert_array_equal(s.trace().weights, lesson.heads[3][1].weights)
    assert "layer 4, head 2" in s.name
    again = Scenario.from_url(s.to_url())
    np.testing.assert_array_equal(again.trace().weights, lesson.heads[3][1].weights)
    assert len(s.to_url()) < 100_000  # fits the share link


def test_head_scenario_of_a_padded_run_keeps_the_padding_mask():
    _, short = model().encode_batch([LESSON, "It was too wide."])
    s = head_scenario(short, 2, 5)
    assert (s.mask_kind, s.n_valid) == ("padding", 7)
    np.testing.assert_array_equal(s.trace().weights, short.heads[2][5].weights)


def test_head_scenario_refuses_runs_longer_than_the_walkthrough():
    run = model().encode("word " * 70)
    with pytest.raises(InputError, match="at most 64"):
        head_scenario(run, 0, 0)
    with pytest.raises(InputError, match="no layer 7"):
        head_scenario(model().encode("hi"), 6, 0)


# ---- missing or broken files --------------------------------------------------------------
def test_missing_files_name_themselves_and_the_fetch_command(tmp_path):
    with pytest.raises(ModelMissing) as err:
        load_model(tmp_path)
    message = err.value.message
    for name in REQUIRED_FILES:
        assert name in message
    assert "make model" in message and err.value.command == "make model"
    assert err.value.missing == REQUIRED_FILES
    assert isinstance(err.value, InputError)


def test_only_the_missing_files_are_named(tmp_path):
    src = model().path
    shutil.copy(src / "config.json", tmp_path / "config.json")
    with pytest.raises(ModelMissing) as err:
        load_model(tmp_path)
    assert err.value.missing == ("tokenizer.json", "model.safetensors")
    assert "config.json" not in err.value.message.split("missing from")[0]


def test_a_cut_short_weights_file_says_to_fetch_again(tmp_path):
    src = model().path
    for name in ("config.json", "tokenizer.json"):
        shutil.copy(src / name, tmp_path / name)
    (tmp_path / "model.safetensors").write_bytes((src / "model.safetensors").read_bytes()[:5000])
    with pytest.raises(ModelMissing, match="make model") as err:
        load_model(tmp_path)
    assert err.value.missing == ("model.safetensors",)


def test_core_imports_without_safetensors_and_tokenizers(tmp_path):
    """Blocked imports: the core still loads, and load_model names the missing package."""
    code = (
        "import sys; sys.modules['safetensors'] = None; sys.modules['tokenizers'] = None\n"
        "import attention_core, attention_core.pretrained as p\n"
        "try:\n    p.load_model()\nexcept p.ModelMissing as e:\n    print(e.missing[0])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() in {"tokenizers", "config.json"}  # config.json: no model here


def test_importing_the_core_loads_no_model_readers():
    code = (
        "import attention_core.pretrained, sys\n"
        "print('safetensors' in sys.modules, 'tokenizers' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.split() == ["False", "False"]
