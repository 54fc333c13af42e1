"""The data step of the Decoder lab: tables, picks and curves derived from a run (no Streamlit).

Layers and heads are 1-based on the page and 0-based here, as in the core. Token labels are
``run.labels`` ("capital", "the (2)"), the ones the pickers offer and the axes carry.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from attention_core.decoder import (
    DECODER_PATTERN_NAMES,
    DecoderRun,
    Distribution,
    score_by_distance,
)
from attention_core.pretrained import Run, ranked_heads
from attention_ui.draw.text import md_escape
from attention_ui.i18n import N_, _

DEFAULT_QUERY = "it"  # the Winograd sentence's pronoun
DEFAULT_TARGETS = ("trophy", "suitcase")
PATTERN_CODES = {None: 0, **{k: i + 1 for i, k in enumerate(DECODER_PATTERN_NAMES)}}
SHORT_NAMES = {  # English; a figure shows them translated
    "sink": N_("sink"),
    "previous": N_("prev"),
    "self": N_("self"),
    "same_word": N_("word"),
    "broad": N_("broad"),
}
WORD_GAP = "\u2003"  # an em space between words; pieces of one word are joined by "·"


# ---- tokens ----
def tokens_markdown(run: DecoderRun) -> str:
    """The tokens as the model reads them, escaped: pieces of one word joined by "·", words
    apart, special tokens in bold, a byte token (part of one character) in italics."""
    parts: list[str] = []
    for i, label in enumerate(run.labels):
        text = md_escape(label)
        if run.special[i]:
            text = f"**{text}**"
        elif run.tokens[i].startswith("<") and run.tokens[i].endswith(">"):
            text = f"*{text}*"
        words = run.prompt.words
        same_word = i > 0 and words[i] is not None and words[i] == words[i - 1]
        parts.append(("·" if same_word else WORD_GAP if parts else "") + text)
    return "".join(parts)


def next_token_table(run: DecoderRun) -> pd.DataFrame:
    """The likeliest next tokens: rank, the token as text (spaces shown), probability."""
    rows = [
        {_("rank"): k + 1, _("token"): visible(t.text), _("probability"): t.p}
        for k, t in enumerate(run.next_tokens)
    ]
    return pd.DataFrame(rows)


def visible(text: str) -> str:
    """A token's text with its spaces and line breaks made visible (" Paris" -> "␣Paris")."""
    return text.replace(" ", "␣").replace("\n", "⏎").replace("\t", "⇥") or "∅"


def probabilities_of(ids: Sequence[int] | np.ndarray, dist: Distribution) -> list[float]:
    """Each token's probability in ``dist`` (0 for a token it does not keep)."""
    p = dict(zip(dist.ids.tolist(), dist.p.tolist(), strict=True))
    return [p.get(int(i), 0.0) for i in ids]


def token_options(run: DecoderRun) -> list[str]:
    """Labels of the tokens a learner can pick as the query (special tokens left out)."""
    return [run.labels[i] for i in range(run.n) if not run.special[i]]


def default_query(run: DecoderRun) -> int:
    """The last "it" of the prompt when it has one, else its last token (it sees them all)."""
    found = [i for i, t in enumerate(run.labels) if t.lower() == DEFAULT_QUERY]
    choices = [i for i in range(run.n) if not run.special[i]]
    return found[-1] if found else (choices[-1] if choices else run.n - 1)


def default_target(run: DecoderRun, query: int) -> int:
    """ "trophy" (or "suitcase") before the query when there, else the first token."""
    for want in DEFAULT_TARGETS:
        found = [j for j in range(query) if run.labels[j].lower() == want]
        if found:
            return found[0]
    return 0


# ---- every head ----
def pattern_grid(run: DecoderRun) -> tuple[np.ndarray, list[list[str]]]:
    """Each head's pattern as a code (n_layers, n_heads) for the colours, and its name."""
    patterns = run.patterns()
    codes = np.array([[PATTERN_CODES[p.label] for p in layer] for layer in patterns])
    names = [[p.name for p in layer] for layer in patterns]
    return codes, names


def pattern_counts(run: DecoderRun) -> dict[str, int]:
    """How many heads carry each label, in DECODER_PATTERN_NAMES' order, then "no single clear
    pattern" (the names English, as the core's: the page shows them translated)."""
    flat = [p.label for layer in run.patterns() for p in layer]
    counts = {DECODER_PATTERN_NAMES[k]: flat.count(k) for k in DECODER_PATTERN_NAMES}
    return counts | {N_("no single clear pattern"): flat.count(None)}


def sink_share(run: DecoderRun, at_least: float = 0.5) -> float:
    """The share of heads whose rows (from token 1 on) put at least half on token 0."""
    if run.n < 2:
        return 0.0
    on_first = run.weights[:, :, 1:, 0].mean(axis=-1)  # (layers, heads)
    return float((on_first > at_least).mean())


def on_key(run: DecoderRun, query: int, key: int) -> np.ndarray:
    """weights[layer, head, query, key] for every head: (n_layers, n_heads)."""
    return run.weights[:, :, query, key]


def strongest_keys(run: DecoderRun, query: int) -> tuple[np.ndarray, np.ndarray]:
    """Every head's strongest key for the query (it can only be the query or before it):
    the key index and its weight, both (n_layers, n_heads)."""
    rows = run.weights[:, :, query, : query + 1]  # (layers, heads, query + 1)
    target = rows.argmax(axis=-1)
    return target, np.take_along_axis(rows, target[..., None], axis=-1)[..., 0]


def focus_table(run: DecoderRun, query: int, key: int, top: int = 8) -> pd.DataFrame:
    """The ``top`` heads by the weight from the query to ``key``, with their patterns
    (headers and patterns in the session's language)."""
    weight = on_key(run, query, key)
    target, target_w = strongest_keys(run, query)
    labels = run.labels
    on = _("weight on “{k}”").format(k=labels[key])
    rows = [
        {
            _("layer"): layer + 1,
            _("head"): head + 1,
            _("K/V head"): run.config.kv_head(head) + 1,
            on: w,
            _("strongest key"): labels[target[layer, head]],
            _("its weight"): float(target_w[layer, head]),
            _("pattern"): _(run.pattern(layer, head).name),
        }
        for layer, head, w in ranked_heads(weight)[:top]
    ]
    return pd.DataFrame(rows)


# ---- one head: RoPE and the shared keys ----
def rope_curve(
    run: DecoderRun, layer: int, head: int, query: int, key: int
) -> tuple[np.ndarray, np.ndarray, float, float]:
    """What RoPE does to the score of the query against the key, at every distance.

    The query's and the key's vectors before rotation, set ``d`` positions apart for
    d = 0 .. n_max - 1 (score_by_distance): the scaled score at each distance (m,), the
    score without RoPE (q . k / 8, the same at every distance), and the scaled score the
    head really has (at distance query - key). Returns distances, scores, plain, actual.
    """
    la = run.layers[layer]
    g = run.config.kv_head(head)
    q, k = la.Q_pre[query, head], la.K_pre[key, g]  # (d_head,) each
    distances = np.arange(max(64, run.n))
    scores = score_by_distance(q, k, distances, run.config.rope_theta)
    plain = float(np.asarray(q, np.float64) @ np.asarray(k, np.float64)) / np.sqrt(q.shape[0])
    actual = float(run.head(layer, head).scaled_scores[query, key])
    return distances, scores, plain, actual


def rope_default_key(run: DecoderRun, layer: int, head: int, query: int) -> int:
    """The key token ``query`` weighs most in this head, the first token left out (a sink's
    score hardly moves with distance), or 0 for the first token."""
    row = run.weights[layer, head, query, 1 : query + 1]
    return 1 + int(row.argmax()) if row.size else 0


def group_of(run: DecoderRun, head: int) -> list[int]:
    """The query heads (0-based) that share ``head``'s keys and values, ``head`` among them."""
    return list(run.config.query_heads(run.config.kv_head(head)))


# ---- the encoder beside the decoder ----
def mean_head(weights: np.ndarray) -> np.ndarray:
    """The average head: every head's weights averaged, (layers, heads, n, n) -> (n, n)."""
    return weights.mean(axis=(0, 1))


def later_share(weights: np.ndarray) -> float:
    """The share of all attention that goes to later tokens (above the diagonal), over the
    rows and heads: 0 for a causal model, about half for an encoder."""
    n = weights.shape[-1]
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    return float(weights[..., upper].sum() / weights.sum())


def encoder_rows(run: Run) -> tuple[np.ndarray, list[str]]:
    """MiniLM's weights and labels without [CLS] and [SEP]: the typed tokens only, each
    row renormalised to sum to 1 over them, so the two models are set side by side on
    what the learner typed. weights (layers, heads, m, m)."""
    keep = [i for i in range(run.n_valid) if not run.special[i]]
    W = run.weights[:, :, keep][:, :, :, keep]
    W = W / W.sum(axis=-1, keepdims=True)
    return W, [run.labels[i] for i in keep]


def head_names(names: Sequence[Sequence[str]], short: bool) -> list[list[str]]:
    """Pattern names as a figure writes them: short words on a phone."""
    if not short:
        return [list(row) for row in names]
    by_name = {DECODER_PATTERN_NAMES[k]: v for k, v in SHORT_NAMES.items()}
    return [[by_name.get(x, x) for x in row] for row in names]
