"""Screenshots of the Multi-head lab, section by section, for before/after comparisons.

    python -m bench.pages.mh_screens --root /work/main --prefix before --out test-artifacts/...
    python -m bench.pages.mh_screens --root . --prefix after --out test-artifacts/...

For the two-heads example at 2 and 4 heads, at desktop (1400 x 1000), projector
(1280 x 720) and phone (390 x 844, a phone's user agent: the app lays figures out for
it), it saves the whole page and each part between two headings (the split, every head,
one head, W_O and the residual) as PNGs, to be looked at.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from attention_core import PRESETS, shapes
from bench.common.browser import chromium, settle, start_server

PHONE_AGENT = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like "
               "Gecko) Chrome/156.0.0.0 Mobile Safari/537.36")  # fmt: skip
SIZES = {
    "desktop": {"viewport": {"width": 1400, "height": 1000}},
    "projector": {"viewport": {"width": 1280, "height": 720}},
    "phone": {"viewport": {"width": 390, "height": 844}, "user_agent": PHONE_AGENT,
              "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
}  # fmt: skip
# Each section runs from its heading to the next one.
SECTIONS = ("Split the projections into heads", "Every head's attention weights",
            "One head, stage by stage", "Concatenate, then W_O")  # fmt: skip


def scenario(n_heads: int) -> str:
    return shapes.with_heads(PRESETS["two_heads"].build(), n_heads).to_url()


def shoot(browser, url: str, out: Path, prefix: str, size: str, n_heads: int) -> list[Path]:
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    tall = {"width": SIZES[size]["viewport"]["width"], "height": 6000}
    page.set_viewport_size(tall)  # every element drawn (no lazy skeletons below the fold)
    page.goto(f"{url}/multi-head?s={scenario(n_heads)}")
    page.wait_for_selector("[data-testid='stPlotlyChart']", timeout=120_000)
    settle(page)
    closed = page.get_by_text("Show Concat × W_O = Output")  # after issue 21: a lazy expander
    if closed.count():
        closed.first.click()
        page.get_by_role("heading", name="The residual view: X + output").wait_for()
        settle(page)
    page.wait_for_timeout(800)
    stem = f"{prefix}_{size}_{n_heads}heads"
    shots = [out / f"{stem}_page.png"]
    page.screenshot(path=str(shots[0]), full_page=True)
    tops = []
    for title in (*SECTIONS, "The residual view: X + output"):
        box = page.get_by_role("heading", name=title).first.bounding_box()
        tops.append(box["y"] if box else None)
    names = ("split", "heads", "one_head", "output")
    for k, name in enumerate(names):
        top, bottom = tops[k], tops[k + 1]
        if top is None or bottom is None:
            continue
        path = out / f"{stem}_{name}.png"
        page.screenshot(path=str(path), full_page=True,
                        clip={"x": 0, "y": top - 10, "width": tall["width"],
                              "height": bottom - top})  # fmt: skip
        shots.append(path)
    context.close()
    return shots


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=".")
    parser.add_argument("--prefix", default="after")
    parser.add_argument("--out", default="test-artifacts/issue21/multi_head")
    parser.add_argument("--sizes", default="desktop,phone,projector")
    args = parser.parse_args()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    proc, url = start_server(root=Path(args.root).resolve())
    try:
        with chromium() as browser:
            for size in args.sizes.split(","):
                for n in (2, 4):
                    for path in shoot(browser, url, out, args.prefix, size, n):
                        print(path)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
