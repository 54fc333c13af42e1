"""A short link keeps everything the full link keeps (issue 41, defect 5): every page with
parameters of its own (keys.PAGE_PARAMS) is opened with values that are not its defaults,
its full share link is read from the sidebar, a short link is made there and followed in a
fresh session over the same real SQLite store, and that session's full link must be the same.

The values are the test's own, picked away from each widget's default; the first session's
full link must hold every one of them (else the comparison would prove nothing)."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote_plus

import pytest
from streamlit.testing.v1 import AppTest

from attention_core import PRESETS
from attention_ui.frame import keys, links
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.sidebar import SHARE_BOX
from tests.core import minilm, smollm2

APP = str(Path(__file__).resolve().parents[2] / "app.py")
CAT_MAT = PRESETS["cat_mat"].build()  # six query rows, one of them "the (2)"
ROWS = CAT_MAT.query_labels

# Not the defaults: a later query row (with a space and brackets to encode), d_k 256, seed 7,
# the previous-token task with its rate, spread, steps and a step the slider can land on (a
# multiple of steps / 50), a second head, a later layer and head.
VALUES: dict[str, dict[str, str]] = {
    "softmax": {keys.SOFTMAX_ROW: ROWS[4]},
    "output": {keys.OUTPUT_ROW: ROWS[4]},
    "scaling-lab": {keys.LAB_DK: "256", keys.LAB_SEED: "7"},
    "training": {
        keys.TR_TASK: "previous",
        keys.TR_DK: "64",
        keys.TR_LR: "3.0",
        keys.TR_SPREAD: "0.5",
        keys.TR_STEPS: "100",
        keys.TR_SEED: "5",
        keys.TR_STEP: "40",
    },
    "multi-head": {keys.HEAD: "2"},
    "real-model": {keys.RM_LAYER: "3", keys.RM_HEAD: "5"},
    "decoder": {keys.DEC_LAYER: "10", keys.DEC_HEAD: "4"},
}
MODELS = {"real-model": minilm.model, "decoder": smollm2.decoder}  # skip when absent


def test_every_page_with_parameters_and_a_share_box_is_walked() -> None:
    # presentation mode has no sidebar, so no share box and no short link of its own
    shared = {page for page in keys.PAGE_PARAMS if BY_KEY[page].sidebar}
    assert set(VALUES) == shared and "present" not in shared


def full_link(at: AppTest) -> dict[str, str]:
    """The sidebar's full share link, as its query (the host is the test's, never compared)."""
    boxes = " ".join(h.proto.body for h in at.get("html") if "al-share-full" in h.proto.body)
    found = re.search(r'id="al-share-full" value="([^"]*)"', boxes)
    assert found, "no full share link in the sidebar"
    query = html.unescape(found.group(1)).split("?", 1)[1]
    return dict(pair.split("=", 1) for pair in query.split("&"))


def session(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state[SHARE_BOX] = True  # the sidebar's "Share and export", open
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


@pytest.mark.parametrize("page", sorted(VALUES))
def test_a_short_link_opens_what_the_full_link_opens(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if page in MODELS:
        MODELS[page]()  # skips with the reason when the model is absent (fails under CI)
    monkeypatch.setenv("LIVE_STORE", f"sqlite://{tmp_path / 'live.db'}")
    links._links.clear()
    maker = session({keys.URL_KEY: CAT_MAT.to_url(), **VALUES[page]})
    maker.switch_page(BY_KEY[page].path).run()
    assert not maker.exception, [e.message for e in maker.exception]
    full = full_link(maker)
    held = {k: unquote_plus(v) for k, v in full.items()}
    assert {k: held.get(k) for k in VALUES[page]} == VALUES[page]  # the full link keeps them
    maker.sidebar.button(key="short_link_make").click().run()
    made = maker.session_state[keys.SHORT_LINK]
    assert made[2] is not None, made

    follower = session({keys.SHORT: made[2]})
    assert not follower.exception, [e.message for e in follower.exception]
    assert follower.title[0].value == BY_KEY[page].title
    assert full_link(follower) == full  # the same address, parameter for parameter
