"""Convert the GGUF file once into what the app memory-maps (``make model`` runs this).

    python -m attention_core.decoder.convert MODEL.gguf OUT_DIR

The GGUF file (llama.cpp's format) holds the weights quantised: the token embedding in
Q8_0 (blocks of 32 int8 with one float16 scale), the projections in Q4_1 (blocks of 32
4-bit numbers with a float16 scale and offset). The ``gguf`` package reads and dequantises
them to float32, as Hugging Face's ``gguf_file=`` loader does. Then:

* **llama.cpp's row order is undone.** Its converter reorders each head's rows of W_q and
  W_k so that RoPE can turn adjacent dimensions (2i, 2i + 1); Hugging Face's RoPE turns
  dimension i with i + d_head / 2 (``rope.rotate_half``). ``unpermute`` puts the rows back.
  Forgetting it still predicts " Paris" after "The capital of France is", but the mean
  next-token loss on a paragraph doubles.
* Every tensor goes into one flat float32 ``.npy`` (64-byte aligned), described by
  ``decoder.json``, so a process maps the whole model with one ``np.load(mmap_mode="r")``.
  Each layer's weights are kept transposed and stacked as the forward pass multiplies
  them (``llama.LayerWeights``), so it reads them from the mapped file without a copy.
  Float32, not float16: the model runs in float32, and a float16 file would either be
  widened on every forward pass or copied once per process (bench/RESULTS.md, "Decoder").
* The tokenizer (byte-level BPE: 49,152 tokens and 48,900 merges in the metadata) is
  rebuilt with ``tokenizers`` and saved as ``tokenizer.json``.

The files are written into a temporary folder beside ``OUT_DIR`` and moved into place
together, so a half-written cache is never left behind.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attention_core.decoder.files import (
    CACHE_VERSION,
    INDEX_FILE,
    TOKENIZER_FILE,
    WEIGHTS_FILE,
)
from attention_core.decoder.llama import LAYER_TENSORS, STORED, DecoderConfig, LayerWeights

ALIGN = 16  # float32 elements: every tensor starts on a 64-byte boundary
CONTROL, USER_DEFINED = 3, 4  # llama.cpp's token types for special and added tokens
GGUF_LAYER_NAMES = {  # our name -> the GGUF tensor's name in block i
    "attn_norm": "attn_norm", "W_q": "attn_q", "W_k": "attn_k", "W_v": "attn_v",
    "W_o": "attn_output", "mlp_norm": "ffn_norm", "W_gate": "ffn_gate", "W_up": "ffn_up",
    "W_down": "ffn_down",
}  # fmt: skip
KEPT_METADATA = ("general.name", "general.basename", "general.size_label", "general.license",
                 "general.organization", "general.finetune")  # fmt: skip


def unpermute(W: NDArray[np.floating], n_heads: int) -> NDArray[np.floating]:
    """Undo llama.cpp's reordering of a query or key weight's rows (per head).

    W (n_heads * d_head, d_model) as llama.cpp stores it: within each head, row 2j + t
    holds Hugging Face's row t * d_head / 2 + j (t = 0, 1). Returns the rows in Hugging
    Face's order, the same shape. (llama.cpp's ``permute`` is the inverse: reshape to
    (heads, 2, d_head / 2, ...) and swap axes 1 and 2.)
    """
    rows, cols = W.shape
    d_half = rows // n_heads // 2
    return W.reshape(n_heads, d_half, 2, cols).swapaxes(1, 2).reshape(rows, cols)


def sha256(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


# ---- reading the GGUF file -----------------------------------------------------------------
def read_metadata(reader: Any) -> dict[str, Any]:
    """Every metadata field of a ``gguf.GGUFReader`` as Python values (strings, numbers,
    lists), except the tensor data."""
    return {name: field.contents() for name, field in reader.fields.items()}


def config_from_metadata(meta: Mapping[str, Any]) -> DecoderConfig:
    """The architecture from llama.cpp's metadata keys; only a Llama with RoPE is read."""
    if meta.get("general.architecture") != "llama":
        raise ValueError(f"not a llama model: {meta.get('general.architecture')!r}")
    a = "llama."
    d_model, n_heads = int(meta[a + "embedding_length"]), int(meta[a + "attention.head_count"])
    d_head = int(meta.get(a + "rope.dimension_count", d_model // n_heads))
    if d_head * n_heads != d_model:
        raise ValueError("the heads do not split the width evenly")
    return DecoderConfig(
        n_layers=int(meta[a + "block_count"]),
        d_model=d_model,
        n_heads=n_heads,
        n_kv_heads=int(meta.get(a + "attention.head_count_kv", n_heads)),
        d_head=d_head,
        d_ff=int(meta[a + "feed_forward_length"]),
        vocab=len(meta["tokenizer.ggml.tokens"]),
        rope_theta=float(meta.get(a + "rope.freq_base", 10000.0)),
        eps=float(meta[a + "attention.layer_norm_rms_epsilon"]),
    )


def read_tensors(reader: Any, config: DecoderConfig) -> dict[str, NDArray[np.float32]]:
    """Every weight dequantised to float32 under our names, W_q and W_k unpermuted."""
    from gguf.quants import dequantize

    raw = {t.name: t for t in reader.tensors}
    if "output.weight" in raw:
        raise ValueError("only models whose output matrix is the token embedding are read")

    def get(name: str) -> NDArray[np.float32]:
        t = raw[name]
        return np.ascontiguousarray(dequantize(t.data, t.tensor_type), dtype=np.float32)

    out = {"embed": get("token_embd.weight"), "final_norm": get("output_norm.weight")}
    for i in range(config.n_layers):
        for ours, theirs in GGUF_LAYER_NAMES.items():
            W = get(f"blk.{i}.{theirs}.weight")
            if ours == "W_q":
                W = unpermute(W, config.n_heads)
            elif ours == "W_k":
                W = unpermute(W, config.n_kv_heads)
            out[f"{i}.{ours}"] = np.ascontiguousarray(W)
    _check_shapes(out, config)
    return out


def _check_shapes(t: Mapping[str, np.ndarray], c: DecoderConfig) -> None:
    d, q, kv = c.d_model, c.n_heads * c.d_head, c.n_kv_heads * c.d_head
    want = {
        "attn_norm": (d,),
        "W_q": (q, d),
        "W_k": (kv, d),
        "W_v": (kv, d),
        "W_o": (d, q),
        "mlp_norm": (d,),
        "W_gate": (c.d_ff, d),
        "W_up": (c.d_ff, d),
        "W_down": (d, c.d_ff),
    }
    assert tuple(want) == LAYER_TENSORS  # fmt: skip
    expected = {"embed": (c.vocab, d), "final_norm": (d,)}
    expected |= {f"{i}.{k}": s for i in range(c.n_layers) for k, s in want.items()}
    bad = [k for k, s in expected.items() if t[k].shape != s]
    if bad:
        raise ValueError(f"unexpected tensor shapes: {bad[:3]}")


def build_tokenizer(meta: Mapping[str, Any]) -> Any:
    """The byte-level BPE tokenizer of the metadata as a ``tokenizers.Tokenizer``.

    SmolLM2's pre-tokenizer ("smollm") splits every digit on its own before GPT-2's
    byte-level split; control tokens (<|im_start|>, ...) are special added tokens. No BOS
    token is added (tokenizer.ggml.add_bos_token is false).
    """
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    if meta.get("tokenizer.ggml.model") != "gpt2" or meta.get("tokenizer.ggml.pre") != "smollm":
        raise ValueError("only SmolLM's byte-level BPE tokenizer is rebuilt")
    tokens = list(meta["tokenizer.ggml.tokens"])
    merges = [tuple(m.split(" ")) for m in meta["tokenizer.ggml.merges"]]
    if any(len(m) != 2 for m in merges):
        raise ValueError("a merge is not two tokens")
    bpe = models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges, fuse_unk=False)
    tokenizer = Tokenizer(bpe)
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True),
         pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    )  # fmt: skip
    tokenizer.decoder = decoders.ByteLevel()
    types = list(meta["tokenizer.ggml.token_type"])
    kept = (CONTROL, USER_DEFINED)
    added = [AddedToken(t, special=k == CONTROL, normalized=False)
             for t, k in zip(tokens, types, strict=True) if k in kept]  # fmt: skip
    tokenizer.add_tokens(added)
    return tokenizer


# ---- writing the cache ----------------------------------------------------------------------
def stored_tensors(
    tensors: Mapping[str, np.ndarray], config: DecoderConfig
) -> dict[str, np.ndarray]:
    """The tensors as the cache keeps them: each layer's weights transposed to (in, out)
    and stacked as LayerWeights' fields (llama.STORED), the embedding and norm as they are,
    and the output matrix (the embedding, transposed: DecoderWeights.output)."""
    out = {"embed": tensors["embed"], "final_norm": tensors["final_norm"],
           "output": np.ascontiguousarray(tensors["embed"].T)}  # fmt: skip
    for i in range(config.n_layers):
        lw = LayerWeights.from_torch_layout(tensors, f"{i}.")
        out |= {f"{i}.{name}": getattr(lw, name) for name in STORED}
    return out


def layout(tensors: Mapping[str, np.ndarray]) -> tuple[dict[str, dict[str, Any]], int]:
    """Where each tensor sits in the flat array: {name: {offset, shape}}, and its length.
    Each starts at a multiple of ALIGN (64 bytes)."""
    index, offset = {}, 0
    for name, a in tensors.items():
        index[name] = {"offset": offset, "shape": list(a.shape)}
        offset += -(-a.size // ALIGN) * ALIGN  # the next multiple of ALIGN
    return index, offset


def write_cache(gguf_path: Path, out: Path) -> None:
    """Read ``gguf_path`` and write weights.f32.npy, decoder.json and tokenizer.json to ``out``."""
    import gguf

    reader = gguf.GGUFReader(str(gguf_path))
    meta = read_metadata(reader)
    config = config_from_metadata(meta)
    tensors = stored_tensors(read_tensors(reader, config), config)
    tokenizer = build_tokenizer(meta)
    types = list(meta["tokenizer.ggml.token_type"])
    index, total = layout(tensors)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".convert-") as name:
        staged = Path(name) / "cache"
        staged.mkdir()
        flat = np.lib.format.open_memmap(staged / WEIGHTS_FILE, "w+", np.float32, (total,))
        flat[:] = 0.0
        for key, a in tensors.items():
            start = index[key]["offset"]
            flat[start : start + a.size] = a.ravel()
        flat.flush()
        del flat
        tokenizer.save(str(staged / TOKENIZER_FILE))
        info = {
            "version": CACHE_VERSION,
            "source": {"file": gguf_path.name, "sha256": sha256(gguf_path)},
            "metadata": {k: meta[k] for k in KEPT_METADATA if k in meta},
            "config": {k: getattr(config, k) for k in DecoderConfig.__dataclass_fields__},
            "special_ids": [i for i, k in enumerate(types) if k == CONTROL],
            "eos_id": int(meta.get("tokenizer.ggml.eos_token_id", -1)),
            "length": total,
            "tensors": index,
        }
        (staged / INDEX_FILE).write_text(json.dumps(info, indent=1) + "\n")
        if out.exists():
            shutil.rmtree(out)
        staged.rename(out)  # same file system: the three files appear at once


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gguf", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    write_cache(args.gguf, args.out)
    print(f"converted {args.gguf.name} into {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
