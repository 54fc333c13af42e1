"""Issue 41 (branch state-lang): what the console says of a room's record that names no
exercise. ``python dev/i18n/fill_po.py fr dev/i18n/tables/state-lang_fr.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    "The class's record named what is no exercise here: {names}. It is left out; open or lock exercises below.": "L’enregistrement de la classe nommait ce qui n’est pas un exercice ici : {names}. C’est laissé de côté ; ouvrez ou bloquez des exercices ci-dessous.",
    "No exercise is open: open one below.": "Aucun exercice n’est ouvert : ouvrez-en un ci-dessous.",
}
# fmt: on
