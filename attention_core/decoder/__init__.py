"""A real decoder's attention: SmolLM2-135M-Instruct (Llama, 30 layers x 9 heads) in NumPy.

Generation with a KV cache, temperature, top-k and top-p (cache.py, sampling.py).
Causal heads, grouped-query attention (9 query heads share 3 key/value heads) and rotary
position embeddings (RoPE), every head through the core's own ``attention()`` with a
causal mask. Pure NumPy like the rest of the core: ``gguf`` (only to convert the file, in
``make model``) and ``tokenizers`` are imported when needed, so this package imports
without them. Nothing here downloads anything.
"""

from attention_core.decoder.cache import (
    CachedStep,
    KVCache,
    cache_bytes,
    cached_step,
    multiply_adds,
    prefill,
)
from attention_core.decoder.files import (
    DECODER_DIR_ENV,
    DECODER_NAME,
    DEFAULT_DECODER_DIR,
    DecoderMissing,
)
from attention_core.decoder.llama import DecoderConfig, LayerAttention
from attention_core.decoder.model import Decoder, DecoderRun, NextToken, load_decoder
from attention_core.decoder.patterns import (
    DECODER_PATTERN_NAMES,
    DecoderPattern,
    decoder_pattern,
)
from attention_core.decoder.rope import apply_rope, rope_tables, score_by_distance
from attention_core.decoder.sampling import MAX_TEMPERATURE, Distribution, distribution
from attention_core.decoder.to_scenario import decoder_head_scenario
from attention_core.decoder.tokenize import MAX_PROMPT_TOKENS, Prompt, PromptCut

__all__ = [
    "DECODER_DIR_ENV",
    "DECODER_NAME",
    "DECODER_PATTERN_NAMES",
    "DEFAULT_DECODER_DIR",
    "MAX_PROMPT_TOKENS",
    "MAX_TEMPERATURE",
    "CachedStep",
    "Decoder",
    "DecoderConfig",
    "DecoderMissing",
    "DecoderPattern",
    "DecoderRun",
    "Distribution",
    "KVCache",
    "LayerAttention",
    "NextToken",
    "Prompt",
    "PromptCut",
    "apply_rope",
    "cache_bytes",
    "cached_step",
    "decoder_head_scenario",
    "decoder_pattern",
    "distribution",
    "load_decoder",
    "multiply_adds",
    "prefill",
    "rope_tables",
    "score_by_distance",
]
