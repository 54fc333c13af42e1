"""The practice exercises as data, and the checking of what a learner types. Pure and testable.

Every expected answer comes from the core (an ``AttentionTrace``), never from a typed
constant, so the exercises cannot drift from the maths the rest of the app shows. Each
known wrong path (forgot to scale, divided by d_k, softmax down the columns, K Qᵀ instead
of Q Kᵀ, unscaled scores in softmax, rounding too early, a missing or flipped mask) is
also computed by the core, so the checker can name the slip when an answer matches one.

Feedback messages are plain text (Unicode maths, no Markdown), so a page can show them
verbatim, whatever the learner typed. Every word is a ``Text``/``Plural`` of
``attention_core.i18n`` (an English template, its numbers formatted here): the UI translates
it, and ``Feedback.message`` is its English.

Modules: ``model`` (the data), ``answers`` (reading typed numbers), ``checker``,
``mistakes`` (wrong paths through the core), ``steps`` (step builders), ``text``
(formatting), ``scenarios`` (the exercises' own scenarios), ``catalogue`` (the content)
and ``progress`` (the learner's typed record and its export).
"""

from attention_core.exercises.answers import parse_answer
from attention_core.exercises.catalogue import all_exercises, exercise_by_id
from attention_core.exercises.checker import check_answer, check_choice
from attention_core.exercises.model import (
    EXACT_TOLERANCE,
    MISTAKE_LABELS,
    Choice,
    ChoiceStep,
    Exercise,
    Feedback,
    Mistake,
    NumericStep,
    Step,
    Variant,
    tolerance,
)
from attention_core.exercises.progress import (
    Progress,
    Status,
    StepRecord,
    count_right,
    find_record,
    get_record,
    progress_csv,
    progress_rows,
    record_attempt,
)
from attention_core.exercises.saved import (
    MAX_BYTES,
    Work,
    choice_index,
    choice_letter,
    left_out_note,
    load_work,
    progress_json,
)
from attention_core.exercises.scenarios import (
    causal_scenario,
    embeddings_scenario,
    saturation_scenario,
)
from attention_core.exercises.steps import output_step, scaled_step, scores_step, weights_step
from attention_core.exercises.text import answer_format, format_value, tex_matrix

__all__ = [
    "EXACT_TOLERANCE",
    "MAX_BYTES",
    "MISTAKE_LABELS",
    "Choice",
    "ChoiceStep",
    "Exercise",
    "Feedback",
    "Mistake",
    "NumericStep",
    "Progress",
    "Status",
    "Step",
    "StepRecord",
    "Variant",
    "Work",
    "all_exercises",
    "answer_format",
    "causal_scenario",
    "check_answer",
    "check_choice",
    "choice_index",
    "choice_letter",
    "count_right",
    "embeddings_scenario",
    "exercise_by_id",
    "find_record",
    "format_value",
    "get_record",
    "left_out_note",
    "load_work",
    "output_step",
    "parse_answer",
    "progress_csv",
    "progress_json",
    "progress_rows",
    "record_attempt",
    "saturation_scenario",
    "scaled_step",
    "scores_step",
    "tex_matrix",
    "tolerance",
    "weights_step",
]
