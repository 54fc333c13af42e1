"""The question round of ``bench/load/live.py --ask``: every follower answers once, a mixed class.

The teacher asks through the store (what the Ask button writes), each simulated phone types
its answer and presses Send within ``--answer-window`` seconds, and the round checks that
the tally is complete soon after the last answer and holds exactly the class's mix. With
``--exercise`` the question is a lesson's exercise step, the post's weights for "it" (a row
of three numbers), instead of the weight sat -> cat of the room's example.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from attention_core import default_scenario
from attention_core.exercises.text import format_value
from attention_ui.classroom.questions import EXERCISE, OTHER, Question, Questions, question_step
from attention_ui.classroom.rooms import Rooms

# The mixed class of 120: right, then each named slip, then other.
MIX = (("right", 40), ("softmax_unscaled", 30), ("softmax_columns", 20), ("transposed", 15),
       ("other", 15))  # fmt: skip


def _ask(q: Questions, code: str, secret: str, exercise: bool) -> tuple[Question, dict]:
    """The question, and what each kind of student types for it (the core's numbers)."""
    if exercise:
        asked = q.ask(code, secret, EXERCISE, 0, 0, "reveal", False, exercise="hungry",
                      step_id="weights")  # fmt: skip
        other = "0.5, 0.3, 0.2"
    else:
        asked = q.ask(code, secret, "weights", 2, 1, "reveal", False)
        other = "0.05"
    step = question_step(asked, default_scenario().to_url())
    d = step.decimals
    typed = {"right": format_value(step.expected, d), "other": other,
             **{m.key: format_value(m.value, d) for m in step.mistakes}}  # fmt: skip
    return asked, typed


async def ask_round(rooms: Rooms, code: str, secret: str, phones: list,
                    opts: argparse.Namespace, show_s: float) -> dict:  # fmt: skip
    """Ask, wait ``show_s`` for every phone to show the question, then all answer.

    ``phones``: bench.load.live's Phones (not imported: bench.load.live imports this module)."""
    share = [key for key, n in MIX for _ in range(round(n * len(phones) / 120))]
    plan = (share + ["other"] * len(phones))[: len(phones)]
    random.Random(1).shuffle(plan)
    q = Questions(rooms)
    asked, typed = _ask(q, code, secret, bool(getattr(opts, "exercise", False)))
    await asyncio.sleep(show_s)  # every phone shows the question
    t0 = time.perf_counter()
    sends = []
    for phone, key in zip(phones, plan, strict=True):
        sends.append(asyncio.create_task(phone.answer(typed[key])))
        await asyncio.sleep(opts.answer_window / len(phones))
    sent = sum(await asyncio.gather(*sends))
    last = max(p.answer_sent for p in phones)
    complete = None
    while time.perf_counter() - last < 30:
        tally = q.tally(code, asked.id)
        if tally.answered >= sent:
            complete = time.perf_counter() - last
            break
        await asyncio.sleep(0.05)
    want = {k: plan.count(k) for k in set(plan)}
    got = {"right": tally.right, **{(OTHER if k == OTHER else k): n for k, n in
                                    tally.slips.items()}}  # fmt: skip
    return {"question": "exercise hungry/weights" if asked.stage == EXERCISE else "cell",
            "answers_sent": sent, "answers_counted": tally.answered,
            "answer_window_s": round(time.perf_counter() - t0, 2),
            "tally_complete_s_after_last": round(complete, 3) if complete is not None else None,
            "tally_exact": got == want, "tally": got}  # fmt: skip
