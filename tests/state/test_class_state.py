"""The model-based test of a class's state (issue 41): ``machine.ClassMachine`` over a real
``streamlit run`` and a real SQLite store, driven at Streamlit's protocol.

``STATE_EXAMPLES`` sequences, from a fixed seed (default 40: on the code before issue 41 the
28th fails, the console lost after a language switch, every run; the seed follows the rules'
code, so re-measure after changing them: bench/RESULTS.md, "A class's state");
``make test-state`` runs 200 random ones (``STATE_RANDOM``).
``STATE_APP_ROOT=/path/to/a/checkout`` serves that checkout's app instead of this one.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.state.machine import ClassMachine

# 40 fixed-seed sequences: with defect 1 put back into a copy of today's app (the console's
# lock and open pickers no longer relabelled, the lock written unchecked) the 5th fails,
# 24 s with the server's start (the 27th before the driver offered only what a run drew);
# random seeds 2 and 3 found it within 20 s (bench/RESULTS.md, "A class's state: random
# seeds on today's code", 2026-12-06).
EXAMPLES = int(os.environ.get("STATE_EXAMPLES", "40"))
STEPS = int(os.environ.get("STATE_STEPS", "14"))
# Shrinking replays sequences of real page runs (about 0.1-0.5 s a step): a failure is
# reported as found, with its steps (machine._why); STATE_SHRINK=1 shrinks it too.
PHASES = [
    Phase.explicit,
    Phase.generate,
    *([Phase.shrink] if os.environ.get("STATE_SHRINK") else []),
]


@pytest.mark.timeout(int(os.environ.get("STATE_TIMEOUT", "600")))
def test_a_class_keeps_its_state_whatever_its_people_do(served) -> None:
    server, outage = served
    ClassMachine.url, ClassMachine.outage = server.url, outage
    try:
        run_state_machine_as_test(ClassMachine, settings=settings(
            max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
            derandomize=os.environ.get("STATE_RANDOM") is None, database=None,
            report_multiple_bugs=False, phases=PHASES,
            suppress_health_check=list(HealthCheck)))  # fmt: skip
    except BaseException:
        print(server.output()[-4000:])  # the server's own account of what raised
        raise
