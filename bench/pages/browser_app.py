"""The app's interactions in Chromium, timed until the page shows the new numbers.

``measure_all`` runs them on one server, in one browser, so bench_pages can set each
against Streamlit's floor measured in the same run:

- the Scaling toggle (a walkthrough page's full rerun: issues 9 and 10's reference);
- a sidebar page switch (Scores <-> Scaling) until the new page's heatmap shows numbers;
- the Multi-head head count (2 <-> 4 heads, 6 tokens) until the heads' weights change (one
  figure since issue 21; bench/pages/browser_mh.py times every control of that page);
- the Real model head pick (Scores and Softmax tabs) and token pick (bench_real_model);
- a warm page load (same browser, cached assets) until the first heatmap shows numbers.
"""

from __future__ import annotations

import time

from bench.common.browser import settle, switch_times, time_change
from bench.common.interact import mouse_click
from bench.common.scenarios import scenario_6x4
from bench.pages.bench_real_model import pick_times

TOGGLE = "Scaling toggle -> scaled heatmap redrawn"
PAGES = {"3. Scores": ".st-key-scores_chart .heatmap-label",
         "4. Scaling": ".st-key-scaling_scaled .heatmap-label"}  # fmt: skip
HEAD_CELLS = ".st-key-mh_small .heatmap-label"  # every head: one figure (issue 21)


def measure_all(browser, url: str, steps: int) -> dict[str, list[float]]:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    out = {TOGGLE: _toggle(page, url, steps)}
    out["sidebar page switch (Scores <-> Scaling) -> new page's heatmap drawn"] = _switches(
        page, url, steps
    )
    out["Multi-head head count 2 <-> 4 -> head 1's weights redrawn"] = _head_counts(
        page, url, steps
    )
    picks = pick_times(page, url, steps)
    out["Real model head pick, Scores tab -> its grid redrawn"] = picks["Scores"]
    out["Real model head pick, Softmax tab -> its grid redrawn"] = picks["Softmax"]
    out["Real model token pick -> target grid redrawn"] = picks["token"]
    out["warm page load /scores -> first heatmap's numbers drawn"] = _warm_loads(page, url, steps)
    page.close()
    return out


def _toggle(page, url: str, steps: int) -> list[float]:
    page.goto(url + "/scaling")
    watch = PAGES["4. Scaling"]
    page.wait_for_selector(watch, timeout=60_000)
    settle(page)
    page.locator(".st-key-scaled_toggle input").first.focus()
    return [time_change(page, watch, lambda: page.keyboard.press("Space")) for _ in range(steps)]


def _switches(page, url: str, steps: int) -> list[float]:
    page.goto(url + "/scores")
    page.wait_for_selector(PAGES["3. Scores"], timeout=60_000)
    settle(page)
    shows = {title: PAGES[title] for title in ("3. Scores", "4. Scaling")}
    link = ".st-key-nav a"
    return switch_times(page, steps,
                        lambda title: mouse_click(page, page.locator(link, has_text=title).first),
                        shows)  # fmt: skip


def _head_counts(page, url: str, steps: int) -> list[float]:
    page.set_viewport_size({"width": 1400, "height": 2400})  # the small multiples in view
    page.goto(f"{url}/multi-head?s={scenario_6x4().to_url()}")
    page.wait_for_selector(HEAD_CELLS, timeout=60_000)
    settle(page)
    samples = []
    for k in range(steps):
        n = "2" if k % 2 == 0 else "4"  # the scenario starts with 4
        button = page.locator(".st-key-n_heads_choice button").filter(has_text=n).first
        samples.append(time_change(page, HEAD_CELLS, mouse_click(page, button)))
    page.set_viewport_size({"width": 1400, "height": 1000})
    return samples


def _warm_loads(page, url: str, steps: int, path: str = "/scores",
                ready: str = PAGES["3. Scores"]) -> list[float]:  # fmt: skip
    """Loads of ``url + path`` in a browser that has the app's files cached, each until
    ``ready`` is drawn."""
    samples = []
    for _ in range(max(3, steps // 2)):
        t0 = time.perf_counter()
        page.goto(url + path, wait_until="commit")
        page.wait_for_selector(ready, timeout=60_000)
        samples.append((time.perf_counter() - t0) * 1000)
        settle(page)
    return samples
