"""The NumPy model against transformers' BertModel (eager attention), without torch.

Expected numbers: tests/core/data/minilm_golden.json, written by dev/make_golden.py in its
own venv (torch 2.13.0, transformers 5.24.0). Each bound is ``minilm.network_tol``: four
times the reference's own float32 rounding of that field (its float32 run against its
float64 run), scaled by eps64 / eps32 for float64. Measured under OpenBLAS's Prescott,
Sandybridge, Haswell and Zen kernels (bench/RESULTS.md, "Tolerances"): attention weights
within 1.2e-6 of a 3.5e-6 bound (float32), hidden states within 1.9e-6 of 4.8e-6.
"""

from __future__ import annotations

import numpy as np
import pytest
from minilm import decode, golden, model, network_tol

from tests.tolerance import assert_within

# The fidelity the project promises (README): weights within 1e-5 in float32, 1e-12 in
# float64. The derived bounds must sit inside it, or the reference itself is too noisy.
PROMISED = {"float32": 1e-5, "float64": 1e-12}


def _runs(case: dict, dtype: str) -> list:
    return model(dtype).encode_batch(case["texts"])


def _cases() -> list[tuple[str, str]]:
    return [(name, dtype) for name in golden()["cases"] for dtype in ("float32", "float64")]


@pytest.fixture(scope="module", params=_cases(), ids=lambda p: f"{p[0]}-{p[1]}")
def case_runs(request: pytest.FixtureRequest) -> tuple[dict, str, list]:
    name, dtype = request.param
    case = {**golden()["cases"][name], "name": name}
    return case, dtype, _runs(case, dtype)


def test_golden_was_made_by_the_pinned_reference():
    versions = golden()["versions"]
    assert versions["torch"].startswith("2.13.0")
    assert versions["transformers"] == "5.24.0"


def test_derived_bounds_are_inside_the_promised_fidelity():
    for dtype, promised in PROMISED.items():
        assert network_tol("full_weights", dtype) <= promised


def test_same_token_ids_as_the_reference_tokenizer(case_runs):
    case, _, runs = case_runs
    assert [r.ids.tolist() for r in runs] == case["input_ids"]
    assert [list(r.tokens[: r.n_valid]) for r in runs] == case["tokens"]


def test_attention_weights_match(case_runs):
    case, dtype, runs = case_runs
    for run, seq in zip(runs, case[dtype], strict=True):
        expected = decode(seq["full_weights"])  # (heads, rows, n)
        ours = np.stack([run.weights[layer, head][seq["full_rows"]] for layer, head in
                         seq["full_heads"]])  # fmt: skip
        assert_within(ours, expected, network_tol("full_weights", dtype), "weights")


def test_every_head_matches_through_its_mean_key_position(case_runs):
    """sum_j j * weights[i, j] for every head and row: all 72 heads, every row checked."""
    case, dtype, runs = case_runs
    for run, seq in zip(runs, case[dtype], strict=True):
        n = run.weights.shape[-1]
        ours = run.weights @ np.arange(n)  # (layers, heads, n)
        tol = network_tol("mean_key_position", dtype, case["name"])  # grows with n
        assert_within(ours, decode(seq["mean_key_position"]), tol, "mean key position")


def test_hidden_states_match(case_runs):
    case, dtype, runs = case_runs
    for run, seq in zip(runs, case[dtype], strict=True):
        assert run.hidden_states.shape == (7, len(run.tokens), 384)
        ours = run.hidden_states[:, seq["hidden_rows"], :32]
        assert_within(ours, decode(seq["hidden"]), network_tol("hidden", dtype), "hidden")
        norms = np.linalg.norm(run.hidden_states[:, : seq["n_valid"]].astype(np.float64), axis=-1)
        tol = network_tol("hidden_norms", dtype, case["name"])
        assert_within(norms, decode(seq["hidden_norms"]), tol, "hidden norms")


def test_single_text_equals_its_batch_of_one():
    case = golden()["cases"]["lesson"]
    m = model("float64")
    (batched,) = m.encode_batch(case["texts"])
    single = m.encode(case["texts"][0])
    np.testing.assert_array_equal(single.weights, batched.weights)


def test_the_128_token_text_was_cut_like_the_reference():
    case = golden()["cases"]["long_128"]
    run = model().encode(case["texts"][0])
    assert len(run.tokens) == 128
    assert run.truncated is not None
    assert run.truncated.n_kept == 128
    assert run.tokens[-1] == "[SEP]"
