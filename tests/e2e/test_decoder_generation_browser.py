"""The decoder at work in a real browser: a learner sets a temperature and a top-k cut-off,
generates tokens with a seed, and steps into the KV-cache and online-softmax stages; at a
desktop's 1280 x 800 in English and a phone's 390 x 844 in French, each page axe-clean.

The expected tokens come from the core's own generate() (checked against recomputation in
tests/core/test_decoder_generation.py); the page must append exactly those.
"""

from __future__ import annotations

from itertools import pairwise
from urllib.parse import quote_plus

import numpy as np
import pytest
from a11y import audit, blocking
from helpers import EXCEPTION, MAIN, shot, wait_idle
from page_objects import METRIC_VALUE, DecoderPage, Heatmap, key, number, query
from playwright.sync_api import Browser, Page

from attention_core import online_attention
from tests.core import smollm2

pytestmark = pytest.mark.e2e

PROMPT = "The capital of France is"
SETTLE = 90_000  # ms: Generate runs the model 4 times; a loaded 2-core CI box takes its time
PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0 Mobile Safari/537.36"
)


@pytest.fixture(scope="module")
def decoder():
    return smollm2.decoder()  # skips when absent; fails under CI=true


def stage(page: Page, name: str) -> None:
    page.locator(key("dec_stage")).get_by_role("radio", name=name, exact=True).click()
    wait_idle(page, timeout=SETTLE)


def set_number(page: Page, widget: str, value: int) -> None:
    box = page.locator(f"{key(widget)} input")
    box.fill(str(value))
    box.press("Enter")
    wait_idle(page, timeout=SETTLE)


# The chart's 64 column labels: each drawn whole, apart from its neighbours (squeezed into a
# phone's 358 px they ran together), in a box of its own that scrolls sideways and is a
# named keyboard stop; the page itself does not scroll sideways.
LABEL_BOXES = """(key) => {
    const box = document.querySelector(`.st-key-${key}__sideways`);
    const labels = [...document.querySelectorAll(`.st-key-${key} .xtick text`)]
        .map((t) => t.getBoundingClientRect()).sort((a, b) => a.left - b.left);
    return {scrolls: box ? box.scrollWidth > box.clientWidth : null,
            named: box ? box.getAttribute("aria-label") : null,
            tabindex: box ? box.getAttribute("tabindex") : null,
            boxes: labels.map((r) => [r.left, r.right, r.width])};
}"""


def assert_labels_apart_in_a_box_that_scrolls(page: Page, chart: str, n: int) -> None:
    found = page.evaluate(LABEL_BOXES, chart)
    assert found["scrolls"] and found["named"] and found["tabindex"] == "0", found
    boxes = found["boxes"]
    assert len(boxes) == n and all(width > 0 for _, _, width in boxes), boxes
    overlaps = [(a, b) for a, b in pairwise(boxes) if a[1] > b[0] + 0.5]
    assert not overlaps, overlaps


def assert_axe_clean(page: Page, where: str) -> None:
    # the option just clicked keeps the mouse and the focus: their tint is not its look
    page.mouse.move(0, 0)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    found = blocking(audit(page))
    assert not found, f"{where}:\n" + "\n".join(map(str, found))


def test_temperature_generation_and_the_two_stages_on_a_desktop(
    browser: Browser, app_server: str, decoder
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(f"{app_server}/decoder?dec_text={quote_plus(PROMPT)}&dec_temp=0.8&dec_seed=3")
        wait_idle(page, timeout=SETTLE)
        lab = DecoderPage(page)
        sampling = page.locator(key("dec_sampling"))
        sampling.get_by_text("The next token at T = 0.8").wait_for(timeout=30_000)
        set_number(page, "dec_top_k", 5)
        assert query(page.url)["dec_top_k"] == "5"
        assert lab.main_text("5 tokens are kept").count() == 1
        set_number(page, "dec_n", 4)
        page.locator(f"{key('dec_generate')} button").click()
        new = decoder.generate(PROMPT, 4, 0.8, top_k=5, seed=3)
        box = f"{MAIN} {key('dec_text')} input"
        page.wait_for_function("([sel, old]) => document.querySelector(sel).value !== old",
                               arg=[box, PROMPT], timeout=30_000)  # fmt: skip
        wait_idle(page, timeout=SETTLE)
        assert page.locator(box).input_value() == PROMPT + decoder.decode(new)
        assert lab.main_text("Drawn:").count() == 1
        shot(page, "decoder-sampling-desktop", full=False)
        assert_axe_clean(page, "sampling, desktop")

        stage(page, "KV cache")
        lab.main_text("Equal to recomputing.").wait_for(timeout=30_000)
        page.locator(key("dec_kv_query")).scroll_into_view_if_needed()
        shot(page, "decoder-kv-cache-desktop", full=False)
        stage(page, "Online softmax")
        page.locator(key("dec_tile_out")).wait_for(timeout=30_000)
        thumb = page.locator(key("dec_tile")).get_by_role("slider")
        thumb.focus()
        for _ in range(2):  # 4 keys a tile (the default) -> 2, with the keyboard
            thumb.press("ArrowLeft")
        wait_idle(page, timeout=SETTLE)
        assert query(page.url)["dec_tile"] == "2"
        caption = lab.main_text("keys it may see, in").inner_text()  # "... the 9 keys ..."
        n = int(caption.split(" keys it may see")[0].split()[-1])
        assert caption.endswith(f"in {(n + 1) // 2} tiles.")  # tiles of 2
        page.locator(key("dec_tile_out")).scroll_into_view_if_needed()
        shot(page, "decoder-online-softmax-desktop", full=False)
        assert_axe_clean(page, "online softmax, desktop")
        assert page.locator(EXCEPTION).count() == 0
    finally:
        context.close()


def test_the_sampling_and_online_softmax_on_a_phone_in_french(
    browser: Browser, app_server: str, decoder
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, user_agent=PHONE_UA)
    page = context.new_page()
    try:
        page.goto(f"{app_server}/decoder?lang=fr&dec_text={quote_plus(PROMPT)}&dec_temp=1.2"
                  "&dec_top_p=0.9")  # fmt: skip
        wait_idle(page, timeout=SETTLE)
        sampling = page.locator(key("dec_sampling"))
        sampling.get_by_text("Le token suivant à T = 1.2").wait_for(timeout=30_000)
        page.locator(f"{MAIN}").get_by_text("Température et échantillonnage").first.wait_for()
        sampling.scroll_into_view_if_needed()
        shot(page, "decoder-sampling-phone-fr", full=False)
        width = page.evaluate("document.querySelector('[data-testid=stMain]').scrollWidth")
        assert width <= 390
        stage(page, "Softmax en ligne")
        page.locator(f"{MAIN}").get_by_text("Les noyaux rapides (FlashAttention)").wait_for()
        page.locator(key("dec_tile_out")).scroll_into_view_if_needed()
        shot(page, "decoder-online-softmax-phone-fr", full=False)
        assert page.evaluate("document.querySelector('[data-testid=stMain]').scrollWidth") <= 390
        assert_labels_apart_in_a_box_that_scrolls(page, "dec_tile_out", 64)
        assert_axe_clean(page, "online softmax, phone, French")
        assert page.locator(EXCEPTION).count() == 0
    finally:
        context.close()


# ---- the same walk in more languages and sizes: one context per kind of screen, shared ------
PHONE = {"viewport": {"width": 390, "height": 844}, "user_agent": PHONE_UA}
PROJECTOR = {"viewport": {"width": 1280, "height": 720}}
WORDS = {  # the chart title at T = 0.8, the two stages' names, the entropy's unit
    "de": ("Das nächste Token bei T = 0.8", "KV-Cache", "Online-Softmax", "nats"),
    "zh": ("T = 0.8 时的下一个词元", "KV 缓存", "在线 softmax", "奈特"),
    "es": ("El token siguiente con T = 0.8", "Caché KV", "Softmax en línea", "nats"),
}
WALK = {"dec_temp": "0.8", "dec_top_k": "5", "dec_layer": "5", "dec_head": "2",
        "dec_token": "is", "dec_tile": "2"}  # fmt: skip


@pytest.fixture(scope="module")
def screens(browser: Browser):
    made = {"phone": browser.new_context(**PHONE), "projector": browser.new_context(**PROJECTOR)}
    yield made
    for context in made.values():
        context.close()


def within_printed(shown: list[str], expected: np.ndarray, where: str) -> None:
    """Each printed number equals the core's to the digits it prints (half a unit of the
    last digit, the rounding's whole error; 4.99e−03 prints 5 decimals)."""
    assert len(shown) == expected.size, (where, len(shown), expected.size)
    for text, want in zip(shown, expected.ravel(), strict=True):
        mantissa, _, power = text.replace("−", "-").partition("e")
        digits = (len(mantissa.split(".")[1]) if "." in mantissa else 0) - int(power or 0)
        assert abs(number(text) - want) <= 0.5 * 10.0**-digits * (1 + 1e-9), (where, text, want)


@pytest.mark.parametrize(("lang", "screen"), [("de", "phone"), ("zh", "phone"),
                                              ("es", "projector")])  # fmt: skip
def test_sampling_cache_and_online_softmax_in_more_languages(
    screens, app_server: str, decoder, lang: str, screen: str
) -> None:
    """The numbers drawn against the core's: the bars are next_token_distribution at T = 0.8
    (3 decimals), the entropy is that of its top-k = 5 cut, the cache's size is the
    architecture's 2 x 30 layers x 3 K/V heads x n x 64 x 4 bytes, and the online softmax's
    last row is attention()'s output for the head (layer 5, head 2, row "is")."""
    title, kv_stage, online_stage, nats = WORDS[lang]
    page = screens[screen].new_page()
    width = page.viewport_size["width"]
    try:
        page.goto(f"{app_server}/decoder?lang={lang}&dec_text={quote_plus(PROMPT)}&"
                  + "&".join(f"{k}={v}" for k, v in WALK.items()))  # fmt: skip
        wait_idle(page, timeout=SETTLE)
        sampling = page.locator(key("dec_sampling"))
        sampling.get_by_text(title).wait_for(timeout=60_000)
        at_t = decoder.next_token_distribution(PROMPT, 0.8)
        bars = sorted(sampling.locator("text.bartext").all_text_contents(), key=number,
                      reverse=True)  # fmt: skip
        assert bars == [f"{p:.3f}" for p in at_t.p[:12]]
        entropy = decoder.next_token_distribution(PROMPT, 0.8, top_k=5).entropy
        assert page.locator(METRIC_VALUE).first.inner_text() == f"{entropy:.2f} {nats}"
        sampling.scroll_into_view_if_needed()
        shot(page, f"decoder-sampling-{screen}-{lang}", full=False)
        assert page.evaluate("document.querySelector('[data-testid=stMain]').scrollWidth") <= width

        stage(page, kv_stage)
        page.locator(key("dec_kv_query")).wait_for(timeout=60_000)
        n = len(decoder.tokenize(PROMPT).ids) + 1
        assert f"{2 * 30 * 3 * n * 64 * 4:,}" in page.locator(MAIN).inner_text()
        page.locator(key("dec_kv_query")).scroll_into_view_if_needed()
        shot(page, f"decoder-kv-cache-{screen}-{lang}", full=False)

        stage(page, online_stage)
        run = decoder.run(PROMPT)
        q, t = run.labels.index("is"), run.head(4, 1)
        tiles = online_attention(t.Q[q : q + 1], t.K[: q + 1], t.V[: q + 1], 2).tiles
        cells = Heatmap(page, key("dec_tile_out")).cell_texts()
        expected = np.vstack([s.partial[0] for s in tiles] + [t.output[q]])
        within_printed(cells, expected, f"online softmax, {lang}")
        page.locator(key("dec_tile_out")).scroll_into_view_if_needed()
        shot(page, f"decoder-online-softmax-{screen}-{lang}", full=False)
        assert page.evaluate("document.querySelector('[data-testid=stMain]').scrollWidth") <= width
        assert page.locator(EXCEPTION).count() == 0
    finally:
        page.close()
