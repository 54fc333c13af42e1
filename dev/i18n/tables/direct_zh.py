# ruff: noqa: E501 (one translation a line: a table a translator reads and diffs)
"""Translations of issue 43's first slice: the Scaling lab's slider in its chart (zh)."""

T = {
    "The slider over the charts moves them all as you drag it, in your browser. Vermillion: without scaling; blue: with 1/√d_k. The slider at the top of the lab sets the numbers above, the charts' first d_k and the page's link.": "图表上方的滑块会在你拖动时让所有图表随之变化，全部在你的浏览器中完成。朱红色：不缩放；蓝色：乘以 1/√d_k。实验室顶部的滑块决定上面的数字、图表最初的 d_k 和页面的链接。",
}
