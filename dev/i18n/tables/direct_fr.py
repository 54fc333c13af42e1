# ruff: noqa: E501 (one translation a line: a table a translator reads and diffs)
"""Translations of issue 43's first slice: the Scaling lab's slider in its chart (fr)."""

T = {
    "The slider over the charts moves them all as you drag it, in your browser. Vermillion: without scaling; blue: with 1/√d_k. The slider at the top of the lab sets the numbers above, the charts' first d_k and the page's link.": "Le curseur au-dessus des graphiques les déplace tous pendant que vous le faites glisser, dans votre navigateur. Vermillon : sans mise à l'échelle ; bleu : avec 1/√d_k. Le curseur en haut du labo fixe les nombres ci-dessus, le premier d_k des graphiques et le lien de la page.",
}
