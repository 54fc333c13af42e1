"""Pages follow the browser: the theme it reports, and whether it is a phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.draw import figures as fig
from attention_ui.frame.pages import BY_KEY
from tests.spec import chart_specs

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def page_in(key: str, query: dict[str, str] | None = None, **context: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.context.update(context)
    at.query_params.update(query or {})
    at.run()
    if key != "start":
        at.switch_page(BY_KEY[key].path).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("key", ["start", "scores", "softmax", "output", "present"])
def test_figures_follow_the_browsers_theme(key: str, theme: str) -> None:
    palette = fig.PALETTES[theme]
    specs = chart_specs(page_in(key, {"step": "3"} if key == "present" else None, theme=theme))
    assert specs
    for spec in specs:
        layout = spec["layout"]
        assert layout["paper_bgcolor"] == "rgba(0,0,0,0)"
        assert layout["font"]["color"] == palette.ink
        # no INK placeholder left; black cell numbers are contrast.label_cells' own choice
        for trace in spec["data"]:  # the cell numbers' ink is contrast.label_cells' own
            if trace.get("type") == "heatmap":
                trace.get("textfont", {}).pop("color", None)
        assert "#000000" not in str(spec).replace('<span style="color:#000000">', "")


def test_config_does_not_force_a_theme() -> None:
    import tomllib

    config = tomllib.loads((Path(APP).parent / ".streamlit" / "config.toml").read_text())
    assert "base" not in config.get("theme", {}), "a fixed base ignores prefers-color-scheme"
