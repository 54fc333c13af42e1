"""The page registry: one place that knows every page, its URL and its order."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageSpec:
    key: str  # stable id, also the URL path ("/softmax"); Start, the default page, is "/"
    title: str
    path: str  # script path relative to app.py
    section: str
    summary: str = ""


START = PageSpec("start", "Start", "app_pages/start.py", "", "What attention does")  # no header

WALKTHROUGH: tuple[PageSpec, ...] = (
    PageSpec(
        "inputs",
        "1. Inputs",
        "app_pages/walkthrough/inputs.py",
        "Walkthrough",
        "Tokens and vectors",
    ),
    PageSpec(
        "projections",
        "2. Projections",
        "app_pages/walkthrough/projections.py",
        "Walkthrough",
        "Q = X W_Q, K = X W_K, V = X W_V",
    ),
    PageSpec(
        "scores", "3. Scores", "app_pages/walkthrough/scores.py", "Walkthrough", "MatMul: Q K^T"
    ),
    PageSpec(
        "scaling",
        "4. Scaling",
        "app_pages/walkthrough/scaling.py",
        "Walkthrough",
        "Scale by 1/sqrt(d_k)",
    ),
    PageSpec("mask", "5. Mask", "app_pages/walkthrough/mask.py", "Walkthrough", "Mask (optional)"),
    PageSpec(
        "softmax",
        "6. Softmax",
        "app_pages/walkthrough/softmax.py",
        "Walkthrough",
        "Row-wise softmax",
    ),
    PageSpec(
        "output", "7. Output", "app_pages/walkthrough/output.py", "Walkthrough", "MatMul: weights V"
    ),
)

LABS: tuple[PageSpec, ...] = (
    PageSpec(
        "scaling-lab",
        "Scaling lab",
        "app_pages/labs/scaling_lab.py",
        "Labs",
        "Sweep d_k: softmax saturation with and without scaling",
    ),
)

PRACTICE: tuple[PageSpec, ...] = (
    PageSpec(
        "exercises",
        "Exercises",
        "app_pages/practice/exercises.py",
        "Practice",
        "The lessons' exercises, checked step by step",
    ),
    PageSpec(
        "present",
        "Presentation mode",
        "app_pages/practice/present.py",
        "Practice",
        "Step a class through one example",
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
