"""Scenario: validation messages, lossless round trips, and tampered or hostile payloads."""

from __future__ import annotations

import base64
import json
import re
import string
import time
import tracemalloc
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import MASK_KINDS, PRESETS, InputError, Scenario, resize
from attention_core.presets import hungry, paper_toy
from attention_core.scenario import MAX_URL_CHARS

MATRIX_NAMES = ("X", "W_q", "W_k", "W_v", "Q", "K", "V")
BAD_LINK = (
    "this link's scenario could not be read (it may be cut off or edited); "
    "showing the default scenario instead"
)
URL_ALPHABET = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"


def raises_exactly(message: str):
    return pytest.raises(InputError, match="^" + re.escape(message) + "$")


def assert_same_scenario(a: Scenario, b: Scenario) -> None:
    """Field by field, bit for bit (a == b only compares to_dict())."""
    assert a == b
    for field in ("tokens", "mode", "query_tokens", "mask_kind", "n_valid", "scaled", "name"):
        assert getattr(a, field) == getattr(b, field), field
    for name in MATRIX_NAMES:
        A, B = getattr(a, name), getattr(b, name)
        assert (A is None) == (B is None), name
        if A is not None:
            A = np.asarray(A, dtype=np.float64)
            assert B.dtype == np.float64
            assert A.shape == B.shape, name
            assert A.tobytes() == B.tobytes(), name  # same bits, -0.0 included
    if a.custom_mask is None:
        assert b.custom_mask is None
    else:
        assert b.custom_mask.dtype == np.bool_
        np.testing.assert_array_equal(a.custom_mask, b.custom_mask)


def round_trips(s: Scenario) -> None:
    assert_same_scenario(s, Scenario.from_dict(s.to_dict()))
    assert_same_scenario(s, Scenario.from_dict(json.loads(json.dumps(s.to_dict()))))
    assert_same_scenario(s, Scenario.from_json(s.to_json()))
    assert_same_scenario(s, Scenario.from_json(s.to_json().encode()))
    url = s.to_url()
    assert url.startswith("v1.")
    assert re.fullmatch(r"v1\.[A-Za-z0-9_-]+", url)
    assert_same_scenario(s, Scenario.from_url(url))


# ---- round trips ----------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_preset_round_trips(key):
    s = PRESETS[key].build()
    round_trips(s)
    again = Scenario.from_url(s.to_url()).trace()
    np.testing.assert_array_equal(again.weights, s.trace().weights)


def test_round_trip_keeps_masks_and_flags():
    base = hungry()
    for s in (
        base.replace(mask_kind="padding", n_valid=2, scaled=False),
        base.replace(mask_kind="custom", custom_mask=np.array([[True, False, True]])),
        base.replace(mask_kind="custom"),
        paper_toy().replace(query_tokens=None, tokens=("k",), Q=[[1.0, 2.0]], K=[[0.1, 1e-12]],
                            V=[[-3.5e7]], mask_kind="causal"),
    ):  # fmt: skip
        s.validate()
        round_trips(s)


SPECIAL_VALUES = [0.0, -0.0, 0.1, 1e-12, -3.5e7, 1 / 3, 2.5e-300, -1e15, 7.0]
cells = st.sampled_from(SPECIAL_VALUES) | st.floats(-1e9, 1e9)
token_text = st.text(min_size=1, max_size=12).filter(lambda t: t.strip() != "")


def grid(rows: int, cols: int):
    return arrays(np.float64, (rows, cols), elements=cells)


@st.composite
def scenarios(draw) -> Scenario:
    """Valid scenarios of every mode and mask kind."""
    mode = draw(st.sampled_from(("embeddings", "direct")))
    n = draw(st.integers(1, 4))
    tokens = tuple(draw(st.lists(token_text, min_size=n, max_size=n)))
    d_k, d_v = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    if mode == "embeddings":
        d_model = draw(st.integers(1, 3))
        query_tokens = None
        mats = {
            "X": draw(grid(n, d_model)),
            "W_q": draw(grid(d_model, d_k)),
            "W_k": draw(grid(d_model, d_k)),
            "W_v": draw(grid(d_model, d_v)),
        }
    else:
        query_tokens = draw(st.none() | st.lists(token_text, min_size=1, max_size=4).map(tuple))
        n_q = n if query_tokens is None else len(query_tokens)
        mats = {"Q": draw(grid(n_q, d_k)), "K": draw(grid(n, d_k)), "V": draw(grid(n, d_v))}
    n_q = n if query_tokens is None else len(query_tokens)
    kinds = MASK_KINDS if n_q == n else tuple(k for k in MASK_KINDS if k != "causal")
    mask_kind = draw(st.sampled_from(kinds))
    n_valid = draw(st.none() | st.integers(1, n)) if mask_kind == "padding" else None
    custom = None
    if mask_kind == "custom" and draw(st.booleans()):
        custom = draw(arrays(np.bool_, (n_q, n)))
        custom[
            np.arange(n_q), draw(st.lists(st.integers(0, n - 1), min_size=n_q, max_size=n_q))
        ] = True
    return Scenario(
        tokens=tokens,
        mode=mode,
        query_tokens=query_tokens,
        mask_kind=mask_kind,
        n_valid=n_valid,
        custom_mask=custom,
        scaled=draw(st.booleans()),
        name=draw(st.text(max_size=40)),
        **mats,
    )


@settings(max_examples=80, deadline=None)
@given(scenarios())
def test_generated_scenarios_round_trip_losslessly(s):
    np.testing.assert_array_equal(s.validate().weights, s.trace().weights)
    round_trips(s)


# ---- tampered dicts and files ---------------------------------------------------------
def _paper_dict(**changes):
    d = paper_toy().to_dict()
    d.update(changes)
    return d


def _with_matrix(name, value):
    d = paper_toy().to_dict()
    d["matrices"][name] = value
    return d


def _with_mask(**mask):
    d = paper_toy().to_dict()
    d["mask"] = mask
    return d


TAMPERED = [
    pytest.param([], "a scenario must be a JSON object", id="not-an-object"),
    pytest.param("paper", "a scenario must be a JSON object", id="a-string"),
    pytest.param(_paper_dict(version=2), "unsupported scenario version 2", id="version-2"),
    pytest.param(_paper_dict(version="1"), "unsupported scenario version '1'", id="version-text"),
    pytest.param({"tokens": ["a"]}, "unsupported scenario version None", id="no-version"),
    pytest.param(
        _paper_dict(extra=1, more=2),
        "unexpected field(s) in scenario: ['extra', 'more']",
        id="unknown-fields",
    ),
    pytest.param(
        _with_matrix("Q", [["1", "2"]]),
        "the scenario's Q must be a list of rows of numbers",
        id="strings-in-matrix",
    ),
    pytest.param(
        _with_matrix("K", [[True, False], [False, True]]),
        "the scenario's K must be a list of rows of numbers",
        id="booleans-in-matrix",
    ),
    pytest.param(
        _with_matrix("V", [[10.0], [20.0, 1.0]]),
        "the scenario's V has rows of different lengths",
        id="ragged-rows",
    ),
    pytest.param(
        _with_matrix("V", "[[10], [20]]"),
        "the scenario's V must be a list of rows of numbers",
        id="matrix-as-text",
    ),
    pytest.param(
        _with_matrix("V", [10.0, 20.0]),
        "the scenario's V must be a list of rows of numbers",
        id="flat-list",
    ),
    pytest.param(
        _with_matrix("V", [[None], [20.0]]),
        "the scenario's V must be a list of rows of numbers",
        id="null-in-matrix",
    ),
    pytest.param(_with_matrix("Q", [[10**400, 1]]), "Q must be a grid of numbers", id="huge-int"),
    pytest.param(
        _with_matrix("Q", [[float("nan"), 1.0]]),
        "Q row 1, column 1 is nan: every entry must be a finite number",
        id="nan",
    ),
    pytest.param(
        _with_matrix("Q", []),
        "Q has 0 columns: each row needs at least one number",
        id="empty-matrix",
    ),
    pytest.param(
        _with_matrix("Z", [[1.0]]),
        "the scenario's matrices must be X, W_q, W_k, W_v, W_o, Q, K or V",
        id="unknown-matrix",
    ),
    pytest.param(
        _paper_dict(matrices=[]),
        "the scenario's matrices must be X, W_q, W_k, W_v, W_o, Q, K or V",
        id="matrices-not-object",
    ),
    pytest.param(
        _with_mask(kind="none", extra=1),
        "the scenario's mask must have kind, n_valid and custom only",
        id="mask-field",
    ),
    pytest.param(
        _with_mask(kind="padding", n_valid="2"),
        "the mask's n_valid must be a whole number",
        id="n_valid-text",
    ),
    pytest.param(
        _with_mask(kind="padding", n_valid=True),
        "the mask's n_valid must be a whole number",
        id="n_valid-bool",
    ),
    pytest.param(
        _with_mask(kind="padding", n_valid=1.5),
        "the mask's n_valid must be a whole number",
        id="n_valid-float",
    ),
    pytest.param(
        _with_mask(kind=1), "the scenario's mask kind must be text", id="mask-kind-number"
    ),
    pytest.param(
        _with_mask(kind="custom", custom=[[1, 2]]),
        "the scenario's custom mask must be rows of 0/1",
        id="custom-mask-2",
    ),
    pytest.param(
        _with_mask(kind="custom", custom=[[1, 0], [1]]),
        "the scenario's custom mask must be rows of 0/1",
        id="custom-mask-ragged",
    ),
    pytest.param(
        _with_mask(kind="custom", custom=[]),
        "the scenario's custom mask must be rows of 0/1",
        id="custom-mask-empty",
    ),
    pytest.param(
        _paper_dict(scaled="yes"), "the scenario's 'scaled' must be true or false", id="scaled-text"
    ),
    pytest.param(
        _paper_dict(scaled=1), "the scenario's 'scaled' must be true or false", id="scaled-int"
    ),
    pytest.param(
        _paper_dict(tokens="k1 k2"),
        "the scenario's tokens must be a list of words",
        id="tokens-text",
    ),
    pytest.param(
        _paper_dict(tokens=["k1", 2]),
        "the scenario's tokens must be a list of words",
        id="tokens-number",
    ),
    pytest.param(
        _paper_dict(tokens=["w"] * 65), "the scenario has 65 tokens; at most 64", id="tokens-65"
    ),
    pytest.param(
        _paper_dict(query_tokens="q"),
        "the scenario's query_tokens must be a list of words",
        id="query-tokens-text",
    ),
    pytest.param(_paper_dict(mode=None), "the scenario's mode must be text", id="mode-null"),
    pytest.param(
        _paper_dict(mode="both"),
        "unknown input mode 'both'; use one of ('embeddings', 'direct')",
        id="mode-unknown",
    ),
    pytest.param(_paper_dict(name=5), "the scenario's name must be text", id="name-number"),
    pytest.param(
        _paper_dict(tokens=["k1"]),
        "K has 2 rows but there is 1 token: K needs one row (key vector) per token",
        id="tokens-do-not-fit-K",
    ),
]


@pytest.mark.parametrize(("payload", "message"), TAMPERED)
def test_from_dict_rejects_tampered_payloads(payload, message):
    with raises_exactly(message):
        Scenario.from_dict(payload)


@pytest.mark.parametrize(("payload", "message"), TAMPERED[:12])
def test_from_json_and_from_url_reject_the_same_payloads(payload, message):
    text = json.dumps(payload)
    with raises_exactly(message):
        Scenario.from_json(text)
    url = "v1." + base64.urlsafe_b64encode(zlib.compress(text.encode())).decode().rstrip("=")
    with raises_exactly(message):
        Scenario.from_url(url)


def test_from_json_reads_nan_but_rejects_it():
    text = paper_toy().to_json().replace("10.0", "NaN")
    with raises_exactly("V row 1, column 1 is nan: every entry must be a finite number"):
        Scenario.from_json(text)


@pytest.mark.parametrize(
    "text", ["", "not json", "{", '{"version": 1,}', b"\xff\xfe", "[" * 100_000, '{"a":' * 100_000]
)
def test_from_json_rejects_what_is_not_json(text):
    with pytest.raises(InputError, match=r"^this file is not valid JSON \(") as info:
        Scenario.from_json(text)
    assert info.value.where == "file"


def test_from_json_rejects_an_oversized_file():
    with raises_exactly("this scenario file is too large to load"):
        Scenario.from_json(" " * 8_000_001)


# ---- tampered links -------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(PRESETS))
def test_a_flipped_character_never_gives_a_different_scenario(key):
    """Each single-character edit is refused, or (when it only touches ignored padding bits
    of the compressed stream) still gives exactly the same scenario."""
    s = PRESETS[key].build()
    url = s.to_url()
    refused = 0
    positions = range(3, len(url))
    for i in positions:
        flipped = URL_ALPHABET[(URL_ALPHABET.index(url[i]) + 32) % 64]  # top bit of the 6
        try:
            got = Scenario.from_url(url[:i] + flipped + url[i + 1 :])
        except InputError as err:
            assert err.message == BAD_LINK
            assert err.where == "url"
            refused += 1
        else:
            assert_same_scenario(s, got)
    assert refused >= 0.9 * len(positions)


def test_a_flipped_character_in_the_middle_is_refused():
    url = paper_toy().to_url()
    for i in (3, 4, len(url) // 3, len(url) // 2):
        c = "A" if url[i] != "A" else "z"
        with raises_exactly(BAD_LINK):
            Scenario.from_url(url[:i] + c + url[i + 1 :])


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_a_truncated_link_is_refused(key):
    url = PRESETS[key].build().to_url()
    for cut in [*range(1, 12), len(url) // 2, len(url) - 4]:
        with raises_exactly(BAD_LINK):
            Scenario.from_url(url[:-cut])


@pytest.mark.parametrize(
    "text",
    [
        "",
        "v1.",
        "v1",
        "v2." + "eNqrVgpLLUotzszP",
        "eNqrVgpLLUotzszP",  # base64 without the prefix
        "v1.eNqr Vgp",
        "v1.eNqr+Vgp/",  # standard (not URL-safe) base64
        "v1.eNqrVgp=",
        "v1.A",  # one base64 character is not even a byte
        "v1." + base64.urlsafe_b64encode(b"not zlib at all").decode().rstrip("="),
        "v1." + base64.urlsafe_b64encode(zlib.compress(b"not json")).decode().rstrip("="),
        None,
        b"v1.eNqrVgpLLUotzszP",
    ],
)
def test_malformed_links_are_refused(text):
    with raises_exactly(BAD_LINK) as info:
        Scenario.from_url(text)
    assert info.value.where == "url"


def _decodes_without_the_alphabet_check(text: str) -> Scenario:
    """What a decoder that trusted base64 alone would read: urlsafe_b64decode silently
    drops characters outside its alphabet, so the link still inflates to a scenario."""
    body = text.removeprefix("v1.")
    packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    return Scenario.from_dict(json.loads(zlib.decompress(packed)))


@pytest.mark.parametrize("inserted", ["....", ".~*!", "  \n\t"])
def test_a_link_with_characters_base64_would_skip_is_refused(inserted):
    """Four skipped characters keep the padding right, so base64 and zlib both accept this
    link; only the check of the URL-safe alphabet can refuse it."""
    s = paper_toy()
    url = s.to_url()
    tampered = url[:10] + inserted + url[10:]
    assert_same_scenario(s, _decodes_without_the_alphabet_check(tampered))  # really decodable
    with raises_exactly(BAD_LINK) as info:
        Scenario.from_url(tampered)
    assert info.value.where == "url"


def test_a_link_to_json_that_is_not_a_scenario():
    url = "v1." + base64.urlsafe_b64encode(zlib.compress(b"[1, 2]")).decode().rstrip("=")
    with raises_exactly("a scenario must be a JSON object"):
        Scenario.from_url(url)


def test_deeply_nested_json_in_a_link_is_refused():
    url = "v1." + base64.urlsafe_b64encode(zlib.compress(b"[" * 200_000, 9)).decode().rstrip("=")
    with raises_exactly(BAD_LINK):
        Scenario.from_url(url)


def test_an_oversized_link_is_refused():
    assert MAX_URL_CHARS == 100_000  # below the ~150,000 characters Streamlit still serves
    with raises_exactly("this link's scenario is too large to load"):
        Scenario.from_url("v1." + "A" * MAX_URL_CHARS)


def test_a_zlib_bomb_is_refused_quickly_without_inflating_it():
    bomb = zlib.compress(b" " * 50_000_000, 9)
    url = "v1." + base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    assert len(url) < MAX_URL_CHARS  # so it really reaches the decompressor
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with raises_exactly("this link's scenario is too large to load") as info:
            Scenario.from_url(url)
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.value.where == "url"
    assert elapsed < 1.0
    assert peak < 25_000_000  # it stops at the 8 MB limit instead of inflating 50 MB


# ---- validation -----------------------------------------------------------------------
def _embeddings(n_tokens: int, n_rows: int) -> Scenario:
    return Scenario(
        tokens=tuple(f"w{i}" for i in range(n_tokens)),
        X=np.ones((n_rows, 2)),
        W_q=np.eye(2),
        W_k=np.eye(2),
        W_v=np.eye(2),
    )


INVALID = [
    pytest.param(
        _embeddings(3, 2),
        "X has 2 rows but there are 3 tokens: X needs one row (embedding) per token",
        "X",
        id="X-rows",
    ),
    pytest.param(
        _embeddings(2, 1),
        "X has 1 row but there are 2 tokens: X needs one row (embedding) per token",
        "X",
        id="X-one-row",
    ),
    pytest.param(
        _embeddings(1, 3),
        "X has 3 rows but there is 1 token: X needs one row (embedding) per token",
        "X",
        id="X-one-token",
    ),
    pytest.param(
        paper_toy().replace(query_tokens=("a", "b")),
        "Q has 1 row but there are 2 query tokens: Q needs one row (query vector) per query token",
        "Q",
        id="Q-rows",
    ),
    pytest.param(
        paper_toy().replace(Q=np.ones((3, 2))),
        "Q has 3 rows but there is 1 query token: Q needs one row (query vector) per query token",
        "Q",
        id="Q-rows-one",
    ),
    pytest.param(
        paper_toy().replace(tokens=("a", "b", "c")),
        "K has 2 rows but there are 3 tokens: K needs one row (key vector) per token",
        "K",
        id="K-rows",
    ),
    pytest.param(
        paper_toy().replace(V=np.ones((3, 1))),
        "V has 3 rows but there are 2 tokens: V needs one row (value vector) per token",
        "V",
        id="V-rows",
    ),
    pytest.param(
        paper_toy().replace(mask_kind="causal"),
        "a causal mask needs as many queries as keys (self-attention)",
        "mask",
        id="causal",
    ),
    pytest.param(
        paper_toy().replace(mask_kind="padding", n_valid=0),
        "the number of real (non-padding) keys must be between 1 and 2, got 0",
        "mask",
        id="n_valid-0",
    ),
    pytest.param(
        paper_toy().replace(mask_kind="padding", n_valid=3),
        "the number of real (non-padding) keys must be between 1 and 2, got 3",
        "mask",
        id="n_valid-3",
    ),
    pytest.param(
        hungry().replace(mask_kind="custom", custom_mask=np.zeros((1, 3), dtype=bool)),
        "row 1 of the mask allows no key at all: query 1 would have nothing to attend to "
        "(its softmax would divide by zero). Let it attend to at least one key.",
        "mask",
        id="custom-all-false-row",
    ),
    pytest.param(
        hungry().replace(mask_kind="custom", custom_mask=np.ones((1, 2), dtype=bool)),
        "the mask is 1 x 2 but the scores are 1 x 3: "
        "it needs one row per query and one column per key",
        "mask",
        id="custom-shape",
    ),
    pytest.param(
        _embeddings(2, 2).replace(query_tokens=("q",)),
        "separate query tokens need direct mode (embeddings give one query per token)",
        "tokens",
        id="query-tokens",
    ),
    pytest.param(
        _embeddings(2, 2).replace(mode="both"),
        "unknown input mode 'both'; use one of ('embeddings', 'direct')",
        "mode",
        id="mode",
    ),
    pytest.param(
        _embeddings(2, 2).replace(mask_kind="half"),
        "unknown mask 'half'; use one of ('none', 'causal', 'padding', 'custom')",
        "mask",
        id="mask-kind",
    ),
    pytest.param(
        _embeddings(2, 2).replace(W_k=None),
        "W_k is missing: embeddings mode needs W_k",
        "W_k",
        id="missing-W_k",
    ),
    pytest.param(
        paper_toy().replace(V=None), "V is missing: direct mode needs V", "V", id="missing-V"
    ),
    pytest.param(
        _embeddings(2, 2).replace(W_v=np.ones((3, 2))),
        "W_v has 3 rows but X has 2 "
        "columns: W_v needs one row per embedding dimension (d_model = 2)",
        "W_v",
        id="W_v-rows",
    ),
    pytest.param(
        _embeddings(2, 2).replace(tokens=()),
        "type at least one of the tokens",
        "tokens",
        id="no-tokens",
    ),
    pytest.param(
        _embeddings(2, 2).replace(tokens=("w",) * 65),
        "65 tokens is more than the 64 allowed",
        "tokens",
        id="65-tokens",
    ),
    pytest.param(
        _embeddings(2, 2).replace(tokens=("a", "  ")),
        "every one of the tokens must be 1 to 40 characters",
        "tokens",
        id="blank-token",
    ),
    pytest.param(
        _embeddings(2, 2).replace(tokens=("a", "b" * 41)),
        "every one of the tokens must be 1 to 40 characters",
        "tokens",
        id="long-token",
    ),
    pytest.param(
        paper_toy().replace(query_tokens=()),
        "type at least one of the query tokens",
        "tokens",
        id="no-query-tokens",
    ),
    pytest.param(
        _embeddings(1, 1).replace(
            X=np.ones((1, 513)), W_q=np.ones((513, 1)), W_k=np.ones((513, 1)), W_v=np.ones((513, 1))
        ),
        "X is 1 x 513; dimensions of at most 512 are allowed",
        "X",
        id="too-wide",
    ),
]


@pytest.mark.parametrize(("scenario", "message", "where"), INVALID)
def test_validate_names_the_problem(scenario, message, where):
    with raises_exactly(message) as info:
        scenario.validate()
    assert info.value.where == where


def test_masks_of_a_valid_scenario():
    s = _embeddings(3, 3)
    assert s.validate().mask is None
    assert s.mask() is None
    np.testing.assert_array_equal(s.replace(mask_kind="causal").mask(), np.tril(np.ones((3, 3))))
    np.testing.assert_array_equal(
        s.replace(mask_kind="padding", n_valid=2).mask(), [[True, True, False]] * 3
    )
    np.testing.assert_array_equal(s.replace(mask_kind="padding").mask(), np.ones((3, 3), bool))
    np.testing.assert_array_equal(s.replace(mask_kind="custom").mask(), np.ones((3, 3), bool))
    t = s.replace(mask_kind="causal").validate()
    np.testing.assert_array_equal(t.weights[0], [1.0, 0.0, 0.0])


def test_scenario_views():
    s = paper_toy()
    assert s.queries == ("q",)
    assert s.query_labels == ["q"]
    assert s.key_labels == ["k1", "k2"]
    assert s.matrix_names == ("Q", "K", "V")
    assert list(s.matrices()) == ["Q", "K", "V"]
    assert _embeddings(2, 2).queries == ("w0", "w1")
    assert _embeddings(2, 2).matrix_names == ("X", "W_q", "W_k", "W_v")
    assert s.replace(name="other") != s
    assert s.replace(name="other").name == "other"
    assert s != "not a scenario"


# ---- resize ---------------------------------------------------------------------------
def test_resize_keeps_the_overlap_and_zero_fills():
    M = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(resize(M, 3, 4), [[1, 2, 3, 0], [4, 5, 6, 0], [0, 0, 0, 0]])
    np.testing.assert_array_equal(resize(M, 1, 2), [[1, 2]])
    np.testing.assert_array_equal(resize(M, 3, 2), [[1, 2], [4, 5], [0, 0]])
    np.testing.assert_array_equal(resize(M, 2, 3), M)
    np.testing.assert_array_equal(resize(None, 2, 2), np.zeros((2, 2)))
    np.testing.assert_array_equal(resize([7.0, 8.0], 2, 1), [[7.0], [0.0]])
    out = resize(M, 2, 3)
    out[0, 0] = 99.0
    assert M[0, 0] == 1.0  # a copy, never a view
    assert resize(M, 4, 4).dtype == np.float64
