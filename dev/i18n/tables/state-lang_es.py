"""Issue 41 (branch state-lang): what the console says of a room's record that names no
exercise. ``python dev/i18n/fill_po.py es dev/i18n/tables/state-lang_es.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    "The class's record named what is no exercise here: {names}. It is left out; open or lock exercises below.": "El registro de la clase nombraba algo que aquí no es un ejercicio: {names}. Se ha dejado fuera; abre o fija ejercicios abajo.",
    "No exercise is open: open one below.": "No hay ningún ejercicio abierto: abre uno abajo.",
}
# fmt: on
