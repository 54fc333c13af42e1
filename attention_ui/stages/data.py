"""The data step of each stage view: tables and numbers derived from a trace (no Streamlit).

Views and figures take what these return, so a number is computed once and shown twice
(the output bars and the output table read the same weighted values).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from attention_core import AttentionTrace, Scenario, dot_product_terms
from attention_ui.draw.text import fixed, minus, num, vec, vector_columns
from attention_ui.i18n import N_, _, ngettext

MASK_LABELS = {  # English msgids: shown with _()
    "none": N_("No mask"),
    "causal": N_("Causal (no peeking ahead)"),
    "padding": N_("Padding (last keys are padding)"),
    "custom": N_("Custom grid"),
}
# The kind in a line of text ("mask: causal"), English msgids too.
MASK_NAMES = {"none": N_("none"), "causal": N_("causal"), "padding": N_("padding"),
              "custom": N_("custom")}  # fmt: skip


@dataclass(frozen=True)
class Labels:
    """Row and column labels of a trace: one per query and one per key (repeats numbered)."""

    queries: list[str]
    keys: list[str]

    @classmethod
    def of(cls, s: Scenario) -> Labels:
        return cls(s.query_labels, s.key_labels)

    @classmethod
    def plain(cls, tokens: list[str]) -> Labels:
        """Self-attention over ``tokens`` (queries = keys)."""
        return cls(list(tokens), list(tokens))


def strongest_cell(t: AttentionTrace, query: int | None = None) -> tuple[int, int]:
    """(query, key) of the largest raw score: where a breakdown starts. With ``query``, the
    largest of that query's row."""
    if query is not None:
        return query, int(np.argmax(t.scores[query]))
    i, j = np.unravel_index(np.argmax(t.scores), t.scores.shape)
    return int(i), int(j)


# Above this d_k the formula shows the first terms and "…": the table below it has every
# term, and a 32-term formula (the real model's heads) overflows the page and is slow to
# typeset on every pick.
LATEX_TERMS = 8


def breakdown_latex(t: AttentionTrace, i: int, j: int) -> str:
    """q_i · k_j = (q1)(k1) + ... = score, as LaTeX (1-based indices)."""
    q, k = t.Q[i], t.K[j]
    terms = dot_product_terms(q, k)  # (d_k,)
    shown = zip(q[:LATEX_TERMS], k[:LATEX_TERMS], strict=True)
    sum_text = " + ".join(f"({num(a)})({num(b)})" for a, b in shown)
    if q.size > LATEX_TERMS:
        more = q.size - LATEX_TERMS
        words = ngettext("{n} more term", "{n} more terms", more).format(n=more)
        sum_text += rf" + \dots \text{{ ({words})}}"
    return rf"q_{{{i + 1}}} \cdot k_{{{j + 1}}} = {sum_text} = {num(terms.sum(), 4)}"


def breakdown_table(t: AttentionTrace, i: int, j: int) -> pd.DataFrame:
    """One row per dimension: q_m, k_m and their product (the products sum to the score)."""
    q, k = t.Q[i], t.K[j]
    return pd.DataFrame(
        {"q (query)": q, "k (key)": k, "q × k": dot_product_terms(q, k)},
        index=[_("dimension {m}").format(m=m + 1) for m in range(q.size)],
    )


def softmax_table(
    t: AttentionTrace, row: int, key_labels: list[str], phone: bool = False
) -> pd.DataFrame:
    """The lesson-style table for one query: score, e^score, row sum, weight.

    Score and e^score are text, as the rest of the app writes them (−∞ for a masked key);
    st.dataframe would print a float −inf as "-Infinity". ``phone``: the columns that fit a
    phone's width, score, e^(score − max) and weight to 4 significant digits (five columns of
    6 scrolled sideways and hid the weights); the row sum, the same in every row, is said
    under the table, and e^score in the "Why subtract the maximum?" box.
    """
    scores_row = t.masked_scores[row]  # (n_k,)
    with np.errstate(over="ignore"):
        e = np.exp(scores_row)  # may overflow for huge scores: the stable column shows the fix
    shifted = np.exp(scores_row - np.max(scores_row))
    digits = 4 if phone else 6
    columns = {
        "score": [num(x, digits) for x in scores_row],  # as text: −∞, not "-Infinity"
        "e^score": [num(x, digits) for x in e],  # overflow reads ∞
        "e^(score − max)": shifted,
        "row sum of e^(score − max)": shifted.sum(),
        "weight": t.weights[row],
    }
    if phone:
        columns = {k: columns[k] for k in ("score", "e^(score − max)", "weight")}
    return pd.DataFrame(columns, index=key_labels)


def stability_table(
    x: np.ndarray, naive: np.ndarray, stable: np.ndarray, key_labels: list[str]
) -> pd.DataFrame:
    """Scores x (n_k,) with the naive and the stable softmax of them, as text.

    Text, so nan and inf show as they are (a float column would say None).
    """
    columns = {"score": x, "naive e^x / Σ e^x": naive, "stable softmax": stable}
    return pd.DataFrame(
        {name: [minus(f"{v:.6g}") for v in values] for name, values in columns.items()},
        index=key_labels,
    )


def matrix_frame(M: np.ndarray, row_labels: list[str], prefix: str) -> pd.DataFrame:
    """A (rows, d) matrix as a table: a row per token, columns prefix1..prefixd."""
    return pd.DataFrame(M, index=row_labels, columns=vector_columns(M.shape[1], prefix))


def naive_verdict(x: np.ndarray, naive: np.ndarray) -> str:
    """Why the naive softmax failed on ``x`` (overflow or underflow), or that it did not."""
    finite = x[np.isfinite(x)]
    if not np.isnan(naive).any():
        return _("At this size both agree; try a larger factor.")
    if finite.size and finite.max() > 709:
        return _(
            "**The naive version overflowed**: e^x is inf for x above about 709, and "
            "inf / inf is nan. Subtracting the row maximum keeps every exponent at most 0."
        )
    return _(
        "**The naive version underflowed**: every e^x is 0 for x below about −745, and "
        "0 / 0 is nan. Subtracting the row maximum makes the largest term e^0 = 1."
    )


def contributions(t: AttentionTrace, row: int) -> np.ndarray:
    """weight_j × v_j for one query: (n_k, d_v); its column sums are the output row."""
    return t.weights[row][:, np.newaxis] * t.V  # (n_k, 1) * (n_k, d_v) -> (n_k, d_v)


def output_table(
    t: AttentionTrace, row: int, key_labels: list[str], parts: np.ndarray
) -> pd.DataFrame:
    """weight_j, v_j and weight_j * v_j (``parts``, from ``contributions``) with their sum."""
    frame = pd.DataFrame(
        {
            "weight": t.weights[row],
            "value v": [vec(v) for v in t.V],
            "weight × v": [vec(p) for p in parts],
        },
        index=key_labels,
    )
    frame.loc["output (sum)"] = [t.weights[row].sum(), "", vec(t.output[row])]
    return frame


# The column and row names the tables above give themselves (English, stable: code reads
# columns by them); ``headed`` shows them in the session's language. Never a token's label.
HEADERS = frozenset((
    N_("q (query)"), N_("k (key)"), N_("score"), N_("weight"), N_("row sum of e^(score − max)"),
    N_("e^score"), N_("e^(score − max)"),
    N_("naive e^x / Σ e^x"), N_("stable softmax"), N_("value v"), N_("weight × v"),
    N_("output (sum)"), N_("embedding x"), N_("attention output"), N_("x + output"),
))  # fmt: skip


def headed(frame: pd.DataFrame, rows: tuple[str, ...] = ()) -> pd.DataFrame:
    """``frame`` with its own column names (HEADERS) in the session's language, and the rows
    named in ``rows`` (the table's own, such as "output (sum)"), for display only."""
    shown = frame.rename(columns={c: _(c) for c in frame.columns if c in HEADERS})
    return shown.rename(index={r: _(r) for r in rows}) if rows else shown


def residual_table(x: np.ndarray, o: np.ndarray) -> pd.DataFrame:
    """One token's embedding x (d_model,), its attention output o and x + o, as text
    (``fixed``: a float column printed 1.37e30 as digits its cell cut off)."""
    columns = {"embedding x": x, "attention output": o, "x + output": x + o}
    return pd.DataFrame(
        {name: [fixed(v) for v in values] for name, values in columns.items()},
        index=vector_columns(x.size, "e"),
    )
