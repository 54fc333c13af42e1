"""Issue 41 (branch state-lang): what the console says of a room's record that names no
exercise. ``python dev/i18n/fill_po.py de dev/i18n/tables/state-lang_de.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    "The class's record named what is no exercise here: {names}. It is left out; open or lock exercises below.": "Der Datensatz der Klasse nannte etwas, das hier keine Übung ist: {names}. Es wird weggelassen; öffne oder lege unten Übungen fest.",
    "No exercise is open: open one below.": "Keine Übung ist geöffnet: Öffne unten eine.",
}
# fmt: on
