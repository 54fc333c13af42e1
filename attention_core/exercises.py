"""The practice exercises as data, and the checking of what a learner types. Pure and testable.

Every expected answer comes from the core (an ``AttentionTrace``), never from a typed
constant, so the exercises cannot drift from the maths the rest of the app shows. Each
known wrong path (forgot to scale, divided by d_k, softmax down the columns, K Qᵀ instead
of Q Kᵀ, unscaled scores in softmax, rounding too early, a missing or flipped mask) is
also computed by the core, so the checker can name the slip when an answer matches one.

Feedback messages are plain text (Unicode maths, no Markdown), so a page can show them
verbatim, whatever the learner typed.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_core.attention import AttentionTrace
from attention_core.errors import InputError
from attention_core.masks import causal_mask
from attention_core.parsing import parse_matrix
from attention_core.presets import hungry, paper_toy, quiz88
from attention_core.scenario import Scenario
from attention_core.softmax import softmax
from attention_core.types import BoolArray, FloatArray

EXACT_TOLERANCE = 1e-6

# Short names for the slips the checker recognises (used in feedback and progress files).
MISTAKE_LABELS: dict[str, str] = {
    "unscaled": "forgot to scale",
    "divided_by_dk": "divided by d_k instead of √d_k",
    "multiplied": "multiplied by √d_k instead of dividing",
    "softmax_columns": "softmax over the wrong axis (columns)",
    "transposed": "transposed the product",
    "softmax_unscaled": "used the unscaled scores in softmax",
    "rounded_early": "rounded too early",
    "no_mask": "left out the mask",
    "mask_flipped": "mask on the wrong side",
    "mask_no_self": "masked the diagonal too",
    "wrong_projection": "used the wrong projection matrix",
    "percent_mixed": "mixed percentages and fractions",
    "too_few_decimals": "rounded to too few decimals",
}

STATUS_RIGHT = "right"
STATUS_WRONG = "wrong"
STATUS_NOT_TRIED = "not tried"


# ---- data -----------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Mistake:
    """A known wrong path and the answer it produces (computed by the core)."""

    key: str  # one of MISTAKE_LABELS
    value: FloatArray
    message: str

    @property
    def label(self) -> str:
        return MISTAKE_LABELS[self.key]


@dataclass(frozen=True, eq=False)
class Variant:
    """An accepted answer. ``label`` says how it was reached (empty when only one is accepted)."""

    label: str
    value: FloatArray


@dataclass(frozen=True, eq=False)
class NumericStep:
    """One number or small matrix to compute.

    ``accepted[0]`` is the core's full-precision answer; later entries are other answers
    the lesson itself reaches (for example with rounded weights). ``decimals`` is the
    rounding the prompt asks for; ``None`` means exact. ``kind`` is "matrix", "weights"
    (rows sum to 1; percentages accepted when ``percent``) or "mask" (1 = may attend).
    """

    id: str
    title: str  # short plain-text name, e.g. "Q Kᵀ"
    symbol: str  # LaTeX for the solution, e.g. r"QK^\top"
    prompt: str  # Markdown, may hold LaTeX
    accepted: tuple[Variant, ...]
    decimals: int | None
    layout: str  # what rows and columns stand for
    hints: tuple[str, ...] = ()
    explanation: str = ""  # Markdown: how the solution is computed
    mistakes: tuple[Mistake, ...] = ()
    kind: str = "matrix"
    percent: bool = False

    @property
    def expected(self) -> FloatArray:
        return self.accepted[0].value

    @property
    def shape(self) -> tuple[int, int]:
        rows, cols = self.expected.shape
        return int(rows), int(cols)

    @property
    def tolerance(self) -> float:
        return tolerance(self.decimals)


@dataclass(frozen=True)
class Choice:
    text: str  # Markdown
    correct: bool
    explanation: str  # plain text: why this option is right or wrong
    mistake: str | None = None  # a short name for the misconception


@dataclass(frozen=True)
class ChoiceStep:
    """A multiple-choice question. ``see_also`` is a page key (e.g. "scaling-lab") to link to."""

    id: str
    title: str
    prompt: str
    choices: tuple[Choice, ...]
    hints: tuple[str, ...] = ()
    explanation: str = ""  # Markdown, shown with the solution
    see_also: str = ""

    @property
    def answer_index(self) -> int:
        return next(i for i, c in enumerate(self.choices) if c.correct)


Step = NumericStep | ChoiceStep


@dataclass(frozen=True, eq=False)
class Exercise:
    """One card: what is given (``statement``), the steps to compute, and a scenario to open."""

    id: str
    title: str
    short_title: str
    source: str
    statement: str  # Markdown with LaTeX
    scenario: Scenario
    steps: tuple[Step, ...]

    def step(self, step_id: str) -> Step:
        return next(s for s in self.steps if s.id == step_id)


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer. ``message`` is plain text, safe to show verbatim."""

    correct: bool
    message: str
    mistake: str | None = None  # a MISTAKE_LABELS key, or a Choice's mistake name
    variant: str | None = None  # which accepted answer matched, when there are several


# ---- tolerance and parsing ------------------------------------------------------------
def tolerance(decimals: int | None) -> float:
    """Half a unit in the last asked decimal (the rounding itself) plus half a unit of slack.

    The slack forgives rounding in an earlier step (the paper guide's 0.3303 for 0.33024).
    ``None`` (exact answers, e.g. integer scores) gets a tiny float tolerance.
    """
    if decimals is None:
        return EXACT_TOLERANCE
    return 10.0**-decimals  # 0.5 unit (rounding) + 0.5 unit (slack)


_PERCENT = re.compile(r"%")
_CELL = re.compile(r"[^\s,;\[\]]+")


def parse_answer(text: str, allow_percent: bool = False) -> tuple[FloatArray, bool]:
    """Parse typed numbers into a (rows, cols) array; return it and whether '%' was used.

    With ``allow_percent``, '80.4 %' and '80.4%' are read as 0.804. Using '%' on some
    numbers but not others is an InputError, as is '%' where the step wants plain numbers.
    """
    text = text or ""
    n_percent = len(_PERCENT.findall(text))
    if n_percent and not allow_percent:
        raise InputError("this step asks for plain numbers: leave out the % signs", where="answer")
    M = parse_matrix(_PERCENT.sub(" ", text) if n_percent else text, name="")
    if not n_percent:
        return M, False
    if n_percent != M.size:
        raise InputError(
            "put a % sign after every number or after none of them "
            f"(found {_count(n_percent, '% sign')} for {_count(M.size, 'number')})",
            where="percent",
        )
    return M / 100.0, True


# ---- checking -------------------------------------------------------------------------
def check_answer(step: NumericStep, text: str) -> Feedback:
    """Check what the learner typed for ``step``. Never raises on bad input.

    Order: unreadable -> accepted answers (the nearest one wins, so the learner is told
    which one they used) -> known mistakes -> wrong shape -> which numbers are off.
    """
    if not (text or "").strip():
        return Feedback(False, f"Type your answer first: {answer_format(step)}.")
    try:
        answer, used_percent = parse_answer(text, allow_percent=step.percent)
    except InputError as exc:
        mistake = "percent_mixed" if exc.where == "percent" else None
        return Feedback(False, f"Could not read that answer: {exc.message}.", mistake=mistake)
    note = ""
    if step.percent and not used_percent and _looks_like_percentages(answer):
        answer = answer / 100.0
        note = " (Read as percentages; a % sign makes that explicit.)"
    hit = _closest(answer, step.accepted, step.tolerance)
    if hit is not None:
        fb = _right(step, answer, hit)
        return Feedback(True, fb.message + note, variant=fb.variant)
    for m in step.mistakes:  # a wrong path followed exactly
        if _close(answer, m.value, step.tolerance):
            return Feedback(False, m.message, mistake=m.key)
    typed = _typed_decimals(text)
    if typed is not None and (used_percent or note):
        typed += 2  # 80.4 % has one decimal as a percentage, three as a fraction
    if _rounded_too_coarsely(step, answer, typed):
        asked, given, unit = step.decimals or 0, typed or 0, ""
        if used_percent or note:
            asked, given, unit = asked - 2, given - 2, " in a percentage"
        return Feedback(
            False,
            f"On the right track, but rounded too coarsely: this step asks for "
            f"{_count(asked, 'decimal')}{unit} and your answer has {given}.",
            mistake="too_few_decimals",
        )
    slip_tol = _mistake_tolerance(step, typed)
    for m in step.mistakes:  # a wrong path, rounded more coarsely than asked
        if _close(answer, m.value, slip_tol):
            return Feedback(False, m.message, mistake=m.key)
    if answer.shape != step.expected.shape:
        return Feedback(
            False,
            f"Your answer is {_shape(answer.shape)}, but this step needs "
            f"{_shape(step.shape)} ({step.layout}).",
        )
    return Feedback(False, _wrong_values_message(step, answer))


def _looks_like_percentages(answer: FloatArray) -> bool:
    """Weights typed as percentages without the sign: non-negative rows adding up to ~100."""
    return bool(
        np.all(answer >= 0)
        and np.any(answer > 1.5)
        and np.allclose(answer.sum(axis=1), 100.0, atol=1.0)
    )


_TYPED_NUMBER = re.compile(r"\d*\.(\d+)|\d+")


def _rounded_too_coarsely(step: NumericStep, answer: FloatArray, typed: int | None) -> bool:
    """The right numbers, correctly rounded, but to fewer decimals than the step asks for."""
    if step.decimals is None or typed is None or typed >= step.decimals:
        return False
    return _close(answer, np.round(step.expected, typed), 1e-9)


def _typed_decimals(text: str) -> int | None:
    """The fewest decimals among the typed numbers ('0.71, 1.4142' -> 2)."""
    decimals = [len(m.group(1) or "") for m in _TYPED_NUMBER.finditer(text)]
    return min(decimals) if decimals else None


def _mistake_tolerance(step: NumericStep, typed: int | None) -> float:
    """How close an answer must be to a known wrong path to name it.

    A learner who rounds a wrong path to fewer decimals than asked (0.714 for 1/1.4) is
    still on that path, so allow for the learner's own rounding, up to 10x the step's.
    """
    own = 0.6 * 10.0**-typed if typed is not None else 0.0
    return max(step.tolerance, min(own, 10 * step.tolerance))


def check_choice(step: ChoiceStep, index: int | None) -> Feedback:
    """Check a multiple-choice answer (``index`` into ``step.choices``; None = nothing picked)."""
    if index is None or not 0 <= index < len(step.choices):
        return Feedback(False, "Pick one of the answers first.")
    choice = step.choices[index]
    if choice.correct:
        return Feedback(True, f"Right. {choice.explanation}")
    return Feedback(False, f"Not this one. {choice.explanation}", mistake=choice.mistake)


def _closest(answer: FloatArray, accepted: tuple[Variant, ...], tol: float) -> Variant | None:
    """The accepted answer nearest to ``answer`` among those within ``tol``, if any."""
    fits = [v for v in accepted if _close(answer, v.value, tol)]
    if not fits:
        return None
    return min(fits, key=lambda v: float(np.max(np.abs(answer - v.value))))


def _close(a: FloatArray, b: FloatArray, tol: float) -> bool:
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol + 1e-12))


def _right(step: NumericStep, answer: FloatArray, hit: Variant) -> Feedback:
    msg = "Correct"
    if len(step.accepted) > 1 and hit.label:
        msg += f": you used {hit.label}"
    msg += "."
    if step.decimals is not None and hit.label == step.accepted[0].label:
        rounded = np.round(hit.value, step.decimals)
        if not np.allclose(np.round(answer, step.decimals), rounded, atol=1e-12, rtol=0):
            msg += (
                f" Accepted within the rounding; at full precision this rounds to "
                f"{format_value(hit.value, step.decimals)}."
            )
    return Feedback(True, msg, variant=hit.label or None)


def _wrong_values_message(step: NumericStep, answer: FloatArray) -> str:
    off = np.abs(answer - step.expected) > step.tolerance + 1e-12
    n_off, n = int(off.sum()), off.size
    verb = "is" if n_off == 1 else "are"
    if step.decimals is None:
        msg = f"Not yet: {n_off} of {_count(n, 'number')} {verb} wrong."
    else:
        within = _tolerance_text(step)
        msg = f"Not yet: {n_off} of {_count(n, 'number')} {verb} off by more than {within}."
    if n > 1:
        r, c = (int(i) + 1 for i in np.argwhere(off)[0])
        msg += f" The first one off is row {r}, column {c}."
    if step.kind == "weights":
        sums = answer.sum(axis=1)
        bad = np.flatnonzero(np.abs(sums - 1.0) > max(step.tolerance * answer.shape[1], 1e-3))
        if bad.size:
            i = int(bad[0])
            msg += f" Weights in a row must add up to 1, but row {i + 1} adds up to {sums[i]:.4g}."
    if step.kind == "mask" and not np.all(np.isin(answer, (0.0, 1.0))):
        msg += " Use only 1 (may attend) and 0 (blocked)."
    return msg + " Ask for a hint if you are stuck."


# ---- text helpers ---------------------------------------------------------------------
def _shape(shape: tuple[int, ...]) -> str:
    rows, cols = shape
    return f"{rows} {_plural(rows, 'row')} × {cols} {_plural(cols, 'column')}"


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _tolerance_text(step: NumericStep) -> str:
    d = step.decimals if step.decimals is not None else 6
    return f"±{tolerance(step.decimals):.{d}f}"


def _count(n: int, word: str) -> str:
    return f"{n} {_plural(n, word)}"


def answer_format(step: NumericStep) -> str:
    """What the answer should look like, e.g. '1 row × 2 columns, to 4 decimals'."""
    if step.decimals is None:
        rounding = "exact values"
    elif step.decimals == 0:
        rounding = "whole numbers"
    else:
        rounding = f"to {step.decimals} decimals"
    extra = " (or as percentages, e.g. 80.4 %)" if step.percent else ""
    return f"{_shape(step.shape)}, {rounding}{extra}"


def format_value(M: FloatArray, decimals: int | None, sep: str = "; ") -> str:
    """Numbers as a learner would type them: ', ' between numbers, ``sep`` between rows."""
    d = 4 if decimals is None else decimals
    rows = []
    for row in np.atleast_2d(M):
        cells = []
        for x in row:
            x = round(float(x), d) + 0.0  # + 0.0 turns -0.0 into 0.0
            cells.append(str(int(x)) if x == int(x) else f"{x:.{d}f}")
        rows.append(", ".join(cells))
    return sep.join(rows)


def _tex(M: FloatArray, decimals: int | None = None) -> str:
    body = format_value(M, decimals, sep=r" \\ ").replace(", ", " & ")
    return r"\begin{bmatrix} " + body + r" \end{bmatrix}"


# ---- wrong paths, computed by the core ------------------------------------------------
def _masked(S: FloatArray, mask: BoolArray | None) -> FloatArray:
    return S if mask is None else np.where(mask, S, -np.inf)


def _weights(S: FloatArray, mask: BoolArray | None, axis: int = -1) -> FloatArray:
    """softmax of ``S`` (n_q, n_k) after the mask, along ``axis``. Returns (n_q, n_k)."""
    return softmax(_masked(S, mask), axis=axis)


def _wrong_weights(t: AttentionTrace) -> list[tuple[str, FloatArray]]:
    """(mistake key, weights (n_q, n_k)) for each wrong path into the softmax."""
    sqrt_dk = math.sqrt(t.d_k)
    out = [
        ("softmax_unscaled", _weights(t.scores, t.mask)),
        ("divided_by_dk", _weights(t.scores / t.d_k, t.mask)),
        ("multiplied", _weights(t.scores * sqrt_dk, t.mask)),
        ("softmax_columns", _weights(t.scaled_scores, t.mask, axis=0)),
        ("rounded_early", _weights(np.round(t.scaled_scores, 1), t.mask)),
    ]
    if t.mask is not None:
        out.append(("no_mask", _weights(t.scaled_scores, None)))
        if t.mask.shape[0] == t.mask.shape[1]:
            out.append(("mask_flipped", _weights(t.scaled_scores, t.mask.T)))
    return out


def _scores_mistakes(t: AttentionTrace) -> list[Mistake]:
    return [
        Mistake(
            "transposed",
            t.scores.T,  # (n_k, n_q) = K Qᵀ
            "These are the right dot products in the wrong layout: you computed K Qᵀ, the "
            "transpose. Q Kᵀ has one row per query and one column per key.",
        )
    ]


def _scaled_mistakes(t: AttentionTrace) -> list[Mistake]:
    d, r = t.d_k, math.sqrt(t.d_k)
    out = [
        Mistake(
            "unscaled",
            t.scores,
            f"These are the raw scores Q Kᵀ: you forgot to scale. Divide each one by "
            f"√d_k = √{d} ≈ {r:.4g}.",
        ),
        Mistake(
            "divided_by_dk",
            t.scores / d,
            f"It looks like you divided by d_k = {d}. The scale is 1/√d_k: divide by "
            f"√{d} ≈ {r:.4g} instead.",
        ),
        Mistake(
            "multiplied",
            t.scores * r,
            f"It looks like you multiplied by √d_k ≈ {r:.4g}. Scaling divides the scores by "
            "√d_k, which makes them smaller.",
        ),
        Mistake(
            "transposed",
            t.scaled_scores.T,
            "Right numbers, wrong layout: this is K Qᵀ / √d_k, the transpose. Keep one row "
            "per query and one column per key.",
        ),
    ]
    if r != round(r):
        out.append(
            Mistake(
                "rounded_early",
                t.scores / round(r, 1),
                f"Close, but it looks like you rounded √{d} to {round(r, 1)} before dividing. "
                f"Keep more digits (√{d} ≈ {r:.4f}) until the final rounding.",
            )
        )
    return out


_WEIGHT_MESSAGES = {
    "softmax_unscaled": "It looks like you took the softmax of the unscaled scores Q Kᵀ. "
    "Divide by √d_k first, then apply softmax.",
    "divided_by_dk": "It looks like the scores were divided by d_k before the softmax. "
    "The scale is 1/√d_k.",
    "multiplied": "It looks like the scores were multiplied by √d_k before the softmax. "
    "Divide by √d_k instead.",
    "softmax_columns": "It looks like you took the softmax down each column. Softmax runs "
    "along each row: one query's weights over all the keys add up to 1.",
    "rounded_early": "Close, but it looks like you rounded the scaled scores to 1 decimal "
    "before the softmax. Keep more digits until the final rounding.",
    "no_mask": "It looks like you left out the mask: every token attended to later tokens "
    "too. Blocked positions get weight exactly 0.",
    "mask_flipped": "The mask is on the wrong side: each token looked at later tokens "
    "instead of earlier ones. A causal mask blocks everything above the diagonal.",
}


def _weights_mistakes(t: AttentionTrace) -> list[Mistake]:
    out = [Mistake(k, w, _WEIGHT_MESSAGES[k]) for k, w in _wrong_weights(t)]
    out.append(
        Mistake(
            "transposed",
            t.weights.T,
            "Right numbers, wrong layout: rows and columns are swapped. Each row is one "
            "query's weights over the keys.",
        )
    )
    return out


_OUTPUT_MESSAGES = {
    "softmax_unscaled": "It looks like these weights came from the unscaled scores: you "
    "forgot to scale before the softmax.",
    "divided_by_dk": "It looks like the scores were divided by d_k instead of √d_k on the "
    "way to the weights.",
    "multiplied": "It looks like the scores were multiplied by √d_k instead of divided.",
    "softmax_columns": "It looks like the weights came from a softmax down the columns. "
    "Each query's row of weights should add up to 1.",
    "rounded_early": "Close, but it looks like the scaled scores were rounded to 1 decimal "
    "before the softmax. Keep more digits until the end.",
    "no_mask": "It looks like you left out the mask, so tokens also mixed in values of "
    "later tokens.",
    "mask_flipped": "The mask is on the wrong side: each token mixed in later tokens' "
    "values instead of earlier ones.",
}


def _output_mistakes(t: AttentionTrace, weight_decimals: int) -> list[Mistake]:
    keys = {"softmax_unscaled": "unscaled"}  # at the output, the slip is "forgot to scale"
    out = [
        Mistake(keys.get(k, k), w @ t.V, _OUTPUT_MESSAGES[k])  # (n_q, n_k) @ (n_k, d_v)
        for k, w in _wrong_weights(t)
    ]
    for r in range(1, weight_decimals):
        out.append(
            Mistake(
                "rounded_early",
                np.round(t.weights, r) @ t.V,  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v)
                f"Close, but it looks like you rounded the weights to {r} "
                f"decimal{'s' if r > 1 else ''} before multiplying by V. Keep at least "
                f"{weight_decimals} decimals until the final answer.",
            )
        )
    out.append(
        Mistake(
            "transposed",
            t.output.T,
            "Right numbers, wrong layout: the output has one row per query and one column "
            "per value dimension (weights · V, not Vᵀ · weightsᵀ).",
        )
    )
    return out


# ---- building steps -------------------------------------------------------------------
QK_LAYOUT = "one row per query, one column per key"
OUT_LAYOUT = "one row per query, one column per value dimension"
SCALED_TEX = r"\frac{QK^\top}{\sqrt{d_k}}"
WEIGHTS_TEX = r"\operatorname{softmax}\!\left(" + SCALED_TEX + r"\right)"


def _numeric(
    *,
    accepted: list[Variant],
    mistakes: list[Mistake],
    decimals: int | None,
    **fields: Any,
) -> NumericStep:
    """A NumericStep whose mistakes are only those the checker can tell apart.

    A wrong path that lands within the tolerance of an accepted answer (e.g. d_k = 1 makes
    "forgot to scale" harmless) or gives non-finite numbers is dropped.
    """
    tol = tolerance(decimals)
    kept = [
        m
        for m in mistakes
        if np.all(np.isfinite(m.value)) and not any(_close(m.value, v.value, tol) for v in accepted)
    ]
    frozen = [Variant(v.label, _readonly(v.value)) for v in accepted]
    kept = [Mistake(m.key, _readonly(m.value), m.message) for m in kept]
    return NumericStep(accepted=tuple(frozen), mistakes=tuple(kept), decimals=decimals, **fields)


def _readonly(M: FloatArray) -> FloatArray:
    A = np.array(M, dtype=np.float64)
    A.flags.writeable = False
    return A


def scores_step(t: AttentionTrace, **fields: Any) -> NumericStep:
    """Q Kᵀ (n_q, n_k), exact."""
    return _numeric(
        id="scores",
        title="Q Kᵀ",
        symbol=r"QK^\top",
        accepted=[Variant("", t.scores)],
        mistakes=_scores_mistakes(t),
        decimals=fields.pop("decimals", None),
        layout=QK_LAYOUT,
        **fields,
    )


def scaled_step(t: AttentionTrace, decimals: int | None, **fields: Any) -> NumericStep:
    """Q Kᵀ / √d_k (n_q, n_k)."""
    return _numeric(
        id="scaled",
        title="Q Kᵀ / √d_k",
        symbol=SCALED_TEX,
        accepted=[Variant("", t.scaled_scores)],
        mistakes=_scaled_mistakes(t),
        decimals=decimals,
        layout=QK_LAYOUT,
        **fields,
    )


def weights_step(
    t: AttentionTrace, decimals: int, percent: bool = False, **fields: Any
) -> NumericStep:
    """softmax(Q Kᵀ / √d_k) row by row (n_q, n_k)."""
    return _numeric(
        id="weights",
        title="weights",
        symbol=WEIGHTS_TEX,
        accepted=[Variant("", t.weights)],
        mistakes=_weights_mistakes(t),
        decimals=decimals,
        layout=QK_LAYOUT,
        kind="weights",
        percent=percent,
        **fields,
    )


def output_step(
    t: AttentionTrace,
    decimals: int,
    weight_decimals: int,
    rounded_weights: FloatArray | None = None,
    rounded_label: str = "",
    **fields: Any,
) -> NumericStep:
    """weights · V (n_q, d_v); the lesson's ``rounded_weights`` give a second accepted answer."""
    accepted = [Variant("", t.output)]
    if rounded_weights is not None:
        accepted = [
            Variant("the full-precision weights", t.output),
            Variant(rounded_label, rounded_weights @ t.V),  # (n_q, n_k) @ (n_k, d_v)
        ]
    return _numeric(
        id="output",
        title="output",
        symbol=WEIGHTS_TEX + "V",
        accepted=accepted,
        mistakes=_output_mistakes(t, weight_decimals),
        decimals=decimals,
        layout=OUT_LAYOUT,
        **fields,
    )


# ---- the exercises --------------------------------------------------------------------
def _paper_toy() -> Exercise:
    s = paper_toy()
    t = s.trace()
    guide_weights = np.array([[0.3303, 0.6697]])  # the guide's printed (rounded) weights
    return Exercise(
        id="paper_toy",
        title="The paper guide's toy: one query, two keys",
        short_title="1 · Paper toy",
        source="Paper guide: scaled dot-product attention",
        statement=(
            "One query, two keys, one value per key, with $d_k = 2$:\n\n"
            f"$$Q = {_tex(t.Q)},\\quad K = {_tex(t.K)},\\quad V = {_tex(t.V)}$$\n\n"
            "Compute $\\operatorname{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V$ "
            "one step at a time."
        ),
        scenario=s,
        steps=(
            scores_step(
                t,
                prompt="**Step 1.** Multiply the query by the transposed keys: $QK^\\top$.",
                hints=(
                    "Each entry is a dot product: the query [1, 2] with one key.",
                    "K is the identity, so each key picks out one coordinate of the query.",
                ),
                explanation="Each key is a unit vector, so the dot products just read off "
                "the query's two coordinates.",
            ),
            scaled_step(
                t,
                decimals=4,
                prompt="**Step 2.** Scale the scores: divide by $\\sqrt{d_k}$ (4 decimals).",
                hints=(
                    "d_k is the length of each key vector: here 2.",
                    "√2 ≈ 1.41421. Divide both scores by it.",
                ),
                explanation="Both scores are divided by $\\sqrt{2} \\approx 1.41421$.",
            ),
            weights_step(
                t,
                decimals=4,
                prompt="**Step 3.** Apply softmax to the scaled scores (4 decimals).",
                hints=(
                    "softmax(z)_i = e^(z_i) / Σ_j e^(z_j), along the row.",
                    "e^0.7071 ≈ 2.028 and e^1.4142 ≈ 4.113; divide each by their sum.",
                ),
                explanation="Exponentiate both scaled scores and divide by their sum. The "
                "guide prints 0.3303 / 0.6697; full precision rounds to 0.3302 / 0.6698, "
                "and either is accepted.",
            ),
            output_step(
                t,
                decimals=3,
                weight_decimals=4,
                rounded_weights=guide_weights,
                rounded_label="the guide's rounded weights 0.3303 / 0.6697",
                prompt="**Step 4.** Multiply the weights by $V$ (3 decimals).",
                hints=(
                    "The output is a weighted average of the values 10 and 20.",
                    "weight₁ · 10 + weight₂ · 20.",
                ),
                explanation="A weighted average of 10 and 20, leaning towards 20 because the "
                "second key matched better. Full-precision weights give 16.698; the guide's "
                "rounded weights give 16.697.",
            ),
        ),
    )


def _hungry() -> Exercise:
    s = hungry()
    t = s.trace()
    lesson_weights = np.round(t.weights, 3)  # the post's 0.844 / 0.114 / 0.042
    return Exercise(
        id="hungry",
        title="“…because it was hungry”: what does “it” look at?",
        short_title="2 · “it was hungry”",
        source="Post: attention, the mathematics behind context",
        statement=(
            "In *The animal in the jungle went out on a hunt because it was hungry*, the "
            "query for **it** meets the keys of **animal**, **jungle** and **hunt**. Its raw "
            f"dot products are ${_tex(t.scores)}$ with $d_k = {t.d_k}$, and the value "
            "vectors are\n\n"
            f"$$V = {_tex(t.V)} \\quad \\text{{(animal, jungle, hunt)}}$$"
        ),
        scenario=s,
        steps=(
            scaled_step(
                t,
                decimals=None,
                prompt="**Step 1.** Scale the raw scores: divide by $\\sqrt{d_k}$.",
                hints=("d_k = 4, so √d_k = 2.",),
                explanation="Dividing by $\\sqrt{4} = 2$ gives the post's scaled scores.",
            ),
            weights_step(
                t,
                decimals=3,
                prompt="**Step 2.** Turn the scaled scores into attention weights with "
                "softmax (3 decimals), in the order animal, jungle, hunt.",
                hints=(
                    "e³ ≈ 20.09, e¹ ≈ 2.72, e⁰ = 1.",
                    "Divide each exponential by their sum (≈ 23.81).",
                ),
                explanation="“animal” gets about 84 % of the attention.",
            ),
            output_step(
                t,
                decimals=3,
                weight_decimals=3,
                rounded_weights=lesson_weights,
                rounded_label="the rounded weights 0.844 / 0.114 / 0.042",
                prompt="**Step 3.** Mix the value vectors with the weights: the output "
                "for **it** (a row of 2 numbers, 3 decimals).",
                hints=(
                    "output = w_animal · [2, 4] + w_jungle · [6, 2] + w_hunt · [1, 8].",
                    "Do the first coordinate and the second coordinate separately.",
                ),
                explanation="With the rounded weights the post gets [2.414, 3.94]; at full "
                "precision it is [2.41477, 3.93965]. Both are accepted. The value of "
                "“animal” dominates.",
            ),
        ),
    )


def _quiz88() -> Exercise:
    s = quiz88()
    t = s.trace()
    return Exercise(
        id="quiz88",
        title="Lesson 88's quiz: two keys",
        short_title="3 · Lesson 88 quiz",
        source="Lesson 88: calculating attention scores",
        statement=(
            "A query and two keys, with $d_k = 2$:\n\n"
            f"$$q = {_tex(t.Q)},\\quad k_1 = {_tex(t.K[:1])},\\quad k_2 = {_tex(t.K[1:])}$$"
        ),
        scenario=s,
        steps=(
            scores_step(
                t,
                prompt="**Step 1.** The unscaled scores $q \\cdot k_1$ and $q \\cdot k_2$ "
                "(one row: 2 numbers).",
                hints=("q · k₁ = 1·1 + 2·1.",),
                explanation="Multiply matching coordinates and add them up.",
            ),
            scaled_step(
                t,
                decimals=4,
                prompt="**Step 2.** The scaled scores: divide by $\\sqrt{d_k}$ (4 decimals).",
                hints=("√2 ≈ 1.41421.",),
                explanation="Both scores are divided by $\\sqrt{2}$.",
            ),
            weights_step(
                t,
                decimals=3,
                percent=True,
                prompt="**Step 3.** The attention weights after softmax, as fractions "
                "(3 decimals) or as percentages (1 decimal, e.g. `12.3 %`).",
                hints=(
                    "e^2.1213 ≈ 8.34 and e^0.7071 ≈ 2.03.",
                    "Divide each exponential by their sum.",
                ),
                explanation="The first key gets about 80.4 % of the attention, the second 19.6 %.",
            ),
        ),
    )


def _why_scale() -> Exercise:
    s = saturation_scenario()
    return Exercise(
        id="why_scale",
        title="Lesson 89's question: why not remove the scaling?",
        short_title="4 · Why scale?",
        source="Lesson 89: understanding scaled dot-product attention",
        statement=(
            "An engineer proposes to drop the $\\frac{1}{\\sqrt{d_k}}$ factor to make the "
            "model simpler and a little faster. The scenario for this card uses $d_k = 32$ "
            "with the scaling switched **off**: open it in the walkthrough and look at the "
            "weights."
        ),
        scenario=s,
        steps=(
            ChoiceStep(
                id="choice",
                title="What goes wrong?",
                prompt="What is the main problem you expect during training?",
                choices=(
                    Choice(
                        "Nothing: softmax gives the same weights whatever the scale of the scores.",
                        False,
                        "Softmax ignores adding the same number to every score, not "
                        "multiplying them. Bigger scores give sharper weights.",
                        "thinks softmax ignores scale",
                    ),
                    Choice(
                        "The dot products grow with $d_k$, softmax saturates (weights near "
                        "0 or 1) and its gradients almost vanish, so learning stalls.",
                        True,
                        "A dot product of d_k unit-variance terms has variance d_k, so "
                        "without the scale the scores spread out as d_k grows. Softmax then "
                        "puts almost all the weight on one key, and its gradients are nearly "
                        "zero, so the weights that made Q and K barely learn.",
                    ),
                    Choice(
                        "The weights in a row would no longer add up to 1.",
                        False,
                        "Softmax always divides by the row's total, so each row still adds "
                        "up to 1 with or without the scale.",
                        "thinks scaling normalises the rows",
                    ),
                    Choice(
                        "The output would have the wrong shape.",
                        False,
                        "Dividing by a number changes no shapes: the output is still one "
                        "row per query and one column per value dimension.",
                        "thinks scaling changes shapes",
                    ),
                ),
                hints=(
                    "What happens to the spread of q · k when you add more and more terms?",
                    "Look at softmax([1, 2]) and softmax([10, 20]).",
                ),
                explanation="Without $1/\\sqrt{d_k}$ the scores' spread grows like "
                "$\\sqrt{d_k}$, the softmax saturates and its gradients vanish. The scaling "
                "lab lets you sweep $d_k$ and watch it happen.",
                see_also="scaling-lab",
            ),
        ),
    )


def _causal() -> Exercise:
    s = causal_scenario()
    t = s.trace()
    return Exercise(
        id="causal",
        title="A causal mask: no peeking ahead",
        short_title="5 · Causal mask",
        source="Lesson 89's optional Mask step",
        statement=(
            "Self-attention over the three tokens *I like tea*, with a **causal mask**: a "
            "token may attend to itself and to earlier tokens, never to later ones. "
            f"Here $d_k = {t.d_k}$ and\n\n"
            f"$$Q = {_tex(t.Q)},\\quad K = {_tex(t.K)},\\quad V = {_tex(t.V)}$$"
        ),
        scenario=s,
        steps=(
            scaled_step(
                t,
                decimals=None,
                prompt="**Step 1.** The scaled scores $QK^\\top/\\sqrt{d_k}$ for every "
                "pair, before masking (a 3 × 3 matrix; one row per line).",
                hints=(
                    "Row i, column j is (query i · key j) / 2.",
                    "Query 1 · key 1 = 2·1 + 0 + 0 + 0·1 = 2, so the top-left entry is 1.",
                ),
                explanation="All nine dot products divided by $\\sqrt{4} = 2$.",
            ),
            _numeric(
                id="mask",
                title="mask",
                symbol=r"\text{mask}",
                prompt="**Step 2.** Write the causal mask: 1 where the query (row) may "
                "attend to the key (column), 0 where it is blocked.",
                accepted=[Variant("", causal_mask(3).astype(float))],
                mistakes=_mask_mistakes(causal_mask(3)),
                decimals=None,
                layout="one row per query, one column per key",
                kind="mask",
                hints=(
                    "Token 1 (“I”) can only see itself.",
                    "Allowed entries are on and below the diagonal.",
                ),
                explanation="Lower triangle and diagonal are 1; everything above the "
                "diagonal (the future) is 0.",
            ),
            weights_step(
                t,
                decimals=3,
                prompt="**Step 3.** The attention weights: blocked scores become $-\\infty$ "
                "before the softmax, so they get weight 0 (3 decimals).",
                hints=(
                    "Row 1 has only one allowed key, so its weight is 1.",
                    "Row 2 is softmax([0, 2]) on the two allowed keys, then 0 for the third.",
                ),
                explanation="Each row's softmax only shares the weight among the allowed "
                "keys; blocked keys get exactly 0.",
            ),
            output_step(
                t,
                decimals=3,
                weight_decimals=3,
                prompt="**Step 4.** The outputs: weights times $V$ (a 3 × 2 matrix, 3 decimals).",
                hints=(
                    "The first token can only see itself, so its output is its own value.",
                    "Row i of the output is Σ_j weight[i, j] · V[j].",
                ),
                explanation="“I” keeps its own value; later tokens mix in earlier values.",
            ),
        ),
    )


def _mask_mistakes(mask: BoolArray) -> list[Mistake]:
    m = mask.astype(float)
    return [
        Mistake(
            "mask_flipped",
            m.T,
            "This mask lets each token see later tokens and hides earlier ones: it is on "
            "the wrong side of the diagonal. Rows are queries, columns are keys.",
        ),
        Mistake(
            "mask_no_self",
            np.tril(m, k=-1),
            "This mask also blocks the diagonal, so a token could not attend to itself "
            "(and the first token would have nothing to attend to). Keep the diagonal at 1.",
        ),
    ]


def _embeddings() -> Exercise:
    s = embeddings_scenario()
    Q, K, V = s.qkv()
    t = s.trace()
    projections = {"Q": (Q, "W_q"), "K": (K, "W_k"), "V": (V, "W_v")}
    steps: list[Step] = [
        _numeric(
            id=name.lower(),
            title=name,
            symbol=f"{name} = XW_{name.lower()}",
            prompt=f"**Step {i}.** Project the embeddings: ${name} = XW_{name.lower()}$ "
            "(3 rows, one per token).",
            accepted=[Variant("", M)],
            mistakes=[
                Mistake(
                    "transposed",
                    M.T,
                    f"Right numbers, wrong layout: {name} has one row per token. Compute "
                    f"X · {w}, not its transpose.",
                ),
                *(
                    Mistake(
                        "wrong_projection",
                        other,
                        f"This is X · {other_w}, which gives {other_name}. "
                        f"{name} comes from X · {w}.",
                    )
                    for other_name, (other, other_w) in projections.items()
                    if other_name != name
                ),
            ],
            decimals=None,
            layout="one row per token, one column per dimension",
            hints=(
                f"Row i of {name} is the embedding of token i times {w}.",
                f"Row 3 of X is [1, 1], so row 3 of {name} is the sum of {w}'s two rows.",
            ),
            explanation=f"Every token's embedding (a row of $X$) times $W_{name.lower()}$.",
        )
        for i, (name, (M, w)) in enumerate(projections.items(), start=1)
    ]
    steps += [
        scaled_step(
            t,
            decimals=3,
            prompt="**Step 4.** The scaled scores $QK^\\top/\\sqrt{d_k}$ (3 × 3, 3 decimals).",
            hints=(
                "First Q Kᵀ: row i, column j is query i · key j.",
                "Then divide everything by √2 ≈ 1.41421.",
            ),
            explanation="All nine dot products, divided by $\\sqrt{2}$.",
        ),
        weights_step(
            t,
            decimals=3,
            prompt="**Step 5.** The attention weights, softmax along each row (3 × 3, 3 decimals).",
            hints=("Each row must add up to 1.", "Row 1 is softmax([0.707, 0, 0.707])."),
            explanation="Each row is one token's attention over all three tokens.",
        ),
        output_step(
            t,
            decimals=3,
            weight_decimals=3,
            prompt="**Step 6.** The outputs: weights times $V$ (3 × 2, 3 decimals).",
            hints=("Row i of the output is Σ_j weight[i, j] · V[j].",),
            explanation="Each token's output is a blend of all three value vectors.",
        ),
    ]
    return Exercise(
        id="embeddings",
        title="Self-attention from embeddings and projections",
        short_title="6 · From embeddings",
        source="Lesson 88: from embeddings to Q, K and V",
        statement=(
            "Three tokens *cats chase mice* with 2-dimensional embeddings (one row each) "
            "and three learned projections, so $d_k = 2$:\n\n"
            f"$$X = {_tex(s.X)},\\quad W_q = {_tex(s.W_q)},\\quad W_k = {_tex(s.W_k)},"
            f"\\quad W_v = {_tex(s.W_v)}$$"
        ),
        scenario=s,
        steps=tuple(steps),
    )


def causal_scenario() -> Scenario:
    """Three tokens, d_k = 4 (scale 1/2), with a causal mask."""
    return Scenario(
        name="Exercise: causal mask",
        mode="direct",
        tokens=("I", "like", "tea"),
        Q=np.array([[2.0, 0, 0, 0], [0, 2, 2, 0], [2, 0, 2, 2]]),  # (3, d_k=4)
        K=np.array([[1.0, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 1]]),  # (3, d_k=4)
        V=np.array([[1.0, 0], [0, 1], [1, 1]]),  # (3, d_v=2)
        mask_kind="causal",
    )


def embeddings_scenario() -> Scenario:
    """Three tokens, d_model = d_k = d_v = 2, small whole-number projections."""
    return Scenario(
        name="Exercise: from embeddings",
        tokens=("cats", "chase", "mice"),
        X=np.array([[1.0, 0], [0, 1], [1, 1]]),  # (3, d_model=2)
        W_q=np.array([[1.0, 0], [1, 1]]),  # (2, d_k=2)
        W_k=np.array([[1.0, 1], [0, 1]]),  # (2, d_k=2)
        W_v=np.array([[1.0, 0], [0, 2]]),  # (2, d_v=2)
    )


def saturation_scenario(seed: int = 6, n: int = 4, d_k: int = 32) -> Scenario:
    """Unit-normal Q and K with d_k = 32 and the scaling off: most rows' softmax saturates."""
    rng = np.random.default_rng(seed)
    Q = np.round(rng.normal(size=(n, d_k)), 1) + 0.0  # (n, d_k)
    K = np.round(rng.normal(size=(n, d_k)), 1) + 0.0  # (n, d_k)
    return Scenario(
        name="Exercise: no scaling, d_k = 32",
        mode="direct",
        tokens=("big", "dot", "products", "saturate")[:n],
        Q=Q, K=K, V=np.eye(n),
        scaled=False,
    )  # fmt: skip


@functools.cache
def all_exercises() -> tuple[Exercise, ...]:
    """Every exercise, in the order the page shows them (built once per process)."""
    return (_paper_toy(), _hungry(), _quiz88(), _why_scale(), _causal(), _embeddings())


def exercise_by_id(exercise_id: str) -> Exercise:
    return next(e for e in all_exercises() if e.id == exercise_id)


# ---- progress: which steps are right --------------------------------------------------
Progress = dict[str, dict[str, dict[str, Any]]]  # exercise id -> step id -> record


def new_record() -> dict[str, Any]:
    """A step nobody has tried yet."""
    return {
        "status": STATUS_NOT_TRIED,
        "answer": "",
        "attempts": 0,
        "mistake": None,
        "variant": None,
        "message": "",
        "solution_shown": False,
    }


def get_record(progress: Progress, exercise_id: str, step_id: str) -> dict[str, Any]:
    """The record for one step, created when missing."""
    return progress.setdefault(exercise_id, {}).setdefault(step_id, new_record())


def record_attempt(
    progress: Progress, exercise_id: str, step_id: str, answer: str, feedback: Feedback
) -> dict[str, Any]:
    """Store a checked answer and its verdict; the latest check decides the status."""
    rec = get_record(progress, exercise_id, step_id)
    rec.update(
        status=STATUS_RIGHT if feedback.correct else STATUS_WRONG,
        answer=answer,
        attempts=rec["attempts"] + 1,
        mistake=feedback.mistake,
        variant=feedback.variant,
        message=feedback.message,
    )
    return rec


def count_right(progress: Progress, exercise: Exercise) -> int:
    records = progress.get(exercise.id, {})
    return sum(records.get(s.id, {}).get("status") == STATUS_RIGHT for s in exercise.steps)


def progress_rows(exercises: tuple[Exercise, ...], progress: Progress) -> list[dict[str, Any]]:
    """One flat row per step (every step, tried or not), for tables and downloads."""
    rows = []
    for ex in exercises:
        for step in ex.steps:
            rec = progress.get(ex.id, {}).get(step.id, {})
            mistake = rec.get("mistake")
            rows.append(
                {
                    "exercise": ex.id,
                    "exercise_title": ex.title,
                    "step": step.id,
                    "step_title": step.title,
                    "status": rec.get("status", STATUS_NOT_TRIED),
                    "attempts": rec.get("attempts", 0),
                    "mistake": MISTAKE_LABELS.get(mistake, mistake) if mistake else "",
                    "answer": rec.get("answer", ""),
                    "solution_shown": bool(rec.get("solution_shown", False)),
                }
            )
    return rows


def progress_json(exercises: tuple[Exercise, ...], progress: Progress) -> str:
    """The progress as a JSON document: a summary and one entry per step."""
    rows = progress_rows(exercises, progress)
    doc = {
        "app": "Attention Lab",
        "kind": "exercise progress",
        "version": 1,
        "summary": {
            "steps": len(rows),
            "right": sum(r["status"] == STATUS_RIGHT for r in rows),
            "exercises_complete": sum(
                count_right(progress, ex) == len(ex.steps) for ex in exercises
            ),
            "exercises": len(exercises),
        },
        "steps": rows,
    }
    return json.dumps(doc, indent=1, ensure_ascii=False)


def progress_csv(exercises: tuple[Exercise, ...], progress: Progress) -> str:
    """The progress as CSV, one row per step. Typed answers are defused for spreadsheets."""
    rows = progress_rows(exercises, progress)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, "answer": _csv_safe(row["answer"])})
    return buf.getvalue()


def _csv_safe(text: str) -> str:
    """Stop a spreadsheet from reading a typed answer as a formula ('=', '+', '@' ...)."""
    if text and (text[0] in "=+@\t\r" or (text[0] == "-" and not re.match(r"-\s*[\d.]", text))):
        return "'" + text
    return text
