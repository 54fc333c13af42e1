"""attention_core: scaled dot-product attention in pure NumPy, every stage kept.

No Streamlit, no Plotly: notebooks, tests and the app all call this package.
``attention_core.pretrained`` runs a real model (all-MiniLM-L6-v2) through ``attention()``.
"""

from attention_core.attention import (
    AttentionTrace,
    as_matrix,
    attention,
    batched_attention,
    check_qkv,
    dot_product_terms,
    project,
)
from attention_core.backward import AttentionGrads, attention_backward
from attention_core.errors import InputError
from attention_core.masks import causal_mask, check_mask, padding_mask
from attention_core.multihead import (
    MultiHeadTrace,
    combine_heads,
    head_divisors,
    head_slice,
    multi_head_attention,
)
from attention_core.online import OnlineTile, OnlineTrace, online_attention
from attention_core.parsing import (
    MAX_DIM,
    MAX_TOKENS,
    format_matrix,
    label_tokens,
    parse_matrix,
    parse_number,
    parse_tokens,
)
from attention_core.presets import (
    DEFAULT_PRESET,
    PRESETS,
    Preset,
    default_scenario,
    random_scenario,
)
from attention_core.pretrained import ModelMissing, load_model
from attention_core.resize import resize
from attention_core.saturation import saturation_sweep
from attention_core.scenario import MASK_KINDS, MODES, Scenario
from attention_core.softmax import naive_softmax, softmax

__all__ = [
    "DEFAULT_PRESET",
    "MASK_KINDS",
    "MAX_DIM",
    "MAX_TOKENS",
    "MODES",
    "PRESETS",
    "AttentionGrads",
    "AttentionTrace",
    "InputError",
    "ModelMissing",
    "MultiHeadTrace",
    "OnlineTile",
    "OnlineTrace",
    "Preset",
    "Scenario",
    "as_matrix",
    "attention",
    "attention_backward",
    "batched_attention",
    "causal_mask",
    "check_mask",
    "check_qkv",
    "combine_heads",
    "default_scenario",
    "dot_product_terms",
    "format_matrix",
    "head_divisors",
    "head_slice",
    "label_tokens",
    "load_model",
    "multi_head_attention",
    "naive_softmax",
    "online_attention",
    "padding_mask",
    "parse_matrix",
    "parse_number",
    "parse_tokens",
    "project",
    "random_scenario",
    "resize",
    "saturation_sweep",
    "softmax",
]
