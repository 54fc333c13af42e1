"""The figure cache's key (figure_cache.fingerprint) and the capped score breakdown."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attention_core import random_scenario
from attention_ui.draw import figures as fig
from attention_ui.stages.data import LATEX_TERMS, Labels, breakdown_latex, breakdown_table
from attention_ui.views.cache import Finished, fingerprint


def test_the_key_follows_the_contents_not_the_object() -> None:
    t = random_scenario(seed=1).trace()
    same = random_scenario(seed=1).trace()
    other = random_scenario(seed=2).trace()
    labels = Labels.plain(["a", "b", "c", "d"])
    assert fingerprint((labels, t)) == fingerprint((labels, same))
    assert fingerprint((labels, t)) != fingerprint((labels, other))
    assert fingerprint((Labels.plain(["a", "b", "c", "e"]), t)) != fingerprint((labels, t))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (np.zeros((2, 3)), np.zeros((3, 2))),  # same bytes, other shape
        (np.zeros(2), np.zeros(2, dtype=np.float32)),
        ((1, 2), [1, 2]),
        ({"pick": (0, 1)}, {"pick": (1, 0)}),
        (1, 1.0),
        (np.array(["x", "y"], dtype=object), np.array(["x", "z"], dtype=object)),
    ],
)
def test_different_inputs_get_different_keys(a: object, b: object) -> None:
    assert fingerprint(a) != fingerprint(b)


def test_an_unknown_input_is_refused_rather_than_ignored() -> None:
    with pytest.raises(TypeError):
        fingerprint(object())


def test_a_finished_figure_serialises_as_the_figure_it_was() -> None:
    """The same dict, less the template's defaults for kinds of trace it does not draw."""
    figure = fig.heatmap(np.eye(3), list("abc"), list("abc"), "I")
    expected = figure.to_dict()
    finished = Finished.of(figure, "rev")
    expected["layout"]["datarevision"] = "rev"
    defaults = expected["layout"]["template"]["data"]
    assert {"heatmap", "candlestick", "sankey"} <= defaults.keys()  # Streamlit's template
    expected["layout"]["template"]["data"] = {"heatmap": defaults["heatmap"]}
    assert finished.to_dict() == expected
    assert finished.to_dict() is finished.to_dict()  # converted once


def test_the_breakdown_formula_is_capped_and_the_table_has_every_term() -> None:
    t = random_scenario(seed=3, n_tokens=3, d_k=LATEX_TERMS + 5).trace()
    latex = breakdown_latex(t, 0, 1)
    assert latex.count(")(") == LATEX_TERMS and "(5 more terms)" in latex
    assert latex.endswith(f"= {t.scores[0, 1]:.4g}".replace("-", "−"))
    assert len(breakdown_table(t, 0, 1)) == LATEX_TERMS + 5
    short = random_scenario(seed=3, n_tokens=3, d_k=LATEX_TERMS).trace()
    assert breakdown_latex(short, 0, 1).count(")(") == LATEX_TERMS
    assert "more terms" not in breakdown_latex(short, 0, 1)


def test_a_long_breakdown_table_waits_in_a_closed_expander() -> None:
    """Up to LATEX_TERMS terms the table is on the page; more (a real head's 32) wait in a
    lazy expander: a pick then redraws the formula, not a 32-row table."""
    from streamlit.testing.v1 import AppTest

    from attention_ui.frame.pages import BY_KEY

    def scores_page(d_k: int) -> AppTest:
        at = AppTest.from_file(
            str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=30
        )
        at.query_params["s"] = random_scenario(seed=3, n_tokens=3, d_k=d_k).to_url()
        return at.run().switch_page(BY_KEY["scores"].path).run()

    short = scores_page(LATEX_TERMS)
    assert [len(t.value) for t in short.table] == [LATEX_TERMS]
    assert not [e for e in short.expander if e.label.startswith("Every term")]
    long = scores_page(LATEX_TERMS + 5)
    assert [e.label for e in long.expander if e.label.startswith("Every term")] == [
        f"Every term ({LATEX_TERMS + 5})"
    ]
    assert not long.table, "the long table was drawn with its expander closed"
