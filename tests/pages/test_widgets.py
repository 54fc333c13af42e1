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
