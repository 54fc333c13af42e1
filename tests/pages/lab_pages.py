"""What the AppTests of the two model labs share: opening a lab, finding a chart, its text."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.spec import chart_specs

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_lab(page: str, query: dict[str, str] | None = None,
             session: dict | None = None) -> AppTest:  # fmt: skip
    """The app at ``page`` (a script path), with ``query`` in the URL and ``session`` set
    after the first run; it must run without an exception."""
    at = AppTest.from_file(APP, default_timeout=120)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    for k, v in (session or {}).items():
        at.session_state[k] = v
    at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def chart(at: AppTest, title_start: str, exact: bool = False) -> dict:
    """The chart whose title is (or starts with) ``title_start``."""
    for spec in chart_specs(at):
        title = spec["layout"].get("title", {}).get("text", "")
        if title == title_start or (not exact and title.startswith(title_start)):
            return spec
    titles = [s["layout"].get("title", {}).get("text") for s in chart_specs(at)]
    raise AssertionError(f"no chart titled {title_start!r}; have {titles}")


def texts(at: AppTest) -> str:
    """Every markdown, caption and notice on the page, as one text without escapes."""
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.error]
    return "\n".join(str(p.value) for p in parts).replace("\\", "")


def assert_says_what_to_run(at: AppTest) -> None:
    """A lab without its model: the command that fetches it, the page's own explanation, no
    chart, and the rest of the app still works."""
    assert "make model" in [c.value for c in at.code]
    assert "not on this machine" in texts(at)
    assert "What this shows" in [h.value for h in at.header]
    assert not chart_specs(at)
    at.switch_page("app_pages/walkthrough/softmax.py").run()
    assert not at.exception and at.title[0].value == "6. Softmax"
