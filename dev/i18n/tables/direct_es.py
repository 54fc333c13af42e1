# ruff: noqa: E501 (one translation a line: a table a translator reads and diffs)
"""Translations of issue 43's first slice: the Scaling lab's slider in its chart (es)."""

T = {
    "The slider over the charts moves them all as you drag it, in your browser. Vermillion: without scaling; blue: with 1/√d_k. The slider at the top of the lab sets the numbers above, the charts' first d_k and the page's link.": "El deslizador sobre los gráficos los mueve todos mientras lo arrastras, en tu navegador. Bermellón: sin escalado; azul: con 1/√d_k. El deslizador de arriba del laboratorio fija los números de arriba, el primer d_k de los gráficos y el enlace de la página.",
}
