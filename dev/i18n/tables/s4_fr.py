# ruff: noqa: E501 (one translation a line: a table a translator reads and diffs)
"""French: session 4's new entries (issues 42, 44, 45). Applied after words."""

T = {
    "The class is on **{page}**, page {k} of {n} of the walkthrough.": "La classe est sur **{page}**, page {k} sur {n} de « Pas à pas ».",
}
