"""The Training lab's words agree with its charts (issue 42, item 9): the summary counts the
same wrong rows as the gradient's caption (the stuck ones among them), the stuck chart says
its count is of the batch's rows (not d_k, 256 too by default), and the step caption's
example is the task's own first row, as the heatmap labels it ("previous": not "S → S")."""

from __future__ import annotations

from attention_core.training import TrainSettings, train_both
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from tests.pages.lab_pages import chart, open_lab, texts

PAGE = BY_KEY["training"].path


def test_the_summary_and_the_captions_count_the_same_rows() -> None:
    at = open_lab(PAGE)
    said = texts(at)
    for h in train_both(TrainSettings()):
        wrong = round((1 - h.accuracy[-1]) * h.rows)  # rows whose largest weight is wrong
        stuck = int(h.stuck[-1])
        assert stuck <= wrong  # a stuck row is a wrong one saturated
        assert f"({wrong} wrong, {stuck} of them stuck)" in said, said[:600]
        assert f"{wrong} rows still wrong" in said or wrong == 0
    title = chart(at, "Stuck rows")["layout"]["title"]["text"]
    assert title == f"Stuck rows (of the batch's {h.rows} rows)", title


def test_the_step_caption_names_a_row_of_the_tasks_own() -> None:
    """Previous token: a row reads "S → E" (query S, the token before it E); the caption's
    example is one of the heatmap's rows, and one that looks at another token."""
    at = open_lab(PAGE, session={keys.TR_TASK: "previous"})
    rows = chart(at, "Without scaling: weights at step")["data"][0]["y"]  # "query → key"
    example = next(r for r in rows if r.split(" → ")[0] != r.split(" → ")[1])
    assert example == rows[1]  # the first row has no token before it: it attends to itself
    assert f"(“{example}”: the query {example.split(' → ')[0]} should look at the key " \
           f"{example.split(' → ')[1]})" in texts(at)  # fmt: skip
