"""`make screenshots`: the README's images, taken from the app as it is now.

Starts a real ``streamlit run app.py`` on a free loopback port, opens it in Debian's
Chromium through Playwright, and writes each image into assets/ (the README shows them).
Rerun it after changing what a picture shows; no test compares the pixels.

    python scripts/screenshots.py            # every image
    python scripts/screenshots.py scores     # only the ones whose name contains "scores"
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.common.browser import IDLE, find_chromium, served_chromium  # noqa: E402

ASSETS = ROOT / "assets"


@dataclass(frozen=True)
class Shot:
    name: str  # assets/<name>.png
    path: str  # the page's address after the server's root
    width: int
    height: int
    phone: bool = False


SHOTS = (
    Shot("screenshot", "/scores", 1400, 1000),  # opens on the largest score, sat -> cat
    Shot("screenshot-real-model", "/real-model", 1400, 1000),
    Shot("screenshot-decoder", "/decoder", 1400, 1000),  # the prompt and what comes next
    Shot("screenshot-phone", "/softmax", 390, 844, phone=True),
)
PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0 Mobile Safari/537.36"
)


def settle(page: Page) -> None:
    """Wait until the script run is over and every chart is drawn."""
    page.wait_for_selector(IDLE, timeout=60_000)
    page.wait_for_selector("h1", timeout=60_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')]"
        ".every(p => p.querySelector('.main-svg'))",
        timeout=60_000,
    )
    page.wait_for_timeout(800)  # the last chart's transition
    page.wait_for_selector(IDLE, timeout=60_000)


def take(browser, url: str, shot: Shot) -> Path:
    context = browser.new_context(
        viewport={"width": shot.width, "height": shot.height},
        device_scale_factor=2 if shot.phone else 1,
        is_mobile=shot.phone,
        has_touch=shot.phone,
        user_agent=PHONE_UA if shot.phone else None,
        color_scheme="light",
    )
    page = context.new_page()
    page.goto(url + shot.path)
    settle(page)
    out = ASSETS / f"{shot.name}.png"
    page.screenshot(path=str(out))
    context.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="?", default="", help="only images whose name has this")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        print("no chromium: apt-get install -y chromium", file=sys.stderr)
        return 1
    with served_chromium() as (url, browser):
        for shot in SHOTS:
            if args.only in shot.name:
                print(take(browser, url, shot).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
