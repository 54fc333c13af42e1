"""The page registry: one place that knows every page, its URL and its order.

The walkthrough's pages come from the stage registry (``stages``): one page per stage.
"""

from __future__ import annotations

from dataclasses import dataclass

from attention_ui.i18n import N_
from attention_ui.stages.registry import STAGES


@dataclass(frozen=True)
class PageSpec:
    """A page; ``title``, ``section`` and ``summary`` are English msgids (shown with ``_()``)."""

    key: str  # stable id, also the URL path ("/softmax"); Start, the default page, is "/"
    title: str
    path: str  # script path relative to app.py
    section: str
    summary: str = ""
    # False: the page hides the sidebar (a projector's slide), so nothing is drawn in it.
    # Every follower of a live class reruns this page at once on each step: the hidden
    # sidebar was about a fifth of the elements each of those runs sent.
    sidebar: bool = True
    # True: the page draws a following student's watcher itself, in the fragment that the
    # teacher's next step reruns alone (live.phone.follow_bar, practice.present).
    watches: bool = False
    # True: the live teacher's console. It drives the room and is never the room's page: a
    # teacher who opens it is not leading the class there, and the room never moves it.
    console: bool = False


START = PageSpec(
    "start", N_("Start"), "app_pages/start.py", "", N_("What attention does")
)  # no header

# One page per stage, in the registry's order; the script is named after the stage.
WALKTHROUGH: tuple[PageSpec, ...] = tuple(
    PageSpec(st.key, st.title, f"app_pages/walkthrough/{st.key}.py", N_("Walkthrough"), st.summary)
    for st in STAGES
)

LABS: tuple[PageSpec, ...] = (
    PageSpec(
        "scaling-lab",
        N_("Scaling lab"),
        "app_pages/labs/scaling_lab.py",
        N_("Labs"),
        N_("Sweep d_k: softmax saturation with and without scaling"),
        watches=True,  # the lab's fragment (scaling_lab.lab) follows the teacher's d_k
    ),
    PageSpec(
        "training",
        N_("Training"),
        "app_pages/labs/training.py",
        N_("Labs"),
        N_("Train a head, with and without 1/√d_k, and watch it learn or stall"),
    ),
    PageSpec(
        "multi-head",
        N_("Multi-head"),
        "app_pages/labs/multi_head.py",
        N_("Labs"),
        N_("Split your scenario into heads and follow each one"),
    ),
    PageSpec(
        "real-model",
        N_("Real model"),
        "app_pages/labs/real_model.py",
        N_("Labs"),
        N_("Every head of a trained model (MiniLM) on your sentence, stage by stage"),
    ),
    PageSpec(
        "decoder",
        N_("Decoder"),
        "app_pages/labs/decoder.py",
        N_("Labs"),
        N_("A trained language model (SmolLM2): causal heads, shared keys and RoPE"),
    ),
)

PRACTICE: tuple[PageSpec, ...] = (
    PageSpec(
        "exercises",
        N_("Exercises"),
        "app_pages/practice/exercises.py",
        N_("Practice"),
        N_("The lessons' exercises, checked step by step"),
    ),
    PageSpec(
        "present",
        N_("Presentation mode"),
        "app_pages/practice/present.py",
        N_("Practice"),
        N_("Step a class through one example"),
        sidebar=False,
        watches=True,
    ),
    PageSpec(
        "console",
        N_("Teacher's console"),
        "app_pages/practice/console.py",
        N_("Practice"),
        N_("Lead a live class from a laptop or a phone, off the projector"),
        console=True,
    ),
)

ALL_PAGES: tuple[PageSpec, ...] = (START, *WALKTHROUGH, *LABS, *PRACTICE)
BY_KEY = {p.key: p for p in ALL_PAGES}


def neighbours(key: str) -> tuple[PageSpec | None, PageSpec | None]:
    """The previous and next page in reading order (Start, the walkthrough, labs, practice)."""
    i = [p.key for p in ALL_PAGES].index(key)
    prev = ALL_PAGES[i - 1] if i > 0 else None
    nxt = ALL_PAGES[i + 1] if i + 1 < len(ALL_PAGES) else None
    return prev, nxt
