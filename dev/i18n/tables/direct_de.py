# ruff: noqa: E501 (one translation a line: a table a translator reads and diffs)
"""Translations of issue 43's first slice: the Scaling lab's slider in its chart (de)."""

T = {
    "The slider over the charts moves them all as you drag it, in your browser. Vermillion: without scaling; blue: with 1/√d_k. The slider at the top of the lab sets the numbers above, the charts' first d_k and the page's link.": "Der Regler über den Diagrammen bewegt sie alle, während du ihn ziehst, direkt in deinem Browser. Zinnoberrot: ohne Skalierung; blau: mit 1/√d_k. Der Regler oben im Labor legt die Zahlen darüber, das erste d_k der Diagramme und den Link der Seite fest.",
}
