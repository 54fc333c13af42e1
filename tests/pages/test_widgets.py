"""Small presentation helpers: escaping learner text, the formula, page order."""

from __future__ import annotations

from attention_ui.draw.text import md_escape
from attention_ui.frame.pages import ALL_PAGES, neighbours
from attention_ui.stages.registry import formula


def test_md_escape_makes_markup_and_links_inert() -> None:
    assert md_escape("**b** [a](x) `c` $x$ <i>") == r"\*\*b\*\* \[a\]\(x\) \`c\` \$x\$ \<i\>"
    # autolinks: a word joiner breaks 'http://', 'www.' and e-mail addresses
    assert md_escape("http://x") == "http\u2060\\://x"
    # emoji and icon shortcodes: Streamlit would draw :smile: as an emoji
    assert md_escape(":smile: :material/home:") == r"\:smile\: \:material/home\:"
    assert md_escape("WWW.y") == "WWW\u2060\\.y"
    assert md_escape("a@b") == "a\u2060@b"
    assert md_escape("plain words") == "plain words"


def test_formula_highlights_one_part_per_stage() -> None:
    assert "textcolor" not in formula()
    for part in ("scores", "scaling", "mask", "softmax", "output", "projections"):
        assert formula(part).count(r"\textcolor") == 1


def test_pages_are_in_reading_order_with_unique_urls() -> None:
    keys = [p.key for p in ALL_PAGES]
    assert len(set(keys)) == len(keys) and keys[0] == "start"
    assert neighbours("start")[0] is None and neighbours(keys[-1])[1] is None
    assert neighbours("scores")[0].key == "projections" and neighbours("scores")[1].key == "scaling"


def test_no_pages_folder_beside_app_py() -> None:
    """A pages/ folder would put a fresh server in legacy mode: deep links skip app.py."""
    from pathlib import Path

    assert not (Path(__file__).resolve().parents[2] / "pages").exists()


def test_naive_softmax_verdict_names_overflow_and_underflow() -> None:
    import numpy as np

    from attention_core import naive_softmax
    from attention_ui.stages.data import naive_verdict

    for x, word in (([1000.0, 1.0], "overflowed"), ([-2000.0, -3000.0], "underflowed")):
        x = np.array(x)
        assert word in naive_verdict(x, naive_softmax(x))
    small = np.array([1.0, 2.0])
    assert naive_verdict(small, naive_softmax(small)).startswith("At this size both agree")


def test_static_table_escapes_text_and_leaves_numbers() -> None:
    """st.table renders every cell as Markdown: text is escaped, a printed number is not."""
    import pandas as pd
    from streamlit.testing.v1 import AppTest

    def script() -> None:
        import pandas as pd

        from attention_ui.frame.widgets import static_table

        frame = pd.DataFrame({"**w**": [0.12345, 2.0], "key": ["[a](b)", "1."]},
                             index=pd.Index(["*x*", "−∞"], name="q_"))  # fmt: skip
        static_table(frame, digits=3)

    at = AppTest.from_function(script).run()
    assert not at.exception
    shown = at.table[0].value
    assert list(shown.columns) == [r"\*\*w\*\*", "key"]
    assert list(shown.index) == [r"\*x\*", "−∞"] and shown.index.name == r"q\_"
    expected = pd.DataFrame({0: ["0.123", "2.000"], 1: [r"\[a\]\(b\)", r"1\."]})
    assert shown.to_numpy().tolist() == expected.to_numpy().tolist()
