"""Screenshots of the Real model and Decoder labs' Scores tab with a cell picked by a click.

    python scripts/lab_shots.py --root /work/main --out test-artifacts/issue21 --tag before

For each lab, at desktop (1400 x 1000) and phone (390 x 844, a phone's user agent) size:
open the lab, open the head's Scores tab, click the cell in row 4, column 2 of the score
grid (as a learner would: one mouse click), wait for the breakdown, then save the view
with the grid and the breakdown under it:
<out>/<lab>/<tag>-<size>-{view,breakdown,hover}.png (hover: the mouse over,
or a tap on, another cell). Nobody compares
the pixels: they are for looking at (issue 21, "nothing taught is lost").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.common.browser import CHROMIUM_ARGS, find_chromium, settle, stage_control, start_server  # noqa: E402

PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0 Mobile Safari/537.36"
)
LABS = {"real_model": ("/real-model", "rm"), "decoder": ("/decoder", "dec")}
SIZES = {"desktop": (1400, 1000, False), "phone": (390, 844, True)}
ROW, COL = 3, 1  # 0-based: the cell clicked


def shoot(browser, url: str, out: Path, tag: str) -> None:
    for lab, (path, prefix) in LABS.items():
        for size, (w, h, phone) in SIZES.items():
            extra = {"user_agent": PHONE_UA, "is_mobile": True, "has_touch": True} if phone else {}
            context = browser.new_context(viewport={"width": w, "height": h}, **extra)
            page = context.new_page()
            page.goto(url + path)
            settle(page)
            stage_control(page, prefix, "Scores").click()
            chart = page.locator(f".st-key-{prefix}_scores_chart")
            page.wait_for_selector(f".st-key-{prefix}_scores_chart .heatmaplayer", timeout=60_000)
            settle(page)
            n = page.evaluate(
                f"document.querySelector('.st-key-{prefix}_scores_chart .js-plotly-plot')"
                ".data[0].y.length"
            )
            chart.scroll_into_view_if_needed()
            box = chart.locator(".nsewdrag").first.bounding_box()
            x = box["x"] + box["width"] * (COL + 0.5) / n
            y = box["y"] + box["height"] * (ROW + 0.5) / n
            page.mouse.click(x, y)
            page.wait_for_timeout(500)
            settle(page)
            chart.scroll_into_view_if_needed()
            target = out / lab
            target.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(target / f"{tag}-{size}-view.png"))
            page.get_by_text("Score of query").first.scroll_into_view_if_needed()
            page.screenshot(path=str(target / f"{tag}-{size}-breakdown.png"))
            # a cell's number where the grid is too big to print it: hover (or tap) a cell
            chart.scroll_into_view_if_needed()
            box = chart.locator(".nsewdrag").first.bounding_box()
            x = box["x"] + box["width"] * (COL + 2.5) / n
            y = box["y"] + box["height"] * (ROW + 0.5) / n
            if phone:
                page.touchscreen.tap(x, y)
            else:
                page.mouse.move(x, y)
            page.wait_for_timeout(400)
            page.screenshot(path=str(target / f"{tag}-{size}-hover.png"))
            picked = page.locator(f".st-key-{prefix}_scores_pick_q input").input_value()
            print(f"{lab} {size}: picked query {picked!r} ({n} rows)", flush=True)
            context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=str(ROOT))
    parser.add_argument("--out", default=str(ROOT / "test-artifacts" / "issue21"))
    parser.add_argument("--tag", default="after")
    args = parser.parse_args()
    proc, url = start_server("app.py", args.root)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            shoot(browser, url, Path(args.out), args.tag)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
