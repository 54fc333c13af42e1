"""Build tests/core/data/smollm2_golden.json from the reference: transformers' Llama.

Dev only: torch never enters the project's venv or its runtime. Run it with any Python 3.11:

    python3 dev/make_decoder_golden.py   # creates /tmp/attention-lab-decoder-golden, reruns in it

The throwaway venv gets exactly the pins below (torch 2.13.0 is a CPU build this machine
keeps on local disk; an unpinned ``torch`` would download a CUDA build of several GB).
transformers reads the same GGUF file the app converts (``gguf_file=``: it dequantises
with the ``gguf`` package and undoes llama.cpp's Q/K row order itself), and runs it with
eager attention in float32 and, for the tolerances, in float64 (``model.double()``).
Its tokenizer is transformers' own GGUF tokenizer, independent of ours.

The JSON is kept small (``--max-kb``): arrays are base64 of little-endian bytes, and only
what the tests compare is kept (dev/README.md lists it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from golden_common import b64, write
from golden_common import main as golden_main

ROOT = Path(__file__).resolve().parents[1]
VENV = Path("/tmp/attention-lab-decoder-golden")
PINS = ("torch==2.13.0", "transformers==5.24.0", "accelerate==1.15.0", "gguf==0.19.0")
GGUF_DIR = ROOT / ".model" / "smollm2-gguf"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
OUT = ROOT / "tests" / "core" / "data" / "smollm2_golden.json"

PARIS = "The capital of France is"
WINOGRAD = "The trophy did not fit in the suitcase because it was too"
# The loss text: plain English prose, cut by the app's own 64-token limit (the reference
# is given exactly the 64 ids its own tokenizer makes of the first 64 tokens).
LOSS_TEXT = (
    "The history of the city goes back more than two thousand years. It began as a small "
    "settlement on an island in the river, where fishermen and traders built their houses. "
    "Over the centuries it grew into a large town with walls, churches and markets, and "
    "later it became the capital of the kingdom and one of the largest cities in Europe."
)
TOKENIZER_ONLY = (
    "In 2024, 12345 people paid $3.50 each.",
    "  spaces   and\ttabs\nnew lines",
    "naïve café, Zürich and 東京 😀",
    "<|im_start|>user\nWhat is attention?<|im_end|>",
    "don't can't won't it's",
)
MAX_TOKENS = 64
FULL_HEADS = ((0, 0), (3, 1), (14, 4), (29, 8))  # (layer, head): whole weight matrices kept
LONG_ROWS = (0, 1, 31, 62, 63)  # rows kept of the 64-token case's full heads
TOP_IDS = 16  # logits kept per position: the reference's own top ids ...
SAMPLED_IDS = 48  # ... and a fixed sample of the vocabulary (the same for every case)


def case_record(att: Any, logits: Any, ids: list[int], dtype: str, vocab_ids: Any) -> dict:
    """What the tests compare for one sequence in one dtype.

    att (L, H, n, n), logits (n, vocab), both numpy in ``dtype``.
    """
    import numpy as np

    n = att.shape[-1]
    rows = list(LONG_ROWS) if n > 32 else list(range(n))
    logp = logits.astype(np.float64) - logits.astype(np.float64).max(-1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(-1, keepdims=True))
    top2 = np.sort(logits, axis=-1)[:, -2:]  # (n, 2)
    return {
        "mean_key_position": b64(att @ np.arange(n), dtype),  # (L, H, n): every head
        "full_heads": [list(h) for h in FULL_HEADS],
        "full_rows": rows,
        "full_weights": b64(np.stack([att[lay, head][rows] for lay, head in FULL_HEADS]), dtype),
        "logit_ids": b64(vocab_ids, "int64"),  # (n, k): which logits are kept per position
        "logits": b64(np.take_along_axis(logits, vocab_ids, axis=-1), dtype),  # (n, k)
        "top1": logits.argmax(-1).tolist(),
        "top1_gap": b64(top2[:, 1] - top2[:, 0], "float64"),  # (n,): how clear each top-1 is
        "mean_loss": float(-logp[np.arange(n - 1), np.asarray(ids[1:])].mean()) if n > 1 else None,
    }


def run_inside(out_path: Path) -> None:
    import numpy as np
    import tokenizers
    import torch
    import transformers
    from transformers import AutoModelForCausalLM, AutoTokenizer

    os.environ["HF_HUB_OFFLINE"] = "1"
    torch.set_num_threads(2)
    tok = AutoTokenizer.from_pretrained(str(GGUF_DIR), gguf_file=GGUF_NAME)
    load = {"gguf_file": GGUF_NAME, "attn_implementation": "eager", "dtype": torch.float32}
    model32 = AutoModelForCausalLM.from_pretrained(str(GGUF_DIR), **load).eval()
    model64 = AutoModelForCausalLM.from_pretrained(str(GGUF_DIR), **load).eval().double()
    rng = np.random.default_rng(23)
    sampled = np.sort(rng.choice(model32.config.vocab_size, SAMPLED_IDS, replace=False))
    golden: dict[str, Any] = {
        "about": "dev/make_decoder_golden.py: transformers LlamaForCausalLM (eager attention) "
        f"on {GGUF_NAME} (gguf_file=); arrays are base64 little-endian",
        "versions": {
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "tokenizers": tokenizers.__version__,
            "numpy": np.__version__,
        },
        "tokenizer": [{"text": t, "ids": tok(t)["input_ids"]} for t in TOKENIZER_ONLY],
        "cases": {},
    }
    cases = {"paris": PARIS, "winograd": WINOGRAD, "loss_64": LOSS_TEXT}
    for name, text in cases.items():
        ids = tok(text)["input_ids"][:MAX_TOKENS]
        record: dict[str, Any] = {"text": text, "ids": ids}
        golden["tokenizer"].append({"text": text, "ids": tok(text)["input_ids"]})
        vocab_ids = None
        for dtype, model in (("float32", model32), ("float64", model64)):
            with torch.no_grad():
                out = model(input_ids=torch.tensor([ids]), output_attentions=True)
            att = torch.stack(out.attentions)[:, 0].numpy()  # (L, H, n, n)
            logits = out.logits[0].numpy()  # (n, vocab)
            if vocab_ids is None:  # the float32 reference's own top ids, then the sample
                top = np.argsort(-logits, axis=-1)[:, :TOP_IDS]
                vocab_ids = np.concatenate([top, np.broadcast_to(sampled, (len(ids), SAMPLED_IDS))],
                                           axis=1)  # fmt: skip
            record[dtype] = case_record(att, logits, ids, dtype, vocab_ids)
        golden["cases"][name] = record
        print(name, len(ids), "tokens; top-1 after the prompt:",
              repr(tok.decode([record["float32"]["top1"][-1]])))  # fmt: skip
    write(golden, out_path)


def main() -> int:
    return golden_main(
        __doc__,
        __file__,
        GGUF_DIR / GGUF_NAME,
        "the GGUF file is missing: run `make model` first",
        OUT,
        VENV,
        PINS,
        run_inside,
    )


if __name__ == "__main__":
    raise SystemExit(main())
