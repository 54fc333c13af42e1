"""The Scenario: everything a learner has set, validated, computable and shareable."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_core.attention import AttentionTrace, as_matrix, attention, project
from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.masks import causal_mask, padding_mask
from attention_core.multihead import multi_head_attention
from attention_core.parsing import MAX_DIM, MAX_TOKENS, label_tokens
from attention_core.scenario_checks import check_heads, check_n_heads, check_rows, check_tokens
from attention_core.types import BoolArray, FloatArray

MODES = ("embeddings", "direct")
MASK_KINDS = ("none", "causal", "padding", "custom")
EMBEDDING_MATRICES = ("X", "W_q", "W_k", "W_v")
DIRECT_MATRICES = ("Q", "K", "V")
OUTPUT_MATRICES = ("W_o",)  # optional: multi-head attention's output projection
ALL_MATRICES = EMBEDDING_MATRICES + DIRECT_MATRICES + OUTPUT_MATRICES
FORMAT_VERSION = 1
URL_PREFIX = "v1."
MAX_URL_CHARS = 100_000  # Streamlit answers HTTP 400 to URLs of about 150,000 characters
MAX_JSON_BYTES = 8_000_000
_URL_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")


@dataclass(frozen=True, eq=False)
class Scenario:
    """What the learner has set. Matrices follow the paper's names.

    Embeddings mode: X (n, d_model), W_q and W_k (d_model, d_k), W_v (d_model, d_v);
    Q, K, V come from ``project``. Direct mode: Q (n_q, d_k), K (n, d_k), V (n, d_v)
    typed as they are; ``query_tokens`` names the queries when they differ from
    ``tokens`` (cross-attention, as in the paper guide's one-query toy).
    ``mask_kind``: none, causal, padding (first ``n_valid`` keys are real) or custom
    (``custom_mask`` (n_q, n) with True = may attend).

    Multi-head (embeddings mode only): ``n_heads`` splits the projection width
    d_k = d_v = n_heads·d_head; head h uses columns h·d_head to (h+1)·d_head of W_q, W_k,
    W_v. ``W_o`` (d_v, d_model) maps the heads' concatenation back to d_model. It is
    optional with one head and needed with more; the walkthrough pages ignore both.
    """

    tokens: tuple[str, ...]
    mode: str = "embeddings"
    X: FloatArray | None = None
    W_q: FloatArray | None = None
    W_k: FloatArray | None = None
    W_v: FloatArray | None = None
    Q: FloatArray | None = None
    K: FloatArray | None = None
    V: FloatArray | None = None
    query_tokens: tuple[str, ...] | None = None
    mask_kind: str = "none"
    n_valid: int | None = None
    custom_mask: BoolArray | None = None
    scaled: bool = True
    name: str = ""
    W_o: FloatArray | None = None
    n_heads: int = 1

    # ---- derived views -------------------------------------------------
    @property
    def queries(self) -> tuple[str, ...]:
        """Query tokens: ``query_tokens`` in cross-attention, else the tokens themselves."""
        return self.query_tokens if self.query_tokens is not None else self.tokens

    @property
    def query_labels(self) -> list[str]:
        return label_tokens(self.queries)

    @property
    def key_labels(self) -> list[str]:
        return label_tokens(self.tokens)

    @property
    def matrix_names(self) -> tuple[str, ...]:
        return EMBEDDING_MATRICES if self.mode == "embeddings" else DIRECT_MATRICES

    @property
    def grid_names(self) -> tuple[str, ...]:
        """The matrices the learner edits in this mode: ``matrix_names``, plus W_o if present."""
        extra = OUTPUT_MATRICES if self.mode == "embeddings" and self.W_o is not None else ()
        return self.matrix_names + extra

    def matrices(self) -> dict[str, FloatArray]:
        """The matrices this mode uses, by name (missing ones raise InputError)."""
        out = {}
        for name in self.matrix_names:
            M = getattr(self, name)
            if M is None:
                raise InputError(N_("{name} is missing: {mode} mode needs {name}"), name,
                                 name=name, mode=self.mode)  # fmt: skip
            out[name] = M
        return out

    def replace(self, **changes: Any) -> Scenario:
        return dataclasses.replace(self, **changes)

    # ---- validation and computation -------------------------------------
    def validate(self) -> AttentionTrace:
        """Raise InputError naming the first thing wrong; return the trace when all is well.

        Computing the trace is the last check (projection and mask shapes), so it is kept.
        """
        if self.mode not in MODES:  # first: the checks below depend on the mode
            raise InputError(N_("unknown input mode '{mode}'; use one of {modes}"), "mode",
                             mode=str(self.mode), modes=str(MODES))  # fmt: skip
        check_tokens(self.tokens, query=False)
        if self.query_tokens is not None:
            if self.mode != "direct":
                raise InputError(
                    N_("separate query tokens need direct mode (embeddings give one query per "
                       "token)"),
                    where="tokens",
                )  # fmt: skip
            check_tokens(self.query_tokens, query=True)
        if self.mask_kind not in MASK_KINDS:
            raise InputError(N_("unknown mask '{kind}'; use one of {kinds}"), "mask",
                             kind=str(self.mask_kind), kinds=str(MASK_KINDS))  # fmt: skip
        mats = {name: as_matrix(M, name) for name, M in self.matrices().items()}
        for name, M in mats.items():
            if max(M.shape) > MAX_DIM:
                raise InputError(
                    N_("{name} is {rows} x {cols}; dimensions of at most {most} are allowed"),
                    where=name, name=name, rows=M.shape[0], cols=M.shape[1], most=MAX_DIM,
                )  # fmt: skip
        if self.mode == "embeddings":
            check_rows(mats["X"], "X", len(self.tokens))
            check_heads(self.n_heads, self.W_o, mats)
        elif self.n_heads != 1:
            check_n_heads(self.n_heads)  # a bad count first, then the mode it needs
            raise InputError(
                N_("{n} heads need embeddings mode: the heads split the projections W_q, W_k "
                   "and W_v, which direct mode does not have"),
                where="n_heads", n=self.n_heads,
            )  # fmt: skip
        else:
            check_rows(mats["Q"], "Q", len(self.queries))
            check_rows(mats["K"], "K", len(self.tokens))
            check_rows(mats["V"], "V", len(self.tokens))
        trace = self.trace()  # checks the shapes of projections, Q/K/V and the mask, and overflow
        if self.mode == "embeddings" and self.W_o is not None:  # the Multi-head lab's numbers
            m = self.matrices()
            multi_head_attention(m["X"], m["W_q"], m["W_k"], m["W_v"], self.W_o, self.n_heads,
                                 mask=self.mask(), scaled=self.scaled,
                                 labels=(self.query_labels, self.key_labels))  # fmt: skip
        return trace

    def qkv(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Q (n_q, d_k), K (n, d_k), V (n, d_v) for this scenario."""
        m = self.matrices()
        if self.mode == "embeddings":
            return project(m["X"], m["W_q"], m["W_k"], m["W_v"], tokens=self.key_labels)
        return m["Q"], m["K"], m["V"]

    def mask(self) -> BoolArray | None:
        """(n_q, n) boolean mask, True = may attend; None when there is no mask."""
        n_q, n_k = len(self.queries), len(self.tokens)
        if self.mask_kind == "causal":
            if n_q != n_k:
                raise InputError(
                    N_("a causal mask needs as many queries as keys (self-attention)"), "mask"
                )
            return causal_mask(n_k)
        if self.mask_kind == "padding":
            return padding_mask(n_q, n_k, self.n_valid if self.n_valid is not None else n_k)
        if self.mask_kind == "custom":
            if self.custom_mask is None:
                return np.ones((n_q, n_k), dtype=bool)
            return np.asarray(self.custom_mask, dtype=bool)
        return None

    def trace(self) -> AttentionTrace:
        Q, K, V = self.qkv()
        return attention(
            Q,
            K,
            V,
            mask=self.mask(),
            scaled=self.scaled,
            labels=(self.query_labels, self.key_labels),
        )  # the charts' labels

    # ---- serialisation ---------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict; ``from_dict(to_dict())`` gives an equal scenario."""
        d: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "name": self.name,
            "tokens": list(self.tokens),
            "mode": self.mode,
            "matrices": {
                n: np.asarray(getattr(self, n), dtype=float).tolist()
                for n in ALL_MATRICES
                if getattr(self, n) is not None
            },
            "mask": {"kind": self.mask_kind},
            "scaled": self.scaled,
        }
        if self.n_heads != 1:  # left out with one head: older links and files stay as they were
            d["n_heads"] = self.n_heads
        if self.query_tokens is not None:
            d["query_tokens"] = list(self.query_tokens)
        if self.n_valid is not None:
            d["mask"]["n_valid"] = self.n_valid
        if self.custom_mask is not None:
            d["mask"]["custom"] = np.asarray(self.custom_mask, dtype=int).tolist()
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Scenario:
        """Build and validate a Scenario from ``to_dict`` output; anything else is an InputError."""
        scenario = _scenario_from_dict(d)
        scenario.validate()
        return scenario

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_json(cls, text: str | bytes) -> Scenario:
        if len(text) > MAX_JSON_BYTES:
            raise InputError(N_("this scenario file is too large to load"), where="file")
        try:
            d = json.loads(text)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:  # deep nesting: [[[[...
            why = str(exc)
            raise InputError(N_("this file is not valid JSON ({why})"), "file", why=why) from None
        return cls.from_dict(d)

    def to_url(self) -> str:
        """A compact URL-safe string (zlib + base64) holding the whole scenario."""
        raw = json.dumps(self.to_dict(), separators=(",", ":")).encode()
        packed = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")
        return URL_PREFIX + packed

    @classmethod
    def from_url(cls, text: str) -> Scenario:
        """Inverse of ``to_url``; a tampered, truncated or oversized string is an InputError."""
        return cls.from_dict(_unpack_url(text))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scenario) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable-looking arrays inside


# ---- reading untrusted dicts and URLs -----------------------------------------
_TOP_KEYS = {
    *("version", "name", "tokens", "mode", "matrices", "mask", "scaled", "query_tokens"),
    "n_heads",  # absent in older links and files: one head
}


def _scenario_from_dict(d: Any) -> Scenario:
    if not isinstance(d, dict):
        raise InputError(N_("a scenario must be a JSON object"), where="file")
    unknown = set(d) - _TOP_KEYS
    if unknown:
        raise InputError(N_("unexpected field(s) in scenario: {fields}"), "file",
                         fields=str(sorted(unknown)))  # fmt: skip
    if d.get("version") != FORMAT_VERSION:
        raise InputError(N_("unsupported scenario version {version}"), "file",
                         version=repr(d.get("version")))  # fmt: skip
    mats = d.get("matrices", {})
    if not isinstance(mats, dict) or set(mats) - set(ALL_MATRICES):
        raise InputError(N_("the scenario's matrices must be X, W_q, W_k, W_v, W_o, Q, K or V"),
                         "file")  # fmt: skip
    mask = d.get("mask", {"kind": "none"})
    if not isinstance(mask, dict) or set(mask) - {"kind", "n_valid", "custom"}:
        raise InputError(N_("the scenario's mask must have kind, n_valid and custom only"),
                         "file")  # fmt: skip
    n_valid = mask.get("n_valid")
    if n_valid is not None and (type(n_valid) is not int):
        raise InputError(N_("the mask's n_valid must be a whole number"), where="file")
    query_tokens = d.get("query_tokens")
    n_heads = d.get("n_heads", 1)
    if type(n_heads) is not int:
        raise InputError(N_("the scenario's n_heads must be a whole number"), where="file")
    return Scenario(
        tokens=_str_tuple(d.get("tokens"), "tokens"),
        mode=_str(d.get("mode", "embeddings"), "mode"),
        query_tokens=None if query_tokens is None else _str_tuple(query_tokens, "query_tokens"),
        mask_kind=_str(mask.get("kind", "none"), "mask kind"),
        n_valid=n_valid,
        custom_mask=_bool_grid(mask.get("custom")),
        scaled=_bool(d.get("scaled", True)),
        name=_str(d.get("name", ""), "name")[:120],
        n_heads=n_heads,
        **{n: _number_grid(M, n) for n, M in mats.items()},
    )


def _str(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise InputError(N_("the scenario's {field} must be text"), "file", field=what)
    return v


def _str_tuple(v: Any, what: str) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(t, str) for t in v):
        raise InputError(N_("the scenario's {field} must be a list of words"), "file", field=what)
    if len(v) > MAX_TOKENS:
        raise InputError(N_("the scenario has {n} {field}; at most {most}"), "file", n=len(v),
                         field=what, most=MAX_TOKENS)  # fmt: skip
    return tuple(v)


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise InputError(N_("the scenario's 'scaled' must be true or false"), where="file")
    return v


def _number_grid(M: Any, name: str) -> FloatArray:
    ok = (
        isinstance(M, list)
        and len(M) <= MAX_DIM
        and all(
            isinstance(row, list)
            and len(row) <= MAX_DIM
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in row)
            for row in M
        )
    )
    if not ok:
        raise InputError(N_("the scenario's {name} must be a list of rows of numbers"), "file",
                         name=name)  # fmt: skip
    if len({len(row) for row in M}) > 1:
        raise InputError(N_("the scenario's {name} has rows of different lengths"), "file",
                         name=name)  # fmt: skip
    return as_matrix(M, name)


def _bool_grid(M: Any) -> BoolArray | None:
    if M is None:
        return None
    ok = (
        isinstance(M, list)
        and len(M) <= MAX_TOKENS
        and all(
            isinstance(row, list) and len(row) <= MAX_TOKENS and all(x in (0, 1) for x in row)
            for row in M
        )
    )
    if not ok or len({len(row) for row in M}) > 1 or not M:
        raise InputError(N_("the scenario's custom mask must be rows of 0/1"), where="file")
    return np.array(M, dtype=bool)


def _unpack_url(text: str) -> Any:
    bad = InputError(
        N_("this link's scenario could not be read (it may be cut off or edited); showing the "
           "default scenario instead"),
        where="url",
    )  # fmt: skip
    if not isinstance(text, str):
        raise bad
    if len(text) > MAX_URL_CHARS:
        raise InputError(N_("this link's scenario is too large to load"), where="url")
    if not text.startswith(URL_PREFIX) or not _URL_ALPHABET.fullmatch(text[len(URL_PREFIX) :]):
        raise bad
    body = text[len(URL_PREFIX) :]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON_BYTES)
        if inflater.unconsumed_tail:  # a zip bomb or a giant payload: stop reading
            raise InputError(N_("this link's scenario is too large to load"), where="url")
        if not inflater.eof:  # cut off: zlib only checks the checksum at the end of the stream
            raise bad
        return json.loads(raw)
    except InputError:
        raise
    except (binascii.Error, zlib.error, ValueError, RecursionError):
        raise bad from None
