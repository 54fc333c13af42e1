"""Page objects: every Streamlit locator the browser tests use, named after what a learner sees.

Tests say what the learner does (``inputs.type_tokens("...")``, ``scores.click_cell(2, 1)``)
and read what is on screen (``softmax.chart.numbers()``); only this module knows the
``.st-key-<key>`` classes and ``data-testid`` attributes of Streamlit 1.67. When the app
renames a widget key or Streamlit changes its DOM, this is the one file to update.

One class per page (``StartPage``, ``InputsPage``, ``ProjectionsPage``, ``ScoresPage``,
``ScalingPage``, ``MaskPage``, ``SoftmaxPage``, ``OutputPage``, ``ScalingLabPage``,
``MultiHeadPage``, ``ExercisesPage``, ``PresentationPage``, ``RealModelPage``,
``DecoderPage``) built on
``AppPage`` (h1, errors, URL, sidebar, Previous/Next), plus the parts several pages share:
``Sidebar``, ``Heatmap`` (a Plotly chart by widget key) and ``DataGrid`` (a glide-data-grid
editor).

The three sides of a live class: the teacher's ``ConsolePage`` (go live, the join screen,
ask the class, tally, reveal, a practice at the class's own pace and its dashboard, end the
class), the ``ProjectorPage`` (presentation mode, live: the join screen and the room's
strip) and a student's ``PhonePage`` (join by code, follow, explore and come back, answer a
question, a nickname and the exercises of a practice). Both teacher pages show the same
``JoinScreen``; ``PHONE`` is a phone's browser context (``PhonePage.new`` opens one).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar, Self
from urllib.parse import parse_qs, urlparse

import numpy as np
from helpers import (
    ALERT,
    EXCEPTION,
    MAIN,
    SIDEBAR,
    goto,
    h1_text,
    nav_link,
    sidebar_links,
    sidebar_sections,
    wait_idle,
)
from playwright.sync_api import Browser, FloatRect, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from attention_core import Scenario
from attention_ui.practice import present

INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))  # md_escape's joiners
METRIC_VALUE = "[data-testid='stMetricValue']"
PROGRESS = "[data-testid='stProgress']"
# A phone's browser context (a 390 x 844 touch screen with a phone's user agent).
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
    "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                  "(KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36",
}  # fmt: skip


def key(name: str) -> str:
    """The CSS class Streamlit puts on the element of a keyed widget or container."""
    return f".st-key-{name}"


def query(url: str) -> dict[str, str]:
    """The URL's query parameters, last value of each."""
    return {k: v[-1] for k, v in parse_qs(urlparse(url).query).items()}


def number(text: str) -> float:
    """A number as the app prints it (unicode minus, maybe −∞)."""
    return float(text.strip().replace("−∞", "-inf").replace("−", "-"))


# ---- parts shared by pages ----------------------------------------------------------------
class Heatmap:
    """A Plotly heatmap drawn by ``st.plotly_chart(key=...)`` (or any chart selector)."""

    def __init__(self, page: Page, selector: str) -> None:
        self.page, self.selector = page, selector
        self.root = page.locator(selector)

    # What a learner reads in each cell: its printed number, or, on a grid too big to print
    # (more than MAX_PRINTED rows or columns), the number its hover shows (``%{text}``).
    SHOWN = """(e) => {
        const printed = [...e.querySelectorAll('.heatmap-label')].map(l => l.textContent);
        if (printed.length) return printed;
        const gd = e.querySelector('.js-plotly-plot');
        return gd && gd.data && gd.data[0].text ? gd.data[0].text.flat() : [];
    }"""

    def cell_texts(self) -> list[str]:
        """The numbers in the cells, row by row (printed, or on hover), once Plotly has drawn."""
        self.page.wait_for_selector(f"{self.selector} .heatmaplayer", timeout=30_000)
        return self.root.first.evaluate(self.SHOWN)

    def hover_text(self, row: int, col: int, n_rows: int, n_cols: int) -> str:
        """What the hover box says over cell (row, col), 0-based: a real mouse, not the data."""
        drag = self.root.locator(".nsewdrag").first
        drag.scroll_into_view_if_needed()
        box = drag.bounding_box()
        assert box is not None
        self.page.mouse.move(box["x"] + box["width"] * (col + 0.5) / n_cols,
                             box["y"] + box["height"] * (row + 0.5) / n_rows)  # fmt: skip
        hover = self.root.locator(".hoverlayer .hovertext")
        hover.first.wait_for(timeout=5_000)
        return hover.first.text_content() or ""

    def numbers(self, n_rows: int) -> np.ndarray:
        """The printed cells as an (n_rows, n_cols) float array."""
        return np.array([number(t) for t in self.cell_texts()]).reshape(n_rows, -1)

    def wait_for_change(self, before: list[str]) -> list[str]:
        """Wait until the printed cells differ from ``before`` (after a rerun), then read them."""
        self.page.wait_for_function(
            f"""([sel, before]) => {{
                const e = document.querySelector(sel);
                const now = e ? ({self.SHOWN})(e) : [];
                return now.length > 0 && JSON.stringify(now) !== JSON.stringify(before);
            }}""",
            arg=[self.selector, before],
            timeout=15_000,
        )
        wait_idle(self.page)
        return self.cell_texts()

    def x_labels(self) -> list[str]:
        return self.root.locator(".xtick text").all_text_contents()

    def y_labels(self) -> list[str]:
        """Row labels from top to bottom (Plotly's DOM lists them bottom-up on this
        reversed axis, so they are sorted by where they are drawn)."""
        return self.root.locator(".ytick text").evaluate_all(
            """els => els.map(e => [e.getBoundingClientRect().top, e.textContent])
                         .sort((a, b) => a[0] - b[0]).map(p => p[1])"""
        )

    def title(self) -> str:
        return (self.root.locator(".g-gtitle").first.text_content() or "").strip()

    def click_cell(self, row: int, col: int, n_rows: int, n_cols: int) -> None:
        """Click the centre of cell (row, col), 0-based, of an n_rows x n_cols grid."""
        box = self.root.locator(".nsewdrag").first.bounding_box()
        assert box is not None
        self.page.mouse.click(
            box["x"] + box["width"] * (col + 0.5) / n_cols,
            box["y"] + box["height"] * (row + 0.5) / n_rows,
        )

    def box(self) -> FloatRect:
        """Where the chart's drawing (its first ``.main-svg``) is on the screen."""
        box = self.root.locator(".main-svg").first.bounding_box()
        assert box is not None
        return box

    def x_label_boxes(self) -> list[FloatRect]:
        """Where each label of the x axis is drawn."""
        boxes = [label.bounding_box() for label in self.root.locator(".xtick text").all()]
        assert all(b is not None for b in boxes)
        return [b for b in boxes if b is not None]

    def wait_for_x_title(self, timeout: float = 30_000) -> None:
        self.root.locator(".g-xtitle").wait_for(timeout=timeout)

    def title_box(self) -> FloatRect | None:
        return self.root.locator(".g-gtitle").first.bounding_box()

    def x_title_box(self) -> FloatRect | None:
        return self.root.locator(".g-xtitle").first.bounding_box()

    def expect_cell_text(self, text: str) -> None:
        expect(self.root.locator(".heatmap-label").filter(has_text=text).first).to_be_visible()


class DataGrid:
    """A ``st.data_editor`` (glide-data-grid, drawn on a canvas).

    The accessible ``td`` cells are not clickable and update lazily, so cells are reached
    with the keyboard (shared/notes, section 4): click row 0 of the last column, arrow to
    the cell, Enter opens the overlay editor.
    """

    HEADER_PX, ROW_PX = 35, 17  # header height; half a row, to hit row 0's centre

    def __init__(self, page: Page, selector: str, n_cols: int) -> None:
        self.page, self.selector, self.n_cols = page, selector, n_cols

    def select(self, col: int, row: int) -> None:
        """Select a cell (col 1 = first data column; 0 = the index)."""
        selected = f"{self.selector} #glide-cell-{col}-{row}[aria-selected='true']"
        for attempt in range(3):  # a grid that a rerun is still re-mounting can miss the click
            canvas = self.page.locator(f"{self.selector} [data-testid='data-grid-canvas']").first
            box = canvas.bounding_box()
            assert box is not None
            self.page.mouse.click(box["x"] + box["width"] - 10,
                                  box["y"] + self.HEADER_PX + self.ROW_PX)  # fmt: skip
            for k in ["ArrowLeft"] * (self.n_cols - col) + ["ArrowDown"] * row:
                self.page.keyboard.press(k)
            try:
                self.page.wait_for_selector(selected, state="attached", timeout=10_000)
                return
            except PlaywrightTimeoutError:
                if attempt == 2:
                    raise

    def set_cell(self, col: int, row: int, value: str) -> None:
        """Type ``value`` into a text cell; Enter commits it (a full rerun follows)."""
        self.select(col, row)
        self.page.keyboard.press("Enter")
        editor = self.page.locator("input.gdg-input, textarea.gdg-input").first
        editor.fill(value)
        editor.press("Enter")

    def toggle_cell(self, col: int, row: int) -> None:
        """Flip a checkbox cell: Space toggles the selected boolean cell."""
        self.select(col, row)
        self.page.keyboard.press(" ")


class Sidebar:
    """The app's own menu (attention_ui.frame.sidebar): links that carry ``?s=``, one header per
    section, and the "Scenario: <name>" line."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.root = page.locator(SIDEBAR)

    def sections(self) -> list[str]:
        return sidebar_sections(self.page)

    def links(self) -> list[str]:
        return sidebar_links(self.page)

    def link(self, title: str) -> Locator:
        return nav_link(self.page, title)

    def link_href(self, title: str) -> str:
        return (
            self.page.locator(key("nav") + " a", has_text=title).first.get_attribute("href") or ""
        )

    def go_to(self, title: str) -> None:
        """Click a menu link and wait for that page's heading."""
        self.link(title).click()
        expect(self.page.locator(f"{MAIN} h1").first).to_have_text(title)
        wait_idle(self.page)

    def click_text(self, title: str) -> None:
        """Click the menu entry by its visible text (as a learner reading it would)."""
        self.root.get_by_text(title, exact=True).click()

    def scenario_label(self) -> str:
        """The "Scenario: <name>" line, without md_escape's invisible word joiners."""
        label = self.root.get_by_text(re.compile(r"^\s*Scenario:")).first
        return (label.text_content() or "").translate(INVISIBLE)

    def open_share(self) -> None:
        """Open "Share and export" (a lazy expander: opening it reruns the app)."""
        self.root.get_by_text("Share and export", exact=True).click()
        self.page.locator("#al-share-full").wait_for(timeout=15_000)
        wait_idle(self.page)

    def share_box(self, which: str = "full") -> Locator:
        """The read-only box of the full link, or of the short one ("short")."""
        return self.page.locator(f"#al-share-{which}")

    def copy(self, label: str = "Copy link") -> None:
        """Press a share box's copy button and wait for it to say so."""
        button = self.root.get_by_role("button", name=label, exact=True)
        button.click()
        note = self.page.locator(f"#{button.get_attribute('data-for')}-note")
        expect(note).to_have_text("Copied.")

    def make_short_link(self) -> None:
        self.page.locator(f"{key('short_link_make')} button").click()
        self.share_box("short").wait_for(timeout=15_000)
        wait_idle(self.page)

    def clipboard(self) -> str:
        return self.page.evaluate("navigator.clipboard.readText()")

    def expect_visible(self) -> None:
        expect(self.root).to_be_visible()

    def expect_hidden(self) -> None:
        expect(self.root).to_be_hidden()


# ---- pages ----------------------------------------------------------------------------------
class AppPage:
    """What every page has: a URL, an h1, the sidebar, Previous/Next and error boxes."""

    path: ClassVar[str] = "/"

    def __init__(self, page: Page, base: str = "") -> None:
        self.page, self.base = page, base  # base: a fresh server's URL, or "" for base_url
        self.sidebar = Sidebar(page)

    def open(self, params: str = "") -> AppPage:
        """Load the page (``params`` like ``"?s=..."``) and wait until it has settled."""
        goto(self.page, self.base + self.path + params)
        return self

    def open_link(self, url: str) -> AppPage:
        """Load a whole address as a learner pastes it (a shared link)."""
        goto(self.page, url)
        return self

    def visit(self, params: str = "") -> Self:
        """Load the page and wait for nothing (a live page: the test waits for what it needs)."""
        self.page.goto(self.base + self.path + params)
        return self

    @property
    def h1(self) -> str:
        return h1_text(self.page)

    def heading(self) -> Locator:
        return self.page.locator(f"{MAIN} h1").first

    def exceptions(self) -> Locator:
        return self.page.locator(EXCEPTION)

    def alerts(self, has_text: str | None = None) -> Locator:
        """The alert boxes (info, warning, error, success), those saying ``has_text`` if given."""
        boxes = self.page.locator(ALERT)
        return boxes if has_text is None else boxes.filter(has_text=has_text)

    def toasts(self) -> Locator:
        return self.page.get_by_test_id("stToast")

    def in_view(self, locator: Locator) -> bool:
        """Whether ``locator``'s first element lies wholly on the screen (not scrolled off)."""
        box = locator.first.bounding_box()
        size = self.page.viewport_size
        assert size is not None
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]

    def not_found(self) -> Locator:
        return self.page.get_by_text("Page not found")

    def main_text(self, text: str) -> Locator:
        return self.page.locator(MAIN).get_by_text(text)

    def text_on_screen(self) -> str:
        """Everything the main area says (the sidebar left out)."""
        return self.page.locator(MAIN).inner_text()

    def scenario(self) -> Scenario:
        """The scenario in the address bar (``?s=``); fails if there is none."""
        values = parse_qs(urlparse(self.page.url).query).get("s")
        assert values, f"no ?s= in {self.page.url}"
        return Scenario.from_url(values[0])

    def wait_for_share_url(self) -> None:
        """sync_url() writes ?s= at the end of the run; wait until the address bar has it."""
        self.page.wait_for_url(re.compile(r"[?&]s=v1\."), timeout=10_000)

    def history_length(self) -> int:
        return self.page.evaluate("history.length")

    def prev_next_links(self) -> Locator:
        """The Previous / Next links at the bottom of the page."""
        return self.page.locator(f"{key('prev_next')} a")

    def follow_next(self, title: str) -> None:
        """Click the "<title> →" link at the bottom of the page."""
        self.page.get_by_text(f"{title} →").click()

    def wait_idle(self) -> None:
        wait_idle(self.page)

    def rerun(self) -> None:
        """Streamlit's "r" shortcut (a full rerun), with no widget focused."""
        self.page.evaluate("document.activeElement.blur()")
        self.page.keyboard.press("r")

    def go_back(self, path_glob: str) -> None:
        self.page.go_back()
        self.page.wait_for_url(path_glob)
        wait_idle(self.page)

    def metric_values(self) -> list[str]:
        return self.page.locator(f"{MAIN} {METRIC_VALUE}").all_inner_texts()


class StartPage(AppPage):
    path = "/"

    def pipeline_link(self, name: str) -> Locator:
        """A box of the five-step recipe ("MatMul", "Scale", ...): each opens its page."""
        return self.page.locator(MAIN).get_by_role("link", name=name)

    def load_example(self, preset_key: str) -> None:
        self.page.locator(f"{key(f'start_load_{preset_key}')} button").click()
        wait_idle(self.page)

    @property
    def intuition(self) -> Heatmap:
        """The "it -> animal" bar chart (a Plotly chart like the heatmaps)."""
        return Heatmap(self.page, key("start_intuition"))

    def diagram(self) -> Locator:
        """The recipe diagram's image."""
        return self.page.locator(f"{key('start_diagram')} img")

    def recipe_arrows(self) -> list[str]:
        """The arrows between the recipe's boxes that are shown, in page order."""
        return [
            a.inner_text().strip()
            for a in self.page.locator("[class*='st-key-recipe_'] h3").all()
            if a.is_visible()
        ]


class InputsPage(AppPage):
    path = "/inputs"
    PREVIEW = key("inputs_preview")

    @property
    def preview(self) -> Heatmap:
        return Heatmap(self.page, self.PREVIEW)

    def _type(self, widget: str, text: str) -> None:
        box = self.page.locator(f"{key(widget)} input")
        box.fill(text)
        box.press("Enter")

    def type_tokens(self, text: str) -> None:
        self._type("tokens_text", text)

    def tokens_box(self) -> Locator:
        return self.page.locator(f"{key('tokens_text')} input")

    def tokens(self) -> str:
        """The tokens as typed in their box."""
        return self.tokens_box().input_value()

    def type_query_tokens(self, text: str) -> None:
        self._type("query_tokens_text", text)

    def choose_mode(self, label: str) -> None:
        """Pick the input mode by its label ("Q, K and V directly", or the embeddings one)."""
        self.page.locator(key("input_mode")).get_by_text(label, exact=True).click()
        wait_idle(self.page)

    def set_size(self, dim: str, value: int) -> None:
        self._type(f"size_{dim}", str(value))
        wait_idle(self.page)

    def fill(self, matrix: str, how: str) -> None:
        """Press a fill button: how is "random", "identity" or "zeros"."""
        self.page.locator(f"{key(f'fill_{matrix}_{how}')} button").click()
        wait_idle(self.page)

    def grid(self, matrix: str, n_cols: int) -> DataGrid:
        # the key ends with a generation counter (grid_X_3) that a reset bumps
        return DataGrid(self.page, f"[class*='st-key-grid_{matrix}_']", n_cols)


class ProjectionsPage(AppPage):
    path = "/projections"


class ScoresPage(AppPage):
    path = "/scores"

    @property
    def chart(self) -> Heatmap:
        return Heatmap(self.page, key("scores_chart"))

    def picked_query(self) -> str:
        return self.page.locator(f"{key('scores_pick_q')} input").input_value()

    def picked_key(self) -> str:
        return self.page.locator(f"{key('scores_pick_k')} input").input_value()

    def click_cell(self, row: int, col: int, n_rows: int, n_cols: int, query: str) -> None:
        """Click a score cell; wait until the query picker shows ``query``, its row's label
        (the picker may already hold another pair: it starts on the strongest score)."""
        self.chart.cell_texts()  # drawn
        self.chart.click_cell(row, col, n_rows, n_cols)
        self.page.wait_for_function(
            "([sel, want]) => document.querySelector(sel).value === want",
            arg=[f"{key('scores_pick_q')} input", query],
            timeout=15_000,
        )
        wait_idle(self.page)

    def breakdown_formulas(self) -> list[str]:
        """The KaTeX lines of the page (the term-by-term dot product is one of them)."""
        return self.page.locator(f"{MAIN} .katex").all_inner_texts()


class ScalingPage(AppPage):
    path = "/scaling"

    @property
    def raw(self) -> Heatmap:
        return Heatmap(self.page, key("scaling_raw"))

    @property
    def scaled(self) -> Heatmap:
        return Heatmap(self.page, key("scaling_scaled"))

    def toggle_scaling(self) -> None:
        """Flip "Apply the 1/√d_k scaling"."""
        self.page.locator(key("scaled_toggle")).get_by_text("Apply the 1/√d_k scaling").click()
        wait_idle(self.page)

    def scaling_on(self) -> bool:
        return self.page.locator(f"{key('scaled_toggle')} input").is_checked()


class MaskPage(AppPage):
    path = "/mask"

    @property
    def chart(self) -> Heatmap:
        return Heatmap(self.page, key("mask_chart"))

    @property
    def mask_grid_chart(self) -> Heatmap:
        return Heatmap(self.page, key("mask_grid"))

    def choose(self, label: str) -> None:
        """Pick another mask by its label: "No mask", "Causal (no peeking ahead)", ...

        Waits for the address to change (the new mask is in ``?s=``): on a loaded machine the
        page could still look idle just after the click, before its rerun began (CI, once)."""
        before = self.page.url
        self.page.locator(key("mask_kind")).get_by_text(label, exact=True).click()
        self.page.wait_for_function("u => location.href !== u", arg=before, timeout=15_000)
        wait_idle(self.page)

    def move_n_valid(self, presses: int) -> None:
        """Move the "real keys" slider by ``presses`` arrow keys (negative: left)."""
        self.page.locator(f"{key('mask_n_valid')} [role='slider']").focus()
        for _ in range(abs(presses)):
            self.page.keyboard.press("ArrowRight" if presses > 0 else "ArrowLeft")
        wait_idle(self.page)

    def custom_grid(self, n_keys: int) -> DataGrid:
        return DataGrid(self.page, "[class*='st-key-mask_grid_']", n_keys)


class _RowPicker:
    """The "Query row" select box of the Softmax and Output pages (runs in a fragment)."""

    ROW_KEY: ClassVar[str]
    page: Page

    def picked_row(self) -> str:
        return self.page.locator(f"{key(self.ROW_KEY)} input").input_value()

    def pick_row(self, label: str) -> None:
        self.page.locator(f"{key(self.ROW_KEY)} input").click()
        self.page.get_by_role("option", name=label, exact=True).click()
        wait_idle(self.page)

    def row_table(self) -> Locator:
        """The step-by-step table of the picked row (the first table after the picker: a
        static one on the Softmax page, an interactive one on the Output page)."""
        tables = f"{MAIN} [data-testid='stDataFrame'], {MAIN} [data-testid='stTable']"
        return self.page.locator(tables).first


class SoftmaxPage(_RowPicker, AppPage):
    path = "/softmax"
    ROW_KEY = "softmax_row"

    @property
    def chart(self) -> Heatmap:
        return Heatmap(self.page, key("softmax_chart"))


class OutputPage(_RowPicker, AppPage):
    path = "/output"
    ROW_KEY = "output_row"

    @property
    def chart(self) -> Heatmap:
        return Heatmap(self.page, key("output_chart"))


class ScalingLabPage(AppPage):
    path = "/scaling-lab"
    SLIDER = f"{key('lab_dk')} [data-testid='stSlider'] input[type='range']"
    OUTSIDE = key("lab_my_weights_True")  # "Apply to my scenario", after the fragment
    # Counts how often an element is marked stale (data-stale flips while a script run that
    # includes it is in progress): elements outside the fragment never flip on a slider move.
    _WATCH_STALE = """(sel) => {
        const el = document.querySelector(sel);
        el.__staleFlips = 0;
        new MutationObserver((ms) => { el.__staleFlips += ms.length; })
            .observe(el, {attributes: true, attributeFilter: ['data-stale']});
    }"""
    _STALE_FLIPS = "(sel) => document.querySelector(sel).__staleFlips"

    @staticmethod
    def title_selector(chart_key: str) -> str:
        return f"{key(chart_key)} .g-gtitle"

    def wait_for_chart(self, chart_key: str) -> None:
        self.page.wait_for_selector(f"{key(chart_key)} .main-svg", timeout=20_000)

    def titles(self, chart_key: str) -> list[str]:
        """Every rendered title of a chart (two while a rerun swaps them)."""
        texts = self.page.locator(self.title_selector(chart_key)).all_text_contents()
        return [t.strip() for t in texts]

    def legend(self, chart_key: str) -> list[str]:
        return self.page.locator(f"{key(chart_key)} .legendtext").all_text_contents()

    def metrics(self) -> list[float]:
        """The lab's numbers in page order: 4 without scaling, then 4 with scaling."""
        return [float(v) for v in self.metric_values()[:8]]

    def d_k(self) -> int:
        return int(self.page.locator(self.SLIDER).first.get_attribute("aria-valuetext") or "0")

    def seed(self) -> str:
        return self.page.locator(f"{key('lab_seed')} input").first.input_value()

    def focus_slider(self) -> None:
        self.page.locator(self.SLIDER).first.focus()

    def watch_outside_fragment(self) -> None:
        self.page.evaluate(self._WATCH_STALE, self.OUTSIDE)

    def outside_stale_flips(self) -> int:
        return self.page.evaluate(self._STALE_FLIPS, self.OUTSIDE)

    def wait_for_outside_flip(self) -> None:
        self.page.wait_for_function(f"({self._STALE_FLIPS})({self.OUTSIDE!r}) > 0", timeout=10_000)

    # The lab draws every chart its d_k slider moves as one chart of seven panels
    # (CHART: both histograms, both sets of bars, the three curves), so their titles are the
    # chart's notes; the unscaled panel of a pair comes first.
    CHART = "lab_charts"
    PANEL_TITLE = """([sel, start]) => [...document.querySelectorAll(sel)]
        .map(e => e.textContent.trim()).filter(t => t.startsWith(start))"""

    def panel_titles(self, chart_key: str, start: str) -> list[str]:
        """The titles of the panels of ``chart_key`` that start with ``start``, in order."""
        return self.page.evaluate(self.PANEL_TITLE, [self._texts(chart_key), start])

    @staticmethod
    def _texts(chart_key: str) -> str:
        """A chart's notes, and its text points: a title that changes with the chart's own
        slider is drawn as text (draw.sliding)."""
        return f"{key(chart_key)} .annotation-text, {key(chart_key)} .textpoint"

    def panel_title(self, chart_key: str, start: str) -> str:
        """The title of the first panel of ``chart_key`` whose title starts with ``start``."""
        found = self.panel_titles(chart_key, start)
        assert found, start
        return found[0]

    def wait_for_panel_change(self, chart_key: str, start: str, before: str) -> None:
        """Wait (polling every 10 ms, for timing) until the first such panel has a new title,
        with as many such panels as now (two charts while a rerun swaps them: not yet)."""
        count = len(self.panel_titles(chart_key, start))
        self.page.wait_for_function(
            f"""(arg) => {{ const t = ({self.PANEL_TITLE})(arg.slice(0, 2));
                          return t.length === arg[3] && t[0] !== arg[2]; }}""",
            arg=[self._texts(chart_key), start, before, count],
            timeout=10_000,
            polling=10,
        )

    # The chart's own d_k slider (Plotly's, drawn in the chart's SVG: a mouse or a finger
    # drags it; it takes no keyboard focus)
    RAIL = f"{key(CHART)} .slider-rail-rect"
    GRIP = f"{key(CHART)} .slider-grip-rect"
    CURRENT = f"{key(CHART)} .slider-group > text.slider-label"  # "d_k = 64"
    APP = "[data-testid='stApp']"
    RUNS = """() => { const el = document.querySelector("[data-testid='stApp']");
        window.__runs = 0;
        new MutationObserver(() => { if (el.getAttribute('data-test-script-state') === 'running')
            window.__runs += 1; }).observe(el, {attributes: true}); }"""

    def chart_d_k(self) -> int:
        """The d_k the chart's own slider shows ("d_k = 64")."""
        return int((self.page.locator(self.CURRENT).text_content() or "").rsplit(" ", 1)[1])

    def notch(self, index: int, of: int) -> tuple[float, float]:
        """Where notch ``index`` of ``of`` is on the chart's slider (page px), in view."""
        self.page.locator(self.RAIL).scroll_into_view_if_needed()
        rail = self.page.locator(self.RAIL).bounding_box()
        grip = self.page.locator(self.GRIP).bounding_box()
        assert rail and grip
        inset = 8  # px: Plotly's first and last notches sit this far into the rail
        x = rail["x"] + inset + (rail["width"] - 2 * inset) * index / (of - 1)
        return x, grip["y"] + grip["height"] / 2

    def grab_chart_slider(self) -> None:
        """Press the mouse on the chart slider's grip (then ``drag_to``, then mouse.up)."""
        self.page.locator(self.RAIL).scroll_into_view_if_needed()
        grip = self.page.locator(self.GRIP).bounding_box()
        assert grip
        self.page.mouse.move(grip["x"] + grip["width"] / 2, grip["y"] + grip["height"] / 2)
        self.page.mouse.down()

    def watch_runs(self) -> None:
        """Count script runs from now on (``runs``): Streamlit's state turning to running."""
        self.page.evaluate(self.RUNS)

    def runs(self) -> int:
        return self.page.evaluate("() => window.__runs")

    def script_state(self) -> str:
        return self.page.locator(self.APP).first.get_attribute("data-test-script-state") or ""

    def wait_for_title_change(self, chart_key: str, before: str) -> None:
        """Wait (polling every 10 ms, for timing) until one new title is shown."""
        self.page.wait_for_function(
            """([sel, before]) => {
                   const t = [...document.querySelectorAll(sel)].map(e => e.textContent.trim());
                   return t.length === 1 && t[0] !== before;
               }""",
            arg=[self.title_selector(chart_key), before],
            timeout=10_000,
            polling=10,
        )


class ExercisesPage(AppPage):
    path = "/exercises"

    def answer_box(self, exercise: str, step: str) -> Locator:
        """The text box of a step (a text_input, or a text_area for a matrix)."""
        k = key(f"ex_{exercise}_{step}")
        return self.page.locator(f"{k} input, {k} textarea")

    def type_answer(self, exercise: str, step: str, text: str, commit: bool = False) -> None:
        box = self.answer_box(exercise, step)
        box.fill(text)
        if commit:  # Enter commits without Check
            box.press("Enter")
            wait_idle(self.page)

    def check(self, exercise: str, step: str) -> None:
        self.page.locator(f"{key(f'ex_{exercise}_{step}_check')} button").click()
        wait_idle(self.page)

    def card(self, exercise: str) -> Locator:
        return self.page.locator(key(f"card_{exercise}"))

    def card_alerts(self, exercise: str) -> Locator:
        return self.card(exercise).locator(ALERT)

    def show_solution(self, exercise: str) -> Locator:
        self.page.locator(f"{key(f'ex_{exercise}_solution')} button").click()
        wait_idle(self.page)
        return self.page.locator(key(f"solution_{exercise}"))

    def progress(self, text: str) -> Locator:
        return self.page.get_by_text(text)


class PresentationPage(AppPage):
    path = "/present"
    PROGRESS = f"{key('present_nav')} [data-testid='stProgress']"
    STAGE = f"{key('present_stage')} h2"
    CHART = "[data-testid='stPlotlyChart']"

    def progress(self) -> Locator:
        return self.page.locator(self.PROGRESS)

    def stage_heading(self) -> Locator:
        return self.page.locator(self.STAGE)

    def next_button(self) -> Locator:
        return self.page.locator(f"{key(present.NEXT_KEY)} button")

    def back_button(self) -> Locator:
        return self.page.locator(f"{key(present.BACK_KEY)} button")

    def next(self) -> None:
        self.next_button().click()
        wait_idle(self.page)

    def back(self) -> None:
        self.back_button().click()
        wait_idle(self.page)

    def press(self, arrow: str) -> None:
        """A keyboard shortcut ("ArrowRight", "ArrowLeft") with the page focused."""
        self.page.keyboard.press(arrow)
        wait_idle(self.page)

    def focus(self) -> None:
        self.stage_heading().click()  # the page, not a widget

    def charts(self) -> Locator:
        return self.page.locator(f"{MAIN} {self.CHART}")

    def stage_chart(self, stage: str) -> Heatmap:
        """The one figure of a walkthrough stage's slide."""
        return Heatmap(self.page, key(f"present_fig_{stage}"))

    def cell_labels(self, has_text: str | None = None) -> Locator:
        labels = self.page.locator(f"{MAIN} {self.CHART} .heatmap-label")
        return labels if has_text is None else labels.filter(has_text=has_text)

    def tokens(self) -> Locator:
        return self.page.locator(key("present_tokens"))

    def example_picker(self) -> Locator:
        """The "Change the example" popover's select box (hidden once the popover closes)."""
        return self.page.locator(key(present.PRESET_KEY))

    def numbers_tables(self) -> Locator:
        """The tables of an open "Numbers" popover (none while it is closed: not sent)."""
        return self.page.locator("[data-testid='stPopoverBody'] [data-testid='stTable'] table")

    def open_qkv_numbers(self) -> None:
        """Press the Q, K, V slide's "Numbers" button."""
        self.page.locator(f"{key('present_qkv_numbers')} button").click()

    @staticmethod
    def table_numbers(table: Locator) -> list[list[float]]:
        """The numbers of a table's body, row by row (the unicode minus read)."""
        return [[number(c) for c in r.locator("td").all_inner_texts()]
                for r in table.locator("tbody tr").all()]  # fmt: skip

    def expect_step(self, k: int, n: int, title: str) -> None:
        """The progress caption, the stage heading and the URL all say step k."""
        expect(self.progress()).to_contain_text(f"Step {k} of {n}")
        expect(self.stage_heading()).to_have_text(title)
        self.page.wait_for_url(re.compile(rf"[?&]step={k}(&|$)"), timeout=10_000)

    def content_bottom(self) -> float:
        """Where the slide's figures and text end, in px from the top of the viewport."""
        return self.page.evaluate(
            """(sel) => Math.max(...[...document.querySelectorAll(sel)]
                   .map(e => e.getBoundingClientRect().bottom))""",
            f"{MAIN} {self.CHART}, {MAIN} {key('present_text')}",
        )

    def overflow(self) -> float:
        """How many px the page scrolls below the screen (0 when the slide fits).

        Streamlit scrolls inside its main area (stMain), so document.scrollingElement's
        scrollHeight stays at the viewport's height however long the page is; both count.
        """
        return self.page.evaluate(
            """(sel) => Math.max(document.scrollingElement.scrollHeight,
                   ...[...document.querySelectorAll(sel)].map(e => e.scrollHeight))
                   - window.innerHeight""",
            MAIN,
        )

    def load_example(self, title: str) -> None:
        """The intro's "Change the example" → pick it → "Load it"."""
        self.page.get_by_role("button", name="Change the example").click()
        self.page.locator(f"{key(present.PRESET_KEY)} input").click()
        self.page.get_by_role("option", name=title).click()
        wait_idle(self.page)
        self.page.locator(f"{key(present.PRESET_KEY + '_load')} button").click()
        wait_idle(self.page)

    def exit(self) -> None:
        """Press "Exit presentation", once the page has settled: during a rerun Streamlit
        keeps the link's old copy beside its new one (a strict-mode error on a loaded box)."""
        wait_idle(self.page)
        self.page.get_by_role("link", name="Exit presentation").click()


class TrainingPage(AppPage):
    """The Training lab (its journey: tests/e2e/test_training_browser.py)."""

    path = "/training"


class MultiHeadPage(AppPage):
    """The Multi-head lab: head count, small multiples, one head, open it in the walkthrough."""

    path = "/multi-head"
    SMALL = ".st-key-mh_small .annotation-text"  # one figure: a panel title per head
    TIMEOUT = 60_000  # a long page of charts: on a busy 2-core box it can take 30 s to settle

    def open(self, params: str = "") -> MultiHeadPage:
        # Tall enough for the whole page: Streamlit loads elements below the fold lazily
        # (skeletons), and wait_idle waits for every one of them.
        self.page.set_viewport_size({"width": 1400, "height": 7000})
        goto(self.page, self.base + self.path + params, timeout=self.TIMEOUT)
        return self

    def open_link(self, url: str) -> MultiHeadPage:
        self.page.set_viewport_size({"width": 1400, "height": 7000})
        goto(self.page, url, timeout=self.TIMEOUT)
        return self

    def small_multiple_titles(self) -> list[str]:
        return [t.strip() for t in self.page.locator(self.SMALL).all_text_contents()]

    def option(self, widget: str, label: str) -> Locator:
        """One button of a segmented control (the head count, the head picker)."""
        return self.page.locator(f"{key(widget)} button").filter(has_text=re.compile(f"^{label}$"))

    def selected(self, widget: str) -> str:
        checked = self.page.locator(f"{key(widget)} [role='radio'][aria-checked='true']")
        return checked.inner_text().strip()

    def set_heads(self, n: int) -> None:
        self.option("n_heads_choice", str(n)).click()
        expect(self.page.locator(self.SMALL)).to_have_count(n, timeout=self.TIMEOUT)
        wait_idle(self.page, timeout=self.TIMEOUT)

    def pick_head(self, n: int) -> None:
        self.option("head", str(n)).click()
        wait_idle(self.page, timeout=self.TIMEOUT)

    def open_in_walkthrough(self, n: int) -> None:
        # by name: while the fragment reruns, the last run's button can still be on the page
        self.page.get_by_role("button", name=f"Open head {n} in the walkthrough").click()


class RealModelPage(AppPage):
    """The Real model lab: a sentence, a token, a layer and a head (1-based), stage tabs."""

    path = "/real-model"
    GALLERY, ON_TARGET, TARGETS = key("rm_gallery"), key("rm_on_target"), key("rm_targets")
    CHANGE = key("rm_change")  # the two-sentence comparison's 6 x 12 grid
    STAGE_CHARTS: ClassVar[dict[str, str]] = {
        "Scores": "rm_scores_chart",
        "Scaling": "rm_scaling_scaled",
        "Mask": "rm_mask_chart",
        "Softmax": "rm_softmax_chart",
        "Output": "rm_output_chart",
        "Q, K, V": "rm_proj_Q",
    }

    def type_sentence(self, text: str) -> None:
        box = self.page.locator(f"{key('rm_text')} input")
        box.fill(text)
        box.press("Enter")
        wait_idle(self.page)

    def sentence(self) -> str:
        return self.page.locator(f"{key('rm_text')} input").input_value()

    def tokens_line(self) -> str:
        """The tokens as the model sees them (the line after its bold heading)."""
        heading = self.page.locator(MAIN).get_by_text("The tokens, as the model sees them")
        line = heading.locator("xpath=ancestor::*[@data-testid='stElementContainer'][1]"
                               "/following-sibling::*[1]")  # fmt: skip
        return (line.inner_text() or "").translate(INVISIBLE)

    def _choose(self, widget: str, option: str) -> None:
        """Open a select box with the keyboard and click an option. Right after another box
        was used, a click (and, more rarely, ArrowDown) focused it without opening it: retry,
        typing the option (a long list draws only the options near the current one)."""
        wanted = self.page.get_by_role("option", name=option, exact=True)
        for attempt in range(4):
            wait_idle(self.page)
            self.page.locator(f"{key(widget)} input").focus()
            self.page.keyboard.press("ArrowDown")
            if attempt:  # the list shows only the options near the current one: filter it
                self.page.keyboard.type(option)
            try:
                wanted.wait_for(timeout=3_000)
                break
            except PlaywrightTimeoutError:
                self.page.keyboard.press("Escape")
        wanted.click()

    def pick_token(self, label: str) -> None:
        self._choose("rm_token", label)
        wait_idle(self.page)

    def pick_head(self, layer: int, head: int) -> None:
        """Layer and head as the page counts them (1-based)."""
        self._choose("rm_layer", str(layer))
        wait_idle(self.page)
        self._choose("rm_head", str(head))
        wait_idle(self.page)

    def picked(self, widget: str) -> str:
        return self.page.locator(f"{key(widget)} input").input_value()

    def open_stage(self, title: str) -> Heatmap:
        """Choose a stage ("Scores", "Softmax", ...) and return its chart once drawn."""
        stages = self.page.locator(key(self.STAGE_CHARTS["Scores"].split("_")[0] + "_stage"))
        stages.get_by_role("radio", name=title, exact=True).click()
        wait_idle(self.page)
        chart = Heatmap(self.page, key(self.STAGE_CHARTS[title]))
        chart.root.first.wait_for(timeout=30_000)
        return chart

    def chart(self, selector: str) -> Heatmap:
        return Heatmap(self.page, selector)

    def watch_gallery(self) -> None:
        """Count from now how often the gallery is marked stale (it is, in any full rerun)."""
        self.page.evaluate(ScalingLabPage._WATCH_STALE, self.GALLERY)

    def gallery_stale_flips(self) -> int:
        return self.page.evaluate(ScalingLabPage._STALE_FLIPS, self.GALLERY)

    def scroll_to_open_button(self) -> None:
        """Scroll to "Open this head in the walkthrough" (as a teacher does to press it)."""
        self.page.locator(f"{key('rm_open')} button").scroll_into_view_if_needed()

    def choose_token_tab(self, title: str) -> None:
        """One of the token tabs ("Two sentences side by side", ...), by its label."""
        tabs = self.page.locator(key("rm_token_tab"))
        tabs.get_by_role("radio", name=title, exact=True).click()

    def open_in_walkthrough(self) -> None:
        self.page.locator(f"{key('rm_open')} button").click()
        self.page.wait_for_url(re.compile(r"/scores\?s=v1\."), timeout=30_000)
        wait_idle(self.page)


class DecoderPage(RealModelPage):
    """The Decoder lab: a prompt, the next tokens, a token, a layer and a head (1-based)."""

    path = "/decoder"
    NEXT, GALLERY, ON_TARGET = key("dec_next"), key("dec_patterns"), key("dec_on_target")
    STAGE_CHARTS: ClassVar[dict[str, str]] = {
        "Scores": "dec_scores_chart",
        "Scaling": "dec_scaling_scaled",
        "Mask": "dec_mask_chart",
        "Softmax": "dec_softmax_chart",
        "Output": "dec_output_chart",
        "Q, K, V": "dec_proj_Q",
        "RoPE": "dec_rope_curve",
        "Shared K and V": "dec_gqa",
    }

    def type_prompt(self, text: str) -> None:
        box = self.page.locator(f"{key('dec_text')} input")
        box.fill(text)
        box.press("Enter")
        wait_idle(self.page)

    def next_tokens(self) -> list[str]:
        """The bars' labels of "What comes next", likeliest first ("1. ␣Paris", ...)."""
        chart = self.page.locator(self.NEXT)
        chart.locator(".ytick text").first.wait_for(timeout=30_000)
        return chart.locator(".ytick text").evaluate_all(
            """els => els.map(e => [e.getBoundingClientRect().top, e.textContent])
                         .sort((a, b) => a[0] - b[0]).map(p => p[1])"""
        )

    def pick_token(self, label: str) -> None:
        self._choose("dec_token", label)
        wait_idle(self.page)

    def pick_head(self, layer: int, head: int) -> None:
        self._choose("dec_layer", str(layer))
        wait_idle(self.page)
        self._choose("dec_head", str(head))
        wait_idle(self.page)

    def watch_gallery(self) -> None:
        self.page.evaluate(ScalingLabPage._WATCH_STALE, self.GALLERY)

    def gallery_stale_flips(self) -> int:
        return self.page.evaluate(ScalingLabPage._STALE_FLIPS, self.GALLERY)

    def open_in_walkthrough(self) -> None:
        self.page.locator(f"{key('dec_open')} button").click()
        self.page.wait_for_url(re.compile(r"/scores\?s=v1\."), timeout=30_000)
        wait_idle(self.page)


# ---- a live class: the teacher's console, the projector and a phone ---------------------------
def _downloaded(page: Page, button: Locator) -> bytes:
    """Press a download button; the bytes of the file the browser receives."""
    with page.expect_download() as download:
        button.click()
    return Path(download.value.path()).read_bytes()


def _table_rows(table: Locator) -> list[list[str]]:
    """A table's rows as read on screen, each a list of its cells' texts."""
    rows = table.locator("tr").all_inner_texts()
    return [[c.strip() for c in r.split("\t")] for r in rows]


class _Steps:
    """The presentation's "Step k of n" bar, as the projector and a following phone show it."""

    page: Page
    STEP_WORDS: ClassVar[dict[str, str]] = {"en": "Step {k} of", "fr": "Étape {k} sur"}

    def expect_on_step(self, k: int, timeout: float, lang: str = "en") -> None:
        """The page shows step k (while a run redraws, the old top row may linger a moment)."""
        shown = self.page.locator(PROGRESS).filter(has_text=self.STEP_WORDS[lang].format(k=k))
        expect(shown.first).to_be_visible(timeout=timeout)

    def step_caption(self) -> str:
        """What the (first) step bar says now, e.g. "Step 1 of 9"."""
        return self.page.locator(PROGRESS).first.inner_text()


class _GoesLive:
    """The teacher's "Go live" button (on presentation mode and on the console)."""

    page: Page

    def go_live_button(self) -> Locator:
        return self.page.locator(f"{key('live_start')} button").first

    def press_go_live(self) -> None:
        self.go_live_button().click()


class JoinScreen:
    """The join screen over the projector's page: the address, the code, its QR code."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.root = page.locator(key("live_join_screen"))

    def code(self) -> str:
        """The room's code in big letters."""
        return self.root.locator(".al-code").first.inner_text().strip()

    def qr(self) -> Locator:
        """The QR code of ``<address>/?join=CODE``."""
        return self.root.locator("img.al-qr").first

    def address(self) -> str:
        """The address the students are told to open."""
        return self.root.locator(".al-address").first.inner_text().strip()

    def alerts(self, has_text: str) -> Locator:
        """A notice on the join screen (e.g. about ATTENTION_LAB_PUBLIC_URL)."""
        return self.root.locator(ALERT).filter(has_text=has_text)

    def start_lesson(self, timeout: float) -> None:
        """Press "Start the lesson": the join screen goes (within ``timeout``)."""
        self.page.locator(f"{key('live_join_hide')} button").click()
        expect(self.root).to_be_hidden(timeout=timeout)


class ProjectorPage(_Steps, _GoesLive, PresentationPage):
    """Presentation mode on the projector, live: Go live, the join screen, the room's strip
    (its code and how many follow), the slides the class follows."""

    def go_live(self) -> str:
        """Go live: wait for the join screen; the room's code it shows."""
        self.press_go_live()
        expect(self.join_screen.root).to_be_visible(timeout=10_000)
        return self.join_screen.code()

    @property
    def join_screen(self) -> JoinScreen:
        return JoinScreen(self.page)

    def start_lesson(self, timeout: float) -> None:
        self.join_screen.start_lesson(timeout)

    def room_strip(self, label: str) -> Locator:
        """The strip's button when it reads ``label`` ("<code> · <how many follow>")."""
        return self.page.locator(f"{key('live_strip')} button").filter(has_text=label)


class ConsolePage(_GoesLive, AppPage):
    """The teacher's console: Go live, the room's head, steps and pages the class goes to,
    pause, ask the class (tally, reveal, CSV), a practice at their own pace (its dashboard,
    grid and CSV), the control link's QR code, and End the class."""

    path = "/console"

    # ---- the room
    def head(self) -> Locator:
        """The console's head line: "Live class <code>" and the room's state."""
        return self.page.locator(key("console_head"))

    def code(self) -> str:
        """The room's code, read from the head line."""
        return self.head().inner_text().split("Live class ")[1][:5]

    def show_join_link(self) -> None:
        """Turn on the console's own copy of the join link and its QR code."""
        self.page.locator(f"{key('live_link_shown')} label").first.click()

    def join_qr(self) -> Locator:
        """The QR code of the join link shown on the console."""
        return self.page.locator("img.al-qr").first

    def pause(self) -> None:
        self.page.locator(f"{key('live_pause_btn')} button").click()

    def resume(self) -> None:
        self.page.locator(f"{key('live_resume')} button").click()

    def next_button(self) -> Locator:
        return self.page.locator(f"{key('console_next')} button")

    def _pick(self, widget: str, option: str) -> None:
        """Pick ``option`` in a select box (its list opens on a click of the box)."""
        self.page.locator(f"{key(widget)} input").click()
        self.page.get_by_role("option", name=option, exact=True).click()

    def take_class_to(self, page_label: str) -> None:
        """Pick a page in "Go to" ("1. Inputs"), press "Go there": the class follows."""
        self._pick("console_go_to", page_label)
        self.page.locator(f"{key('console_go_btn')} button").click()
        wait_idle(self.page)

    def load_example(self, title: str) -> None:
        """*Change the example*: pick the example by its title, Load it."""
        if not self.page.locator(key("console_preset")).is_visible():
            self.page.locator("summary").filter(has_text="Change the example").click()
        wait_idle(self.page)
        self._pick("console_preset", title)
        self.page.locator(f"{key('console_preset_load')} button").click()
        wait_idle(self.page)

    def end_class(self) -> None:
        """Press "End the class", then "End it for everyone"."""
        self.page.locator(f"{key('console_end')} button").first.click()
        self.page.locator(f"{key('live_end')} button").click()

    # ---- ask the class
    def ask_button(self) -> Locator:
        return self.page.locator(f"{key('live_ask')} button")

    def ask(self) -> None:
        """Ask the class the suggested question."""
        self.ask_button().click()

    def tally(self, has_text: str) -> Locator:
        """The answers' tally while it says ``has_text`` ("2 answered"). While its fragment
        reruns, Streamlit may keep the old chart on screen a moment ("retained"): the
        current one only."""
        return self.page.locator(f"{key('live_tally')}:not([data-retained])").filter(
            has_text=has_text
        )

    def tally_bars(self, has_text: str) -> dict[str, float]:
        """The tally chart's bars (verdict or slip: how many), read from the chart's data."""
        chart = self.tally(has_text).locator(".js-plotly-plot")
        return chart.evaluate(
            "p => Object.fromEntries(p.data[0].y.map((y, i) => [y, p.data[0].x[i]]))"
        )

    def download_answers(self) -> bytes:
        """The answers' CSV, as downloaded."""
        return _downloaded(self.page, self.page.locator(f"{key('live_csv')} button"))

    def reveal(self) -> None:
        self.page.locator(f"{key('live_reveal')} button").click()

    # ---- a practice at their own pace
    def open_practice(self) -> None:
        """Open the "Practice at their own pace" expander."""
        self.page.get_by_text("Practice at their own pace").first.click()

    def start_practice(self) -> None:
        """Press "Start the practice" (the first exercise open)."""
        self.page.locator(f"{key('pace_start')} button").click()

    def dashboard(self) -> Locator:
        return self.page.locator(key("pace_dashboard"))

    def grid(self) -> Locator:
        """The grid of seats by steps (its table)."""
        return self.page.locator(f"{key('pace_grid')} table")

    def wait_for_grid_last_row(self, has: str, timeout: float) -> None:
        """Wait for the grid's next refresh whose last row holds ``has`` (e.g. "✓\\t✓")."""
        self.page.wait_for_function(
            "([sel, has]) => document.querySelector(sel).innerText"
            ".split('\\n').pop().includes(has)",
            arg=[f"{key('pace_grid')} table", has],
            timeout=timeout,
        )

    def grid_rows(self) -> list[list[str]]:
        return _table_rows(self.page.locator(f"{key('pace_grid')} table"))

    def dashboard_rows(self) -> list[list[str]]:
        """Every row of the dashboard's tables, the counts by step first."""
        return _table_rows(self.page.locator(f"{key('pace_dashboard')} table"))

    def scroll_to_grid(self) -> None:
        self.page.locator(key("pace_grid")).scroll_into_view_if_needed()

    def download_practice(self) -> bytes:
        """The practice's CSV, as downloaded."""
        return _downloaded(self.page, self.page.locator(f"{key('pace_csv')} button"))


class PhonePage(_Steps, AppPage):
    """A student's phone: joins by code, follows the teacher (or explores and comes back),
    answers a question, and at their own pace gives a nickname and checks exercise steps."""

    path = "/"

    @classmethod
    def new(cls, browser: Browser, base: str) -> PhonePage:
        """A new phone: its own browser context (``PHONE``), nothing loaded yet."""
        return cls(browser.new_context(**PHONE).new_page(), base)

    def join(self, code: str, lang: str | None = None) -> PhonePage:
        """Open the join link ``/?join=CODE`` (as the QR code does); waits for nothing."""
        self.page.goto(f"{self.base}/?join={code}" + (f"&lang={lang}" if lang else ""))
        return self

    def type_code(self, code: str) -> None:
        """Type a code into the join box and press Enter."""
        box = self.page.locator(f"{key('live_code')} input")
        box.fill(code)
        box.press("Enter")

    def reload(self) -> None:
        self.page.reload()

    # ---- following the teacher
    def bar(self) -> Locator:
        """The follower's bar: following the teacher, exploring, reconnecting."""
        return self.page.locator(key("live_bar"))

    def explore_button(self) -> Locator:
        return self.page.locator(f"{key('live_explore')} button")

    def back_button(self) -> Locator:
        return self.page.locator(f"{key('live_back')} button")

    def explore(self) -> None:
        """Press "Explore on my own"."""
        self.explore_button().click()

    def back_to_teacher(self) -> None:
        """Press "Back to the teacher"."""
        self.back_button().click()

    def pause_notice(self) -> Locator:
        return self.page.locator(key("live_pause"))

    def slide_tokens(self) -> Locator:
        """The tokens of the slide the phone shows."""
        return PresentationPage(self.page).tokens()

    def wait_for_scenario(self, s: str, timeout: float) -> None:
        """Wait until the phone's address holds the scenario ``s`` (a ``?s=`` value)."""
        self.page.wait_for_function("(s) => location.search.includes(s)", arg=s, timeout=timeout)

    # Each phone notes, on its own clock, when it first shows the step: a time measured so
    # includes neither Playwright's polling nor a busy test process.
    _NOTE_STEP = f"""text => {{ window.__alShownAt = 0; const id = setInterval(() => {{
      const bars = [...document.querySelectorAll("{PROGRESS}")];
      if (!bars.some(b => b.innerText.includes(text))) return;
      window.__alShownAt = Date.now();
      clearInterval(id);
    }}, 20); }}"""

    def note_when_step_shows(self, k: int, lang: str = "en") -> None:
        """From now on, note the time (on the phone's clock) the phone first shows step k."""
        self.page.evaluate(self._NOTE_STEP, self.STEP_WORDS[lang].format(k=k))

    def step_shown_at(self) -> float:
        """When the phone showed the noted step, in s since the epoch (0: not yet)."""
        return self.page.evaluate("window.__alShownAt") / 1000

    # ---- a question from the teacher
    def question(self) -> Locator:
        """The question's card (the question, the phone's answer, then the answer)."""
        return self.page.locator(key("live_question"))

    def answer(self, value: str, timeout: float) -> None:
        """Type an answer once the question arrives (within ``timeout``), press Enter."""
        box = self.page.locator(f"{key('live_answer')} input")
        expect(box).to_be_visible(timeout=timeout)
        box.fill(value)
        box.press("Enter")

    # ---- a practice at its own pace
    def pace_card(self) -> Locator:
        """The practice's card: the seat, its nickname, the open exercise."""
        return self.page.locator(key("pace_card"))

    def set_nickname(self, name: str) -> None:
        self.page.locator(f"{key('pace_nick')} input").fill(name)
        self.page.get_by_role("button", name="Use it").click()

    def type_answer(self, exercise: str, step: str, text: str) -> None:
        """Type into a step's box without checking it."""
        ExercisesPage(self.page).type_answer(exercise, step, text)

    # The verdicts on the page, as text: a check is done once they have changed.
    VERDICTS = f'() => [...document.querySelectorAll("{MAIN} {ALERT}")].map(e => e.innerText)'

    def check(self, exercise: str, step: str, text: str) -> None:
        """Type an answer into an exercise's step (Enter) and press Check, as a student does,
        and wait for its verdict: on a loaded 2-core box a Check pressed while the answer's
        own rerun was still drawing was lost, and the next step was typed over it. (The
        verdict must differ from what the page said before: a new step, or a new answer.)"""
        exercises = ExercisesPage(self.page)
        exercises.type_answer(exercise, step, text, commit=True)
        wait_idle(self.page)
        before = self.page.evaluate(self.VERDICTS)
        exercises.check(exercise, step)
        self.page.wait_for_function(
            f"(before) => JSON.stringify(({self.VERDICTS})()) !== JSON.stringify(before)",
            arg=before,
            timeout=30_000,
        )


PAGES: dict[str, type[AppPage]] = {
    "start": StartPage,
    "inputs": InputsPage,
    "projections": ProjectionsPage,
    "scores": ScoresPage,
    "scaling": ScalingPage,
    "mask": MaskPage,
    "softmax": SoftmaxPage,
    "output": OutputPage,
    "scaling-lab": ScalingLabPage,
    "training": TrainingPage,
    "multi-head": MultiHeadPage,
    "exercises": ExercisesPage,
    "present": PresentationPage,
    "console": ConsolePage,
    "real-model": RealModelPage,
    "decoder": DecoderPage,
}


def page_for(page_key: str, page: Page, base: str = "") -> AppPage:
    """The page object of a page registry key (attention_ui.frame.pages), e.g. "softmax"."""
    return PAGES[page_key](page, base)
