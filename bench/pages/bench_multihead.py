"""The multi-head lab's rerun against the Softmax page's, in the same run (issue 9's budget).

Budget: the Multi-head page with 6 tokens and 4 heads reruns in at most 1.5x the time of
the Softmax page on the same scenario. Both are AppTest full reruns (server-side Python).
"""

from __future__ import annotations

import argparse

from bench import Result, timed
from bench.common.browser import ROOT
from bench.common.scenarios import scenario_6x4

BUDGET = 1.5


def run(args: argparse.Namespace) -> list[Result]:
    from streamlit.testing.v1 import AppTest

    from attention_ui.frame.pages import BY_KEY

    repeats = 5 if getattr(args, "quick", False) else 20
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["s"] = scenario_6x4().to_url()
    at.run()
    samples = {}
    for key in ("softmax", "multi-head", "softmax", "multi-head"):  # interleaved: fair to both
        at.switch_page(BY_KEY[key].path).run()
        assert not at.exception, (key, [e.value for e in at.exception])
        samples.setdefault(key, []).extend(timed(at.run, repeats))
    samples["rebuilt"] = timed(lambda: _rerun_uncached(at), repeats)
    at.session_state["mh_stage"] = "Projections"  # the heaviest tab: nine heatmaps
    samples["projections"] = timed(at.run, repeats)
    soft, multi = Result("", samples["softmax"]), Result("", samples["multi-head"])
    ratio = multi.median / soft.median
    verdict = "within" if ratio <= BUDGET else "OVER"
    return [
        Result("AppTest rerun: Softmax page, 6 tokens", samples["softmax"], "reference"),
        Result("AppTest rerun: Multi-head page, 6 tokens x 4 heads", samples["multi-head"],
               f"{ratio:.2f}x Softmax ({verdict} the {BUDGET}x budget)"),
        Result("same, figures rebuilt (as after a head-count change)", samples["rebuilt"],
               _ratio(samples["rebuilt"], soft)),
        Result("same, the Projections tab open", samples["projections"],
               _ratio(samples["projections"], soft)),
    ]  # fmt: skip


def _rerun_uncached(at) -> None:
    """A rerun that builds the scenario's figures again, as a new scenario would."""
    at.session_state["_per_scenario"] = None
    at.run()


def _ratio(samples: list[float], soft: Result) -> str:
    return f"{Result('', samples).median / soft.median:.2f}x Softmax"


if __name__ == "__main__":
    for r in run(argparse.Namespace(quick=True)):
        print(r.row())
