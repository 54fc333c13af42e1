"""The exercises as data: steps, accepted answers, known mistakes and the verdict on an answer."""

from __future__ import annotations

from dataclasses import dataclass

from attention_core.i18n import N_, Message, Piece, Text, english
from attention_core.scenario import Scenario
from attention_core.types import FloatArray

EXACT_TOLERANCE = 1e-6

# Short names for the slips the checker recognises (progress files and a class's tally; the
# keys are the slips' ids, the same in every language, the names are translated where shown).
MISTAKE_LABELS: dict[str, str] = {
    "unscaled": N_("forgot to scale"),
    "divided_by_dk": N_("divided by d_k instead of √d_k"),
    "multiplied": N_("multiplied by √d_k instead of dividing"),
    "softmax_columns": N_("softmax over the wrong axis (columns)"),
    "transposed": N_("transposed the product"),
    "softmax_unscaled": N_("used the unscaled scores in softmax"),
    "rounded_early": N_("rounded too early"),
    "no_mask": N_("left out the mask"),
    "mask_flipped": N_("mask on the wrong side"),
    "mask_no_self": N_("masked the diagonal too"),
    "mask_inverted": N_("1 and 0 swapped (1 = blocked)"),
    "wrong_projection": N_("used the wrong projection matrix"),
    "percent_mixed": N_("mixed percentages and fractions"),
    "too_few_decimals": N_("rounded to too few decimals"),
    "swapped_order": N_("typed the numbers in the wrong order"),
    "wrong_head_slice": N_("used the other head's columns"),
    "scaled_by_d_model": N_("scaled by √d_model instead of the head's √d_head"),
    "heads_swapped": N_("put the heads in the wrong order"),
    "forgot_v": N_("concatenated the weights instead of the heads' outputs"),
    "forgot_w_o": N_("forgot W_O"),
    "temp_multiplied": N_("multiplied the logits by T instead of dividing"),
    "temp_squared": N_("divided the logits by T squared"),
    "topk_not_renormalised": N_("forgot to renormalise after top-k"),
    "online_no_rescale_l": N_("forgot to rescale the running sum"),
    "online_wrong_exponent": N_("rescaled the output with the wrong exponent"),
}


def tolerance(decimals: int | None) -> float:
    """Half a unit in the last asked decimal (the rounding itself) plus half a unit of slack.

    The slack forgives rounding in an earlier step (the paper guide's 0.3303 for 0.33024).
    ``None`` (exact answers, e.g. integer scores) gets a tiny float tolerance.
    """
    if decimals is None:
        return EXACT_TOLERANCE
    return 10.0**-decimals  # 0.5 unit (rounding) + 0.5 unit (slack)


@dataclass(frozen=True, eq=False)
class Mistake:
    """A known wrong path and the answer it produces (computed by the core)."""

    key: str  # one of MISTAKE_LABELS
    value: FloatArray
    said: Piece  # what the learner is told (translated where it is shown)

    @property
    def label(self) -> str:
        return MISTAKE_LABELS[self.key]

    @property
    def message(self) -> str:
        return english(self.said)


@dataclass(frozen=True, eq=False)
class Variant:
    """An accepted answer. ``label`` says how it was reached (None when only one is accepted)."""

    label: Piece | None
    value: FloatArray

    @property
    def name(self) -> str | None:
        """The label in English: which answer matched, in progress files (no language)."""
        return english(self.label) if self.label else None


@dataclass(frozen=True, eq=False)
class NumericStep:
    """One number or small matrix to compute.

    ``accepted[0]`` is the core's full-precision answer; later entries are other answers
    the lesson itself reaches (for example with rounded weights). ``decimals`` is the
    rounding the prompt asks for; ``None`` means exact. ``kind`` is "matrix", "weights"
    (rows sum to 1; percentages accepted when ``percent``) or "mask" (1 = may attend).
    """

    id: str
    title: Text  # short plain-text name, e.g. "Q Kᵀ"
    symbol: str  # LaTeX for the solution, e.g. r"QK^\top"
    prompt: Text  # Markdown, may hold LaTeX
    accepted: tuple[Variant, ...]
    decimals: int | None
    layout: Text  # what rows and columns stand for
    hints: tuple[Text, ...] = ()
    explanation: Text | None = None  # Markdown: how the solution is computed
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
    text: Text  # Markdown
    correct: bool
    explanation: Text  # plain text: why this option is right or wrong
    mistake: str | None = None  # the misconception's id, an N_-marked short name


@dataclass(frozen=True)
class ChoiceStep:
    """A multiple-choice question. ``see_also`` is a page key (e.g. "scaling-lab") to link to."""

    id: str
    title: Text
    prompt: Text
    choices: tuple[Choice, ...]
    hints: tuple[Text, ...] = ()
    explanation: Text | None = None  # Markdown, shown with the solution
    see_also: str = ""

    @property
    def answer_index(self) -> int:
        return next(i for i, c in enumerate(self.choices) if c.correct)

    def option(self, index: int) -> Text:
        """Choice ``index`` as the learner sees it: "B. <its text>" (Markdown)."""
        return Text(
            "{letter}. {option}", letter=chr(ord("A") + index), option=self.choices[index].text
        )


Step = NumericStep | ChoiceStep


@dataclass(frozen=True, eq=False)
class Exercise:
    """One card: what is given (``statement``), the steps to compute, and a scenario to open.

    ``scenario`` is what "Open in the walkthrough" loads; for an exercise the walkthrough
    cannot show whole (several heads), it is one part of it, named in the scenario.
    """

    id: str
    title: Text
    short_title: Text
    source: Text
    statement: Text  # Markdown with LaTeX
    scenario: Scenario
    steps: tuple[Step, ...]

    def step(self, step_id: str) -> Step:
        return next(s for s in self.steps if s.id == step_id)


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer. ``said``: what the learner is told, sentences to
    translate (plain text, no Markdown); ``message``: the same in English.

    ``correct`` and ``mistake`` are the verdict, the same in every language."""

    correct: bool
    said: Message
    mistake: str | None = None  # a MISTAKE_LABELS key, or a Choice's mistake name
    variant: str | None = None  # which accepted answer matched (its English label)

    @property
    def message(self) -> str:
        return english(self.said)
