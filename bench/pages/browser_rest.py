"""The rest of the app's interactions in Chromium (issue 21), each timed from the action
until every chart it redraws shows its new numbers, and the fair floor of a page switch.

``measure_rest`` runs on the app's server: the Scaling lab's d_k slider, a token edit, a
grid edit and a Random fill on the Inputs page, and loading an example on a walkthrough
page, a lab and the Start page. ``measure_page_floor`` runs on bench/floors/floor_pages_app.py.
bench_pages sets each against the floor (bench/floors/floor_app.py) measured in the same run.
"""

from __future__ import annotations

from bench.common.browser import FLOOR_APP, settle, switch_times, time_changes

# The drawing under each selector (its SVG, bars and paths included: a title can stay the
# same when d_k changes), and true once every one differs from what it was: the moment
# the last of the charts an action redraws has drawn its new numbers.
DRAWN = "(sel) => [...document.querySelectorAll(sel)].map(e => e.innerHTML).join('|')"
SLIDER = ".st-key-lab_dk [data-testid='stSlider'] input[type='range']"
# The lab's charts a d_k change redraws: before issue 21 four (lab_hist_*, lab_bars_*), then
# one per column (lab_column_*), since issue 43 one (lab_charts), whichever this app has.
LAB_CHARTS = [".st-key-lab_column_False .main-svg, .st-key-lab_hist_False .main-svg, "
              ".st-key-lab_charts .main-svg",
              ".st-key-lab_column_True .main-svg, .st-key-lab_hist_True .main-svg, "
              ".st-key-lab_charts .main-svg"]  # fmt: skip
PREVIEW = [".st-key-inputs_preview .main-svg"]
SCORES = [".st-key-scores_chart .heatmap-label"]
FLOOR_PAGES = {"one": ".st-key-one_heatmap .heatmap-label",
               "two": ".st-key-two_heatmap .heatmap-label"}  # fmt: skip


def time_all(page, watch: list[str], act) -> float:
    """Milliseconds from ``act()`` until every selector in ``watch`` changed; then settle."""
    return time_changes(page, watch, act, DRAWN)


INTERACTIONS = {
    "Scaling lab d_k slider -> both histograms and bar charts redrawn": lambda: _slider,
    "Inputs: token edit -> preview redrawn": lambda: _tokens,
    "Inputs: grid edit (one cell of X) -> preview redrawn": lambda: _grid,
    "Inputs: Random fill of X -> preview redrawn": lambda: _random,
    "Scores: load an example (sidebar) -> scores redrawn": lambda: _example,
}


def measure_rest(browser, url: str, steps: int, only: str = "") -> dict[str, list[float]]:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    out = {name: run()(page, url, steps) for name, run in INTERACTIONS.items() if only in name}
    page.close()
    return out


def measure_page_floor(browser, url: str, steps: int) -> list[float]:
    """The fair floor: Streamlit's own sidebar menu between two one-heatmap pages."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(url + "/one")
    page.wait_for_selector(FLOOR_PAGES["one"], timeout=60_000)
    settle(page)
    nav = "[data-testid='stSidebarNav'] a"

    def click_to(name: str):  # found before the clock: one event, no waiting inside
        link = page.locator(nav, has_text=name).first
        return lambda: link.dispatch_event("click")

    samples = switch_times(page, steps, click_to, FLOOR_PAGES)
    page.close()
    return samples


def _open(page, address: str, ready: str) -> None:
    page.goto(address)
    page.wait_for_selector(ready, timeout=60_000)
    settle(page)


def _slider(page, url: str, steps: int) -> list[float]:
    _open(page, url + "/scaling-lab", LAB_CHARTS[0])
    page.locator(SLIDER).first.focus()
    keys = ["ArrowRight", "ArrowLeft"]  # d_k 64 <-> 128
    return [time_all(page, LAB_CHARTS, lambda k=k: page.keyboard.press(keys[k % 2]))
            for k in range(steps)]  # fmt: skip


def _tokens(page, url: str, steps: int) -> list[float]:
    _open(page, url + "/inputs", PREVIEW[0])
    box = page.locator(".st-key-tokens_text input").first
    texts = ["the cat sat on the rug", "the cat sat on the mat"]

    def act(k: int):
        box.fill(texts[k % 2])
        return lambda: box.press("Enter")

    return [time_all(page, PREVIEW, act(k)) for k in range(steps)]


def _grid(page, url: str, steps: int) -> list[float]:
    _open(page, url + "/inputs", PREVIEW[0])
    canvas = page.locator("[class*='st-key-grid_X_'] [data-testid='data-grid-canvas']").first
    values = ["2.5", "-1.5"]

    def act(k: int):
        box = canvas.bounding_box()
        page.mouse.click(box["x"] + 120, box["y"] + 35 + 17)  # row 0, first data column
        page.keyboard.press("Enter")
        editor = page.locator("input.gdg-input, textarea.gdg-input").first
        editor.fill(values[k % 2])
        return lambda: editor.press("Enter")

    return [time_all(page, PREVIEW, act(k)) for k in range(steps)]


def _random(page, url: str, steps: int) -> list[float]:
    """Random fills with the page's seed draw the same numbers, so an untimed Zeros fill
    comes between two timed Random ones."""
    _open(page, url + "/inputs", PREVIEW[0])
    random = page.locator(".st-key-fill_X_random button").first
    zeros = page.locator(".st-key-fill_X_zeros button").first
    samples = []
    for _ in range(steps):
        time_all(page, PREVIEW, lambda: zeros.dispatch_event("click"))
        samples.append(time_all(page, PREVIEW, lambda: random.dispatch_event("click")))
    return samples


def _example(page, url: str, steps: int) -> list[float]:
    _open(page, url + "/scores", SCORES[0])
    samples = []
    for k in range(steps):
        name = ["Which word does", "The cat sat on the mat"][k % 2]
        box = page.locator(".st-key-preset_choice input").first
        box.click()
        box.fill(name)  # the select box filters its options by what is typed
        page.keyboard.press("Enter")
        load = page.locator(".st-key-preset_choice_load button").first
        load.wait_for(timeout=30_000)
        settle(page)
        samples.append(time_all(page, SCORES, lambda b=load: b.dispatch_event("click")))
    return samples


def main(argv: list[str] | None = None) -> int:
    """Rounds that alternate the floor, the fair page floor and the app on one Chromium."""
    import argparse
    import os
    import statistics

    from playwright.sync_api import sync_playwright

    from bench.common.browser import CHROMIUM_ARGS, ROOT, find_chromium, serving
    from bench.common.interact import measure
    from bench.pages import browser_app

    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--steps", type=int, default=6)
    p.add_argument("--only", default="",
                   help="only the interactions naming this (the floors always run)")  # fmt: skip
    p.add_argument("--root", action="append", default=[],
                   help="a checkout to serve the app from (repeat: paired, same run)")  # fmt: skip
    args = p.parse_args(argv)
    roots = args.root or [str(ROOT)]
    samples: dict[str, list[float]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        for _ in range(args.rounds):
            with serving(FLOOR_APP) as url:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                samples.setdefault(FLOOR, []).extend(measure(
                    page, url + "/", ".st-key-floor_toggle input", "Space",
                    ".st-key-floor_heatmap .heatmap-label", args.steps))  # fmt: skip
                page.close()
            with serving("bench/floors/floor_pages_app.py") as url:
                samples.setdefault(PAGE_FLOOR, []).extend(
                    measure_page_floor(browser, url, args.steps)
                )
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                samples.setdefault(LOAD_FLOOR, []).extend(browser_app._warm_loads(
                    page, url, args.steps, "/one", FLOOR_PAGES["one"]))  # fmt: skip
                page.close()
            for root in roots:
                tag = "" if len(roots) == 1 else f" [{root}]"
                with serving("app.py", root) as url:
                    page = browser.new_page(viewport={"width": 1400, "height": 1000})
                    for name, run in ((SWITCH, browser_app._switches),
                                      (WARM, browser_app._warm_loads)):  # fmt: skip
                        if args.only in name:
                            samples.setdefault(name + tag, []).extend(run(page, url, args.steps))
                    page.close()
                    for name, got in measure_rest(browser, url, args.steps, args.only).items():
                        samples.setdefault(name + tag, []).extend(got)
            roots.reverse()  # the order flips every round
        browser.close()
    floor = statistics.median(samples[FLOOR])
    page_floor = statistics.median(samples[PAGE_FLOOR])
    load_floor = statistics.median(samples[LOAD_FLOOR])

    print(f"load average {os.getloadavg()[0]:.1f}; {args.rounds} rounds of {args.steps}")
    print("| interaction | median ms | min ms | x floor | x fair floor (page / load) |")
    print("|---|---|---|---|---|")
    for name, got in samples.items():
        m = statistics.median(got)
        fair = f"{m / page_floor:.2f}" if name.startswith((SWITCH, PAGE_FLOOR)) else ""
        fair = f"{m / load_floor:.2f}" if name.startswith((WARM, LOAD_FLOOR)) else fair
        print(f"| {name} | {m:.0f} | {min(got):.0f} | {m / floor:.2f} | {fair} |")
    return 0


FLOOR = "floor: toggle -> 6x6 heatmap redrawn"
PAGE_FLOOR = "fair floor: two-page app, Streamlit's sidebar menu -> new page's heatmap"
SWITCH = "sidebar page switch (Scores <-> Scaling) -> new page's heatmap drawn"
LOAD_FLOOR = "fair floor: warm load of the two-page app's /one -> its heatmap's numbers drawn"
WARM = "warm page load /scores -> first heatmap's numbers drawn"

if __name__ == "__main__":
    raise SystemExit(main())
