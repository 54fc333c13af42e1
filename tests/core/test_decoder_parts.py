"""The decoder's parts without the real model: RoPE, llama.cpp's row order, grouped queries,
the causal heads, and a whole (tiny) GGUF file read, converted, mapped and run.

The reference is tests/core/llama_reference.py (complex-number RoPE, repeat_kv, a Python
loop per softmax row), which shares no code with the core. A tiny random model makes every
check fast and needs no download, so the mutation check can run these tests.
"""

from __future__ import annotations

import numpy as np
import pytest
from llama_reference import Tiny, forward, llama_cpp_permute, rope_complex

from attention_core.decoder import DecoderConfig, apply_rope, load_decoder, rope_tables
from attention_core.decoder.convert import unpermute, write_cache
from attention_core.decoder.llama import DecoderWeights
from attention_core.decoder.llama import forward as core_forward
from attention_core.decoder.rope import rotate_half, score_by_distance
from tests.tolerance import assert_within, eps, row_sum_bound, scaled_to

TINY = Tiny()


def config_of(cfg: Tiny) -> DecoderConfig:
    return DecoderConfig(cfg.n_layers, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.d_head,
                         cfg.d_ff, cfg.vocab, cfg.theta, cfg.eps)  # fmt: skip


def core_weights(cfg: Tiny, t: dict[str, np.ndarray], dtype: type) -> DecoderWeights:
    return DecoderWeights.from_tensors(config_of(cfg), {k: v.astype(dtype) for k, v in t.items()})


# ---- RoPE ---------------------------------------------------------------------------------
def test_rope_turns_each_pair_as_the_complex_reference_does():
    """In float64 both sides round the angle p * w_i (w_i itself is a power, one more
    rounding: |error| <= 2 u p), its cos and sin (1 ulp each, numpy's accuracy) and the
    two products of a turned component: each entry of a turned vector is within
    (|x1| + |x2|) * eps64 * (p + 3) of exact, twice that between the two sides."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((12, 3, 16))  # (n, heads, d)
    cos, sin = rope_tables(12, 16, 10_000.0, np.float64)
    ours = apply_rope(X, cos, sin)
    ref = np.stack([[rope_complex(X[i, h], i, 10_000.0) for h in range(3)] for i in range(12)])
    pair = np.abs(X[..., :8]) + np.abs(X[..., 8:])  # (n, heads, d/2)
    p = np.arange(12)[:, None, None]
    bound = 2 * np.concatenate([pair, pair], axis=-1) * eps(np.float64) * (p + 3)
    assert_within(ours, ref, bound, "rope")


def test_rotate_half_is_a_quarter_turn_of_every_pair():
    x = np.arange(1.0, 9.0)  # pairs (1, 5), (2, 6), (3, 7), (4, 8)
    np.testing.assert_array_equal(rotate_half(x), [-5, -6, -7, -8, 1, 2, 3, 4])


def test_position_zero_is_not_turned():
    cos, sin = rope_tables(3, 8, 100_000.0)
    np.testing.assert_array_equal(cos[0], 1.0)
    np.testing.assert_array_equal(sin[0], 0.0)


def _turned_dot_error(q: np.ndarray, k: np.ndarray, m: int, n: int) -> float:
    """Bound on the error of (R_m q) . (R_n k) with float64 tables: each table entry is
    within delta_p = eps64 * (p + 3) of exact (as in the test above), a turned component
    (x1 cos - x2 sin) within (|x1| + |x2|) delta_p, so the dot product is within
    2 * sum over pairs of (|q1| + |q2|)(|k1| + |k2|)(delta_m + delta_n), plus its own
    d-term sum's rounding, gamma_d of the same magnitudes (4 d eps64 is more)."""
    h = q.shape[0] // 2
    pairs = float((np.abs(q[:h]) + np.abs(q[h:])) @ (np.abs(k[:h]) + np.abs(k[h:])))
    delta = eps(np.float64) * (m + 3), eps(np.float64) * (n + 3)
    return 2 * pairs * (delta[0] + delta[1]) + 4 * q.shape[0] * eps(np.float64) * pairs


def test_a_rotated_score_depends_only_on_the_distance():
    """q at m, k at n against q at m + 5, k at n + 5 (the same distance m - n), and against
    score_by_distance's closed form (float64 angles, so only the tables' error is left)."""
    rng = np.random.default_rng(2)
    q, k = rng.standard_normal(16), rng.standard_normal(16)
    cos, sin = rope_tables(40, 16, 10_000.0, np.float64)
    for m, n in ((7, 3), (20, 0), (9, 9)):
        a = apply_rope(q, cos[m], sin[m]) @ apply_rope(k, cos[n], sin[n])
        b = apply_rope(q, cos[m + 5], sin[m + 5]) @ apply_rope(k, cos[n + 5], sin[n + 5])
        err_a, err_b = _turned_dot_error(q, k, m, n), _turned_dot_error(q, k, m + 5, n + 5)
        assert abs(a - b) <= err_a + err_b
        closed = score_by_distance(q, k, np.array([m - n]), 10_000.0)[0] * 4.0  # * sqrt(16)
        assert abs(a - closed) <= 2 * err_a  # the closed form's own float64 error is tiny
    far = score_by_distance(q, k, np.array([0, 1, 2]), 10_000.0)
    assert far[0] == pytest.approx(float(q @ k) / 4.0, abs=_turned_dot_error(q, k, 0, 0))


# ---- llama.cpp's row order ------------------------------------------------------------------
@pytest.mark.parametrize("n_heads", [1, 3, 9])
def test_unpermute_undoes_llama_cpp_permute(n_heads: int):
    W = np.arange(n_heads * 8 * 5, dtype=np.float32).reshape(n_heads * 8, 5)
    stored = llama_cpp_permute(W, n_heads)
    assert not np.array_equal(stored, W)
    np.testing.assert_array_equal(unpermute(stored, n_heads), W)


# ---- the forward pass against the reference --------------------------------------------------
@pytest.fixture(scope="module")
def tiny_runs():
    t = TINY.weights()
    ids = [3, 17, 5, 5, 22, 9, 30, 1]
    ref32 = forward(t, TINY, ids, np.float32)
    ref64 = forward(t, TINY, ids, np.float64)
    ours = core_forward(core_weights(TINY, t, np.float64), ids)
    return ids, ref32, ref64, ours


def reference_bound(ref32: np.ndarray, ref64: np.ndarray) -> float:
    """The reference's own float32 rounding, four times, moved to float64 (tests/core/
    smollm2.py explains the 4); the core runs in float64 here."""
    noise = float(np.abs(ref32.astype(np.float64) - ref64).max())
    return scaled_to(4 * noise, np.float64)


def test_tiny_logits_and_weights_match_the_reference(tiny_runs):
    _, (lg32, w32), (lg64, w64), (logits, layers) = tiny_runs
    assert_within(logits, lg64, reference_bound(lg32, lg64), "logits")
    weights = np.stack([la.weights for la in layers])  # (layers, heads, n, n)
    assert_within(weights, w64, reference_bound(w32, w64), "weights")


def test_every_head_is_causal_and_sums_to_one(tiny_runs):
    ids, _, _, (_, layers) = tiny_runs
    n = len(ids)
    for la in layers:
        assert (np.triu(la.weights, 1) == 0.0).all()  # exactly 0 above the diagonal
        assert (np.abs(la.weights.sum(axis=-1) - 1.0) <= row_sum_bound(n)).all()
        assert (la.weights[:, 0, 0] == 1.0).all()  # the first token sees only itself


def test_query_heads_of_a_group_share_one_key_and_value_head(tiny_runs):
    _, _, _, (_, layers) = tiny_runs
    config = config_of(TINY)
    assert [config.kv_head(h) for h in range(4)] == [0, 0, 1, 1]
    assert list(config.query_heads(1)) == [2, 3]
    la = layers[0]
    a, b, c = la.trace(config, 2), la.trace(config, 3), la.trace(config, 0)
    np.testing.assert_array_equal(a.K, b.K)
    np.testing.assert_array_equal(a.V, b.V)
    assert not np.array_equal(a.K, c.K)
    np.testing.assert_array_equal(a.K, la.K[:, 1])
    np.testing.assert_array_equal(a.weights, la.weights[2])  # the trace is the forward's


def test_the_trace_holds_the_rotated_q_and_k(tiny_runs):
    ids, _, _, (_, layers) = tiny_runs
    la = layers[1]
    cos, sin = rope_tables(len(ids), TINY.d_head, TINY.theta, np.float64)
    np.testing.assert_array_equal(la.Q, apply_rope(la.Q_pre, cos, sin))
    trace = la.trace(config_of(TINY), 1)
    np.testing.assert_array_equal(trace.Q, la.Q[:, 1])
    assert trace.mask is not None and (trace.mask == np.tril(np.ones((8, 8), bool))).all()


# ---- a whole GGUF file: written as llama.cpp writes it, read, converted, mapped, run -----------
def write_tiny_gguf(path, cfg: Tiny, t: dict[str, np.ndarray]) -> None:
    """A GGUF file of the tiny model as llama.cpp's converter writes one: F32 tensors,
    W_q and W_k in llama.cpp's row order, a byte-level BPE tokenizer in the metadata."""
    import gguf

    from attention_core.decoder.tokenize import _bytes_to_unicode

    alphabet = list(_bytes_to_unicode().values())
    tokens = ["<|im_start|>", "<|im_end|>", *alphabet, "he", "Ġt"]
    assert len(tokens) == cfg.vocab
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_block_count(cfg.n_layers)
    w.add_embedding_length(cfg.d_model)
    w.add_feed_forward_length(cfg.d_ff)
    w.add_head_count(cfg.n_heads)
    w.add_head_count_kv(cfg.n_kv_heads)
    w.add_rope_dimension_count(cfg.d_head)
    w.add_rope_freq_base(cfg.theta)
    w.add_layer_norm_rms_eps(cfg.eps)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("smollm")
    w.add_token_list(tokens)
    w.add_token_merges(["h e", "Ġ t"])
    w.add_token_types([3, 3] + [1] * (len(tokens) - 2))
    w.add_eos_token_id(1)
    names = {"attn_norm": "attn_norm", "W_q": "attn_q", "W_k": "attn_k", "W_v": "attn_v",
             "W_o": "attn_output", "mlp_norm": "ffn_norm", "W_gate": "ffn_gate",
             "W_up": "ffn_up", "W_down": "ffn_down"}  # fmt: skip
    w.add_tensor("token_embd.weight", t["embed"].astype(np.float32))
    w.add_tensor("output_norm.weight", t["final_norm"].astype(np.float32))
    for i in range(cfg.n_layers):
        for ours, theirs in names.items():
            a = t[f"{i}.{ours}"].astype(np.float32)
            if ours in ("W_q", "W_k"):
                a = llama_cpp_permute(a, cfg.n_heads if ours == "W_q" else cfg.n_kv_heads)
            w.add_tensor(f"blk.{i}.{theirs}.weight", a)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


@pytest.fixture(scope="module")
def tiny_gguf(tmp_path_factory):
    cfg = Tiny(vocab=260)
    t = {k: v.astype(np.float32) for k, v in cfg.weights(seed=5).items()}
    folder = tmp_path_factory.mktemp("tiny")
    write_tiny_gguf(folder / "tiny.gguf", cfg, t)
    write_cache(folder / "tiny.gguf", folder / "cache")
    return cfg, t, load_decoder(folder / "cache")


def test_the_converted_file_holds_hugging_faces_weights(tiny_gguf):
    cfg, t, decoder = tiny_gguf
    eps32 = float(np.float32(cfg.eps))  # GGUF keeps the epsilon as a float32
    assert decoder.config == config_of(Tiny(vocab=260, eps=eps32))
    lw = decoder.weights.layers[1]
    np.testing.assert_array_equal(lw.W_q, t["1.W_q"])  # the row order undone, exactly
    np.testing.assert_array_equal(lw.W_k, t["1.W_k"])
    np.testing.assert_array_equal(lw.W_up, t["1.W_up"])
    np.testing.assert_array_equal(decoder.weights.embed, t["embed"])
    assert not lw.Wt_qkv.flags.writeable  # a read-only view of the mapped file
    assert isinstance(lw.Wt_qkv.base, np.ndarray) or lw.Wt_qkv.base is not None


def test_the_converted_model_runs_like_the_reference(tiny_gguf):
    cfg, t, decoder = tiny_gguf
    ids = decoder.tokenize("the heat").ids.tolist()
    ref32, w32 = forward(t, cfg, ids, np.float32)
    ref64, w64 = forward(t, cfg, ids, np.float64)
    logits = decoder.logits(ids)  # float32 throughout, as the app runs
    # both in float32: four times the reference's own float32 rounding (tests/core/smollm2.py)
    assert_within(logits, ref64, 4 * float(np.abs(ref32 - ref64).max()), "logits")
    run = decoder.run("the heat")
    assert_within(run.weights, w64, 4 * float(np.abs(w32 - w64).max()), "weights")


def test_the_rebuilt_tokenizer_splits_digits_and_knows_the_control_tokens(tiny_gguf):
    _, _, decoder = tiny_gguf
    enc = decoder.tokenizer.encode("<|im_start|>the 42")
    assert enc.tokens == ["<|im_start|>", "t", "he", "Ġ", "4", "2"]
    prompt = decoder.tokenize("<|im_start|>the 42")
    assert prompt.special == (True, False, False, False, False, False)
    assert prompt.tokens == ("<|im_start|>", "t", "he", " ", "4", "2")
