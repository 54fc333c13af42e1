"""Issue 41 (branch state-lang): what the console says of a room's record that names no
exercise. ``python dev/i18n/fill_po.py zh dev/i18n/tables/state-lang_zh.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    "The class's record named what is no exercise here: {names}. It is left out; open or lock exercises below.": "课堂记录中列出了本应用没有的练习：{names}。已将其略去；请在下方开放或锁定练习。",
    "No exercise is open: open one below.": "目前没有开放的练习：请在下方开放一道。",
}
# fmt: on
