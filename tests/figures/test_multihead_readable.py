"""Issue 21: the Multi-head lab's figures are readable at the width they are laid out for.

Checked from the figure alone (``grid.readability``): every printed number fits its cell at
the layout's width (the narrowest desktop column, or a phone's), key labels that would run
into each other stand upright, and no two panels overlap. Four heads of the two-heads
example sat abreast before, and their labels read "satand" and "ipurred".
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import PRESETS, Scenario, random_scenario, shapes
from attention_core.heads import multi_head_trace
from attention_ui.multi_head import figures as mf
from attention_ui.multi_head import grid


def two_heads(n_heads: int) -> Scenario:
    return shapes.with_heads(PRESETS["two_heads"].build(), n_heads)


def wide(n_heads: int, n_tokens: int = 8) -> Scenario:
    s = random_scenario(seed=4, n_tokens=n_tokens, d_model=8, d_k=8, d_v=8)
    s = shapes.ready_for_heads(s).replace(tokens=[f"word{k}" for k in range(n_tokens)])
    return shapes.with_heads(s, n_heads)


def figures(s: Scenario, phone: bool) -> dict:
    mh, labels = multi_head_trace(s), list(s.query_labels)
    Ws = {n: getattr(s, f"W_{n.lower()}") for n in "QKV"}
    weights, masks = [h.weights for h in mh.heads], [h.mask for h in mh.heads]
    return {
        "split": mf.split_figure(Ws, mh.n_heads, phone),
        "heads": mf.heads_figure(weights, masks, labels, labels, mh.d_head, phone),
        "output": mf.output_figure(mh.concat, mh.W_o, mh.output, labels, mh.n_heads, phone),
        "residual": mf.residual_figure(s.X, mh.output, labels, phone),
    }


CASES = {"two_heads-2": two_heads(2), "two_heads-4": two_heads(4), "wide-8": wide(8),
         "wide-2": wide(2), "long-4": wide(4, 12)}  # fmt: skip


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("case", list(CASES))
def test_every_number_and_label_has_its_room(case: str, phone: bool) -> None:
    for name, figure in figures(CASES[case], phone).items():
        assert grid.readability(figure) == [], (case, name)
        if phone:  # a fixed width the page scrolls sideways, never squeezed
            assert figure.layout.width == figure.layout.meta["grid_width"]
        else:
            assert figure.layout.width is None  # stretched: only ever wider than laid out


def test_four_heads_of_the_example_no_longer_sit_abreast() -> None:
    heads = figures(two_heads(4), False)["heads"]
    lefts = sorted({round(getattr(heads.layout, "xaxis" + t.xaxis[1:]).domain[0], 3)
                    for t in heads.data})  # fmt: skip
    assert len(lefts) == 2  # two rows of two: 6 keys of 44 px do not fit four abreast
    cell = heads.layout.meta["cell_px"]
    assert cell >= grid.MIN_CELL and all(t.textfont.size == 13 for t in heads.data)


def test_the_check_fails_on_the_old_layout() -> None:
    """Mutations: four heads abreast in 13 px type (what main drew), key labels forced flat,
    two panels in one place. Each is caught."""
    s = two_heads(4)
    mh, labels = multi_head_trace(s), list(s.query_labels)
    weights = [h.weights for h in mh.heads]
    flat = mf.heads_figure(weights, [None] * 4, labels, labels, 1)
    panels = [grid.Panel(z=w, text=[[f"{v:.2f}" for v in r] for r in w], rows=labels,
                         cols=labels, title=f"Head {h + 1}", scale={}, hover="")
              for h, w in enumerate(weights)]  # fmt: skip
    # four abreast in a 760 px column, the numbers printed in 13 px type regardless
    abreast = grid.grid_figure(panels, "t", grid.Layout(760, False, 4, 40, 13, share_rows=True))
    abreast.data[0].textfont.size, abreast.data[0].texttemplate = 13, "%{text}"
    problems = grid.readability(abreast)
    assert any("does not fit" in p for p in problems), problems
    flat.layout.xaxis.tickangle = 0
    flat.layout.xaxis.domain = [0.0, 0.2]  # narrow cells: "purred" is wider than its column
    problems = grid.readability(flat)
    assert any("purred" in p and "runs into" in p for p in problems), problems
    flat.layout.xaxis2.domain = flat.layout.xaxis.domain
    flat.layout.yaxis2.domain = flat.layout.yaxis.domain
    assert "x and x2 overlap" in grid.readability(flat)
    phone = figures(s, True)["heads"]
    phone.layout.title.text = "Every head's weights: 4 heads of d_head = 1"  # main's wording
    assert any("wider than the figure" in p for p in grid.readability(phone))


def test_numbers_too_small_to_print_are_left_to_hover_and_the_table() -> None:
    s = wide(1, 20)  # 20 keys in one 760 px panel: 32 px cells cannot hold "0.05" readably
    figure = figures(s, False)["heads"]
    heat = figure.data[0]
    if heat.texttemplate:  # printed: then in type that fits (readability checks it)
        assert grid.readability(figure) == []
    else:
        assert heat.customdata is not None  # each weight still on hover
    alt = mf.alternative_of(figure)
    assert alt.table.shape == (20, 20)  # and in the Numbers table
    np.testing.assert_array_equal(alt.table.to_numpy()[0], [f"{w:.2f}" for w in
                                  multi_head_trace(s).heads[0].weights[0]])  # fmt: skip
