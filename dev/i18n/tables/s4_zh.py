# ruff: noqa: E501 (one translation a line: a table a translator reads and diffs)
"""Chinese: session 4's new entries (issues 42, 44, 45). Applied after words."""

T = {
    "The class is on **{page}**, page {k} of {n} of the walkthrough.": "全班在 **{page}**，“分步讲解”第 {k} 页，共 {n} 页。",
}
