"""The frame of a walkthrough page: its stage's header above the body, Previous/Next below."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from attention_ui.frame.widgets import prev_next, stage_header, stale_notice
from attention_ui.stages.registry import BY_KEY, Stage


@contextlib.contextmanager
def stage_page(key: str, stale: tuple[str, ...] | None = ()) -> Iterator[Stage]:
    """``with stage_page("scores"):`` draws the stage's title, formula and words, then the body.

    ``stale``: the stages this page's own controls show (the "last valid scenario" notice
    names the others), or None for no notice (Inputs shows each problem at its input).
    """
    stage = BY_KEY[key]
    stage_header(stage)
    if stale is not None:
        stale_notice(shown_here=stale)
    yield stage
    prev_next(key)
