"""A real model's attention: all-MiniLM-L6-v2 (BERT, 6 layers x 12 heads of 32) in NumPy.

Pure NumPy like the rest of the core: no torch, no Streamlit, no Plotly. ``safetensors`` and
``tokenizers`` are imported only when ``load_model`` runs, so this package imports without
them. The model's files are fetched by ``make model`` (see the README); nothing here
downloads anything.
"""

from attention_core.pretrained.files import (
    DEFAULT_MODEL_DIR,
    MODEL_DIR_ENV,
    MODEL_NAME,
    REQUIRED_FILES,
)
from attention_core.pretrained.focus import (
    HeadChange,
    TokenFocus,
    align_tokens,
    attention_to,
    compare_runs,
    ranked_heads,
    top_targets,
)
from attention_core.pretrained.gelu import erf, gelu
from attention_core.pretrained.model import Model, Run, load_model
from attention_core.pretrained.patterns import PATTERN_NAMES, HeadPattern, head_pattern
from attention_core.pretrained.to_scenario import head_scenario
from attention_core.pretrained.tokenize import MAX_MODEL_TOKENS, Tokenized, Truncation
from attention_core.trained.files import FETCH_COMMAND, ModelMissing

__all__ = [
    "DEFAULT_MODEL_DIR",
    "FETCH_COMMAND",
    "MAX_MODEL_TOKENS",
    "MODEL_DIR_ENV",
    "MODEL_NAME",
    "PATTERN_NAMES",
    "REQUIRED_FILES",
    "HeadChange",
    "HeadPattern",
    "Model",
    "ModelMissing",
    "Run",
    "TokenFocus",
    "Tokenized",
    "Truncation",
    "align_tokens",
    "attention_to",
    "compare_runs",
    "erf",
    "gelu",
    "head_pattern",
    "head_scenario",
    "load_model",
    "ranked_heads",
    "top_targets",
]
