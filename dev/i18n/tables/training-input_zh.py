"""Issue 41, defects 8 and 9 (the Training lab's Stop and seed, numbers beyond float64) in zh.
``python dev/i18n/fill_po.py zh dev/i18n/tables/training-input_zh.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    'Other data and other starting weights: a whole number from {low} to {high}.': '其他数据和其他初始权重：{low} 到 {high} 之间的整数。',
    'The charts appear here when the training ends or when you stop it.': '训练结束或你停止训练后，图表会显示在这里。',
    'larger than {largest}': '大于 {largest}',
    'not a number (two of its terms overflowed to +∞ and −∞)': '不是数（它的两项分别上溢为 +∞ 和 −∞）',
    'smaller than −{largest}': '小于 −{largest}',
    'the numbers of row {row} add up to a sum {what}, beyond the largest number float64 holds: no answer here needs numbers that large': '第 {row} 行的数之和{what}，超出了 float64 能表示的最大数：这里的答案都不需要这么大的数',
    "the output overflows: the output for '{query}', column {col}, is {what}, beyond the largest number float64 holds; the largest entry of {name} is {big}: use smaller numbers": '输出上溢：“{query}”的输出第 {col} 列{what}，超出了 float64 能表示的最大数；{name} 中最大的元素是 {big}：请使用更小的数',
    "the projection overflows: {name} for '{token}', column {col}, is {what}, beyond the largest number float64 holds; the largest entry of X and {W} is {big}: use smaller numbers": '投影上溢：“{token}”的 {name} 第 {col} 列{what}，超出了 float64 能表示的最大数；X 和 {W} 中最大的元素是 {big}：请使用更小的数',
    'the scores overflow: q·k for ({query}, {key}) is {what}, beyond the largest number float64 holds; the largest entry of Q and K is {big}: use smaller numbers': '分数上溢：({query}, {key}) 的 q·k {what}，超出了 float64 能表示的最大数；Q 和 K 中最大的元素是 {big}：请使用更小的数',
    'the seed must be a whole number from {low} to {high}; {seed} is outside that range': '种子必须是 {low} 到 {high} 之间的整数；{seed} 超出了这个范围',
    '{problem}. Nothing is trained or drawn for it: the charts come back when the seed is in range, and your other settings stay as they are.': '{problem}。因此不会训练也不会绘制任何内容：种子回到范围内后图表就会回来，你的其他设置保持不变。',
}
# fmt: on
