"""Build tests/core/data/minilm_golden.json from the reference: transformers' BertModel.

Dev only: torch never enters the project's venv or its runtime. Run it with any Python 3.11:

    python3 dev/make_golden.py            # creates /tmp/attention-lab-golden (once), reruns in it

The throwaway venv gets exactly ``torch==2.13.0`` (a CPU build this machine keeps on local
disk; an unpinned ``torch`` would download a CUDA build of several GB) and
``transformers==5.24.0``. The model is read from .model/all-MiniLM-L6-v2 (``make model``).

The JSON is kept small (see ``--max-kb``): arrays are stored as base64 of little-endian
float32/float64 bytes, and only what the tests compare is kept (dev/README.md lists it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from golden_common import b64, write
from golden_common import main as golden_main

ROOT = Path(__file__).resolve().parents[1]
VENV = Path("/tmp/attention-lab-golden")
PINS = ("torch==2.13.0", "transformers==5.24.0")
MODEL = ROOT / ".model" / "all-MiniLM-L6-v2"
OUT = ROOT / "tests" / "core" / "data" / "minilm_golden.json"

LESSON = "The animal didn't cross the street because it was too tired"
SUBWORDS = "Tokenization of unaffordable housing didn't surprise anyone in Llanfairpwllgwyngyll"
BATCH = (LESSON, "It was too wide.")
LONG = " ".join(
    [
        "Attention lets every token look at every other token and decide how much of each",
        "one to mix into its own representation. A query is compared with every key by a dot",
        "product, the scores are divided by the square root of the key length, a softmax turns",
        "each row into weights that sum to one, and the output is the weighted sum of the",
        "values. Because the whole computation is a few matrix products, it runs in parallel",
        "over the sequence, which is why transformers replaced recurrent networks for most",
        "language tasks. In a trained model, some heads attend to the previous token, some to",
        "the next one, some park their attention on the separator, and a few link pronouns",
        "such as it to the nouns they stand for, like the animal that was too tired to cross.",
    ]
)
FULL_HEADS = ((0, 0), (2, 5), (3, 1), (5, 11))  # (layer, head): full weight matrices kept
ALL_HEADS = tuple((layer, head) for layer in range(6) for head in range(12))
LONG_ROWS = (0, 1, 63, 126, 127)  # 128 x 128 matrices are too big to keep whole
HIDDEN_DIMS = 32  # first dims of selected hidden-state rows


def full_heads(name: str, dtype: str) -> tuple[tuple[int, int], ...]:
    """Which heads keep whole weight matrices: all 72 for the lesson in float32 (86 KB)."""
    return ALL_HEADS if (name, dtype) == ("lesson", "float32") else FULL_HEADS


def case_record(
    name: str, texts: tuple[str, ...], ids: Any, mask: Any, out: Any, dtype: str
) -> dict[str, Any]:
    import numpy as np

    att = np.stack([a.detach().numpy() for a in out.attentions], axis=1)  # (B, L, H, n, n)
    hid = np.stack([h.detach().numpy() for h in out.hidden_states], axis=1)  # (B, L+1, n, d)
    seqs = []
    full = full_heads(name, dtype)
    n = att.shape[-1]
    rows_kept = list(LONG_ROWS) if n > 64 else list(range(n))
    positions = np.arange(n)
    for b in range(att.shape[0]):
        n_valid = int(mask[b].sum())
        rows = sorted({0, n_valid // 2, n_valid - 1})
        seqs.append(
            {
                "n_valid": n_valid,
                # every head: the expected key position of each query row (sensitive to all
                # weights of the row), (L, H, n)
                "mean_key_position": b64(att[b] @ positions, dtype),
                "full_heads": [list(h) for h in full],
                "full_rows": rows_kept,  # (heads, rows, n): the rows kept of those heads
                "full_weights": b64(
                    np.stack([att[b, layer, head][rows_kept] for layer, head in full]), dtype
                ),
                "hidden_rows": rows,
                "hidden": b64(hid[b][:, rows, :HIDDEN_DIMS], dtype),  # (L+1, rows, dims)
                "hidden_norms": b64(np.linalg.norm(hid[b][:, :n_valid], axis=-1), dtype),
            }
        )
    return {"name": name, "texts": list(texts), "input_ids": ids.tolist(), "seqs": seqs}


def run_inside(out_path: Path) -> None:
    import numpy as np
    import tokenizers
    import torch
    import transformers
    from transformers import BertModel

    os.environ["HF_HUB_OFFLINE"] = "1"
    tok = tokenizers.Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    tok.no_padding()  # truncation stays as the file sets it (128): the reference cut
    pad_id = tok.token_to_id("[PAD]")
    cases = {
        "lesson": (LESSON,),
        "subwords": (SUBWORDS,),
        "padded_batch": BATCH,
        "long_128": (LONG,),
    }
    model32 = BertModel.from_pretrained(
        str(MODEL), attn_implementation="eager", add_pooling_layer=False
    ).eval()
    model64 = BertModel.from_pretrained(
        str(MODEL), attn_implementation="eager", add_pooling_layer=False
    ).eval().double()  # fmt: skip
    golden: dict[str, Any] = {
        "about": "dev/make_golden.py: transformers BertModel (eager attention) on "
        "all-MiniLM-L6-v2; arrays are base64 little-endian",
        "versions": {
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "tokenizers": tokenizers.__version__,
            "numpy": np.__version__,
        },
        "cases": {},
    }
    for name, texts in cases.items():
        encs = [tok.encode(t) for t in texts]
        n = max(len(e.ids) for e in encs)
        ids = np.array([e.ids + [pad_id] * (n - len(e.ids)) for e in encs])
        mask = np.array([[1] * len(e.ids) + [0] * (n - len(e.ids)) for e in encs])
        golden["cases"][name] = {"texts": list(texts), "tokens": [e.tokens for e in encs]}
        for dtype, model in (("float32", model32), ("float64", model64)):
            with torch.no_grad():
                out = model(
                    input_ids=torch.tensor(ids),
                    attention_mask=torch.tensor(mask),
                    token_type_ids=torch.zeros_like(torch.tensor(ids)),
                    output_attentions=True,
                    output_hidden_states=True,
                )
            rec = case_record(name, texts, ids, mask, out, dtype)
            golden["cases"][name]["input_ids"] = rec["input_ids"]
            golden["cases"][name][dtype] = rec["seqs"]
    write(golden, out_path)


def main() -> int:
    return golden_main(
        __doc__,
        __file__,
        MODEL / "model.safetensors",
        "the model is missing: run `make model` first",
        OUT,
        VENV,
        PINS,
        run_inside,
    )


if __name__ == "__main__":
    raise SystemExit(main())
