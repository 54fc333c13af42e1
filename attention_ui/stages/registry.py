"""The stage registry: each step of attention defined once.

A stage has its key (also its page's URL path), its page title, the part of the formula it
highlights, a one-line and a longer explanation, its box on the Start page's pipeline and
its one summary figure. The walkthrough pages, the formula banner, presentation mode, the
Start pipeline and Previous/Next all read this table. No Streamlit here.
The words are written for this app; the facts follow the lessons in shared/lessons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import plotly.graph_objects as go

from attention_core import AttentionTrace
from attention_ui.draw.figures import LIGHT
from attention_ui.i18n import N_
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels

HIGHLIGHT = LIGHT.accent  # the formula's part, unless the page's theme says otherwise
FORMULA_PARTS = ("projections", "scores", "scaling", "mask", "softmax", "output")


@dataclass(frozen=True)
class Stage:
    """A step; its words are English msgids (``N_``), shown with ``_()`` where they are drawn."""

    key: str  # stable id and URL path ("/softmax")
    title: str  # the page title, numbered in reading order
    summary: str  # a few words: what the step computes
    present_title: str  # the heading of its presentation screen
    highlight: str | None  # the formula part it is about (FORMULA_PARTS), or none
    pipeline: tuple[str, str] | None  # its box on the Start page (name, detail), if any
    short: str  # one line (presentation mode)
    long: str  # a paragraph in Markdown with LaTeX (its page)
    figure: Callable[[Labels, AttentionTrace], go.Figure]  # its one summary figure

    def formula(self, stacked: bool = False, colour: str = HIGHLIGHT) -> str:
        return formula(self.highlight, stacked, colour)


def formula(part: str | None = None, stacked: bool = False, colour: str = HIGHLIGHT) -> str:
    """LaTeX of softmax(Q K^T / sqrt(d_k) + M) V with ``part`` (FORMULA_PARTS) coloured.

    ``stacked``: on lines of their own (for a phone, where one line is cut at the edge).
    ``colour``: the highlight, '#RRGGBB' (the theme's accent, figures.Palette.accent).
    """
    pieces = {
        "softmax": r"\mathrm{softmax}",
        "scores": r"QK^\top",
        "scaling": r"\tfrac{1}{\sqrt{d_k}}",
        "mask": r"+\,M",
        "output": r"V",
    }
    if part in pieces:
        pieces[part] = rf"\textcolor{{{colour}}}{{\boldsymbol{{{pieces[part]}}}}}"
    lhs = r"\mathrm{Attention}(Q,K,V) ="
    rhs = (
        rf"{pieces['softmax']}\!\left({pieces['scaling']}\,"
        rf"{pieces['scores']} {pieces['mask']}\right) {pieces['output']}"
    )
    proj = rf"\textcolor{{{colour}}}{{Q = X W_Q,\; K = X W_K,\; V = X W_V}}"
    if stacked:
        lines = [proj] if part == "projections" else []
        return r"\begin{gathered}" + r" \\ ".join([*lines, lhs, rhs]) + r"\end{gathered}"
    body = f"{lhs} {rhs}"
    return rf"{proj} \quad\Rightarrow\quad {body}" if part == "projections" else body


STAGES: tuple[Stage, ...] = (
    Stage(
        key="inputs",
        figure=sf.softmax_summary,
        title=N_("1. Inputs"),
        summary=N_("Tokens and vectors"),
        present_title=N_("The example"),
        highlight=None,
        pipeline=None,
        short=N_(
            "Each token becomes a vector. Attention will let every token gather information "
            "from the others."
        ),
        long=N_(r"""
Attention works on a **sequence of vectors**, one per token. You can start from
**embeddings** $X$ (one row per token) and the three learned projection matrices
$W_Q$, $W_K$, $W_V$, or skip that step and type **Q, K and V directly**, as the
lessons' small worked examples do. Change anything here: every later page follows.
"""),
    ),
    Stage(
        key="projections",
        figure=sf.projections_summary,
        title=N_("2. Projections"),
        summary="Q = X W_Q, K = X W_K, V = X W_V",
        present_title=N_("Queries, keys and values"),
        highlight="projections",
        pipeline=None,
        short=N_(
            "Three learned matrices turn each embedding into a query (what am I looking "
            "for?), a key (what do I offer?) and a value (what do I pass on?)."
        ),
        long=N_(r"""
The same embedding plays three roles, so it is projected three times. A row of
$Q = XW_Q$ is a token's **query**, what it is looking for; a row of $K = XW_K$ is its
**key**, what it can be found by; a row of $V = XW_V$ is its **value**, the information it
hands over when another token attends to it. Queries and keys must have the same length
$d_k$ because they will be compared; values may have any length $d_v$.
Think of a library: you bring a question (query), the shelves carry labels (keys), and the
books hold the content (values).
"""),
    ),
    Stage(
        key="scores",
        figure=sf.scores_figure,
        title=N_("3. Scores"),
        summary=N_("MatMul: Q K^T"),
        present_title=N_("Scores: compare every query with every key"),
        highlight="scores",
        pipeline=(N_("MatMul"), "Q Kᵀ"),
        short=N_(
            "Every query is compared with every key by a dot product: a large score means "
            "'this key matches what I am looking for'."
        ),
        long=N_(r"""
$QK^\top$ holds one dot product for every (query, key) pair: row *i*, column *j* is
$q_i \cdot k_j$, the sum of the products of matching components. Vectors that point the same
way give a large positive score, opposite ones a negative score, unrelated ones about 0.
Pick a cell to see its sum written out term by term.
"""),
    ),
    Stage(
        key="scaling",
        figure=sf.scaling_summary,
        title=N_("4. Scaling"),
        summary=N_("Scale by 1/sqrt(d_k)"),
        present_title=N_("Scaling by 1/√d_k"),
        highlight="scaling",
        pipeline=(N_("Scale"), "× 1/√d_k"),
        short=N_(
            "Dividing by √d_k keeps the scores near unit size however long the vectors are, "
            "so softmax does not saturate."
        ),
        long=N_(r"""
If the components of $q$ and $k$ are independent with mean 0 and variance 1, each product
$q_m k_m$ has variance 1, and their sum over $d_k$ components has variance $d_k$. So the
scores spread out like $\sqrt{d_k}$: about 8 for $d_k = 64$. Fed such large numbers, softmax
puts almost all the weight on one key and its gradients become tiny. Multiplying by
$1/\sqrt{d_k}$ brings the spread back to about 1, whatever the width.
"""),
    ),
    Stage(
        key="mask",
        figure=sf.mask_summary,
        title=N_("5. Mask"),
        summary=N_("Mask (optional)"),
        present_title=N_("The mask"),
        highlight="mask",
        pipeline=(N_("Mask"), N_("(optional)")),
        short=N_(
            "A mask forbids some query-key pairs (the future, or padding) by setting their "
            "score to −∞, so they get weight exactly 0."
        ),
        long=N_(r"""
Sometimes a query must not see some keys. In a decoder that generates text left to right,
token *i* may not look at tokens after it (**causal** mask). In a batch, short sentences
are filled up with **padding** tokens that nobody should attend to. A mask marks the
allowed pairs; here, as in PyTorch, **True means "may attend"**. Forbidden scores are
replaced by $-\infty$, and since $e^{-\infty} = 0$ they get weight exactly 0 after softmax.
"""),
    ),
    Stage(
        key="softmax",
        figure=sf.softmax_summary,
        title=N_("6. Softmax"),
        summary=N_("Row-wise softmax"),
        present_title=N_("Softmax: scores become weights"),
        highlight="softmax",
        pipeline=(N_("SoftMax"), N_("row by row")),
        short=N_(
            "Softmax turns each row of scores into weights that are positive and sum to 1: "
            "how much attention each query pays to each key."
        ),
        long=N_(r"""
Softmax works **row by row**: for one query it exponentiates each score and divides by the
row's total, $w_j = e^{s_j} / \sum_l e^{s_l}$. The weights are positive, sum to 1, and keep the
scores' order; larger gaps between scores give a sharper distribution. In practice the row
maximum is subtracted first: it changes nothing mathematically but keeps $e^x$ from
overflowing.
"""),
    ),
    Stage(
        key="output",
        figure=sf.output_summary,
        title=N_("7. Output"),
        summary=N_("MatMul: weights V"),
        present_title=N_("Output: a weighted average of the values"),
        highlight="output",
        pipeline=(N_("MatMul"), N_("weights · V")),
        short=N_(
            "Each output row is a weighted average of the value vectors: the query's new, "
            "context-aware representation."
        ),
        long=N_(r"""
The output for a query is $\sum_j w_j v_j$: every value vector, weighted by how much attention
the query pays to its key. It is a new representation of the token that mixes in
information from the tokens it found relevant. In a Transformer block this result is added
back to the token's embedding (the **residual connection**), so the token keeps what it was
and gains context.
"""),
    ),
)
BY_KEY: dict[str, Stage] = {stage.key: stage for stage in STAGES}
PIPELINE: tuple[Stage, ...] = tuple(stage for stage in STAGES if stage.pipeline)


def stage_figure(stage: str, labels: Labels, t: AttentionTrace) -> go.Figure:
    """The one figure that sums up ``stage`` for the trace ``t``."""
    if stage not in BY_KEY:
        raise ValueError(f"no figure for stage {stage!r}")
    return BY_KEY[stage].figure(labels, t)
