"""axe-core in the browser: the WCAG 2.0/2.1/2.2 A and AA rules on an open page.

axe-core comes from PyPI inside ``axe-playwright-python`` (pinned in requirements-dev.txt;
its 0.1.8 ships axe-core 4.12.1), so the engine's version moves only when the pin does.
The script is injected into the page once and run with the WCAG tags only (axe's
best-practice rules are left out: they are not WCAG success criteria).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import Page

TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa")
BLOCKING = ("serious", "critical")  # the impacts issue 20 allows none of
AXE_VERSION = re.search(r"axe v(\d+\.\d+\.\d+)", AXE_SCRIPT[:200]).group(1)  # type: ignore[union-attr]

# Started without awaiting (window.__axeRun holds the promise), so several pages can run
# axe at the same time, each in its own renderer; ``finish_audit`` awaits it.
_START = """(tags) => {
  window.__axeRun = axe.run(document, {runOnly: {type: "tag", values: tags},
                                       resultTypes: ["violations"]})
    .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map(n => ({target: n.target.join(" "), html: n.html.slice(0, 160),
                                summary: n.failureSummary}))})));
}"""
_FINISH = "() => window.__axeRun"


@dataclass(frozen=True)
class Violation:
    rule: str
    impact: str
    help: str
    nodes: tuple[dict, ...]

    def __str__(self) -> str:
        where = "\n".join(f"    {n['target']}: {n['html']}\n      {n['summary']}"
                          for n in self.nodes[:6])  # fmt: skip
        more = f"\n    ... and {len(self.nodes) - 6} more" if len(self.nodes) > 6 else ""
        head = f"  {self.rule} ({self.impact}, {len(self.nodes)} elements): {self.help}"
        return f"{head}\n{where}{more}"


def start_audit(page: Page) -> None:
    """Start axe on the page as it is now (injected once per document); returns at once."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    page.evaluate(_START, list(TAGS))


def finish_audit(page: Page) -> list[Violation]:
    """The violations of the audit ``start_audit`` began on ``page``, worst first."""
    found = [Violation(v["id"], v["impact"] or "", v["help"], tuple(v["nodes"]))
             for v in page.evaluate(_FINISH)]  # fmt: skip
    order = {"critical": 0, "serious": 1, "moderate": 2, "minor": 3}
    return sorted(found, key=lambda v: (order.get(v.impact, 4), v.rule))


def audit(page: Page) -> list[Violation]:
    """Every WCAG A/AA violation axe finds on the page as it is now, worst first."""
    start_audit(page)
    return finish_audit(page)


def blocking(violations: list[Violation]) -> list[Violation]:
    return [v for v in violations if v.impact in BLOCKING]
