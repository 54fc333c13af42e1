"""The NumPy decoder against transformers' LlamaForCausalLM (eager attention), without torch.

Expected numbers: tests/core/data/smollm2_golden.json, written by dev/make_decoder_golden.py
in its own venv (torch 2.13.0, transformers 5.24.0) from the same GGUF file. Each bound is
``smollm2.network_tol``: four times the reference's own float32 rounding of that field
(its float32 run against its float64 run). The issue's targets (attention weights within
1e-5, logits within 1e-3) must hold for the derived bounds too, or the reference itself is
too noisy to check them.
"""

from __future__ import annotations

import numpy as np
import pytest
from smollm2 import decode, decoder, golden, network_tol

from tests.tolerance import assert_within

PROMISED = {"full_weights": 1e-5, "logits": 1e-3}  # the fidelity targets
LOSS_WITHIN = 0.05  # the issue: the mean loss within 5 % of the reference's


@pytest.fixture(scope="module", params=list(golden()["cases"]))
def case(request: pytest.FixtureRequest) -> tuple[str, dict, object, np.ndarray]:
    c = golden()["cases"][request.param]
    d = decoder()
    run = d.run(c["text"])
    return request.param, c, run, d.logits(run.ids)


def test_golden_was_made_by_the_pinned_reference():
    versions = golden()["versions"]
    assert versions["torch"].startswith("2.13.0")
    assert versions["transformers"] == "5.24.0"


def test_derived_bounds_are_inside_the_promised_fidelity():
    for field, promised in PROMISED.items():
        assert network_tol(field) <= promised, field


def test_same_token_ids_as_the_reference_tokenizer():
    """transformers' own GGUF tokenizer and ours (rebuilt from the same metadata)."""
    tokenizer = decoder().tokenizer
    for entry in golden()["tokenizer"]:
        assert tokenizer.encode(entry["text"]).ids == entry["ids"], entry["text"]


def test_the_prompt_is_read_as_the_reference_read_it(case):
    _, c, run, _ = case
    assert run.ids.tolist() == c["ids"]


def test_attention_weights_match(case):
    _, c, run, _ = case
    ref = c["float32"]
    ours = np.stack([run.weights[layer, head][ref["full_rows"]]
                     for layer, head in ref["full_heads"]])  # fmt: skip
    assert_within(ours, decode(ref["full_weights"]), network_tol("full_weights"), "weights")


def test_every_head_matches_through_its_mean_key_position(case):
    """sum_j j * weights[i, j] for all 270 heads and every row (grows with n: per case)."""
    name, c, run, _ = case
    ours = run.weights @ np.arange(run.n)  # (layers, heads, n)
    tol = network_tol("mean_key_position", name)
    assert_within(ours, decode(c["float32"]["mean_key_position"]), tol, "mean key position")


def test_logits_match(case):
    _, c, _, logits = case
    ref = c["float32"]
    ours = np.take_along_axis(logits, decode(ref["logit_ids"]), axis=-1)  # (n, kept)
    assert_within(ours, decode(ref["logits"]), network_tol("logits"), "logits")


def test_same_top_token_at_every_position(case):
    """A top-1 is only decided by the numbers when its gap to the runner-up is more than
    the two sides' logit bounds: every position of the golden cases is such a one."""
    _, c, _, logits = case
    ref = c["float32"]
    assert (decode(ref["top1_gap"]) > 2 * network_tol("logits")).all()
    assert logits.argmax(axis=-1).tolist() == ref["top1"]


def test_mean_loss_matches_the_reference():
    c = golden()["cases"]["loss_64"]
    prompt = decoder().tokenize(c["text"])
    assert prompt.n == 64 and prompt.cut is not None  # the app's own cap made the 64
    loss, reference = decoder().loss(c["text"]), c["float32"]["mean_loss"]
    assert abs(loss - reference) <= LOSS_WITHIN * reference
    # and far closer: a mean of 63 log-probabilities, each within the logits' bound of two
    # logits (its own and the log-sum-exp's, which moves by at most the largest change)
    assert abs(loss - reference) <= 2 * network_tol("logits")
