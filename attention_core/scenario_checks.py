"""The checks ``Scenario.validate`` makes of tokens, heads and rows, each with its message
(an ``N_``-marked template and its values: the UI translates it)."""

from __future__ import annotations

from attention_core.attention import as_matrix
from attention_core.errors import InputError
from attention_core.i18n import N_, Plural, Text
from attention_core.multihead import head_divisors
from attention_core.parsing import MAX_TOKEN_CHARS, MAX_TOKENS
from attention_core.types import FloatArray


def check_tokens(tokens: tuple[str, ...], query: bool) -> None:
    if len(tokens) == 0:
        none = N_("type at least one of the query tokens") if query else N_(
            "type at least one of the tokens")  # fmt: skip
        raise InputError(none, where="tokens")
    if len(tokens) > MAX_TOKENS:
        many = N_("{n} query tokens is more than the {most} allowed") if query else N_(
            "{n} tokens is more than the {most} allowed")  # fmt: skip
        raise InputError(many, "tokens", n=len(tokens), most=MAX_TOKENS)
    for t in tokens:
        if not isinstance(t, str) or not t.strip() or len(t) > MAX_TOKEN_CHARS:
            long = N_("every one of the query tokens must be 1 to {most} characters") if query \
                else N_("every one of the tokens must be 1 to {most} characters")  # fmt: skip
            raise InputError(long, "tokens", most=MAX_TOKEN_CHARS)


def check_n_heads(n_heads: object) -> int:
    if isinstance(n_heads, bool) or not isinstance(n_heads, int) or n_heads < 1:
        raise InputError(
            N_("the number of heads must be a whole number of at least 1, not {got}"),
            where="n_heads", got=repr(n_heads),
        )  # fmt: skip
    return n_heads


def check_heads(n_heads: object, W_o: FloatArray | None, mats: dict[str, FloatArray]) -> None:
    """n_heads splits the width d_k = d_v evenly; W_o, when there, is (d_v, d_model).

    The scenario's fields, not the scenario: this module sits below ``scenario``."""
    n = check_n_heads(n_heads)
    d_model, d_k, d_v = mats["X"].shape[1], mats["W_q"].shape[1], mats["W_v"].shape[1]
    if W_o is not None:
        W_o = as_matrix(W_o, "W_o")
        if W_o.shape != (d_v, d_model):
            raise InputError(
                N_("W_o is {rows} x {cols} but must be d_v x d_model = {d_v} x {d_model}: one "
                   "row per column of the heads' concatenation, one column per embedding "
                   "dimension"),
                where="W_o", rows=W_o.shape[0], cols=W_o.shape[1], d_v=d_v, d_model=d_model,
            )  # fmt: skip
    if n == 1:
        return
    if d_k != d_v:
        raise InputError(
            N_("{n} heads need W_v as wide as W_q (d_v = d_k), but W_v has {d_v} columns and "
               "W_q has {d_k}: each head takes a slice of the same width from both"),
            where="n_heads", n=n, d_v=d_v, d_k=d_k,
        )  # fmt: skip
    if d_k % n:
        raise InputError(
            N_("W_q has {d_k} columns, which do not split into {n} heads of equal width: "
               "choose a number of heads among {choices}"),
            where="n_heads", d_k=d_k, n=n, choices=str(head_divisors(d_k)),
        )  # fmt: skip
    if W_o is None:
        raise InputError(
            N_("{n} heads need W_o ({d_v} x {d_model}) to map their concatenation back to "
               "d_model: add it on the Multi-head page"),
            where="W_o", n=n, d_v=d_v, d_model=d_model,
        )  # fmt: skip


# What each matrix needs one row of, for the message of a matrix with the wrong number of rows
ONE_ROW_EACH = {
    "X": N_("X needs one row (embedding) per token"),
    "Q": N_("Q needs one row (query vector) per query token"),
    "K": N_("K needs one row (key vector) per token"),
    "V": N_("V needs one row (value vector) per token"),
}


def check_rows(M: FloatArray, name: str, n: int) -> None:
    if M.shape[0] != n:
        if name == "Q":
            there = Plural("there is {n} query token", "there are {n} query tokens", n)
        else:
            there = Plural("there is {n} token", "there are {n} tokens", n)
        raise InputError(
            N_("{name} has {rows} but {there}: {needs}"), where=name, name=name,
            rows=Plural("{n} row", "{n} rows", M.shape[0]), there=there,
            needs=Text(ONE_ROW_EACH[name]),
        )  # fmt: skip
