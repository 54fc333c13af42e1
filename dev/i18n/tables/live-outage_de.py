# ruff: noqa: E501  (a msgid is a key as the code writes it: long sentences stay one line)
"""German: a teacher's change kept through a store outage, and a following phone that edits
(issue 41, defects 6 and 7). Register and terms as docs/i18n/glossary.md's live class."""

T = {
    "**The class has not got this yet**: the live class cannot be reached just now. Your last change is kept and sent as soon as it is back.": "**Die Klasse hat das noch nicht erhalten**: Die Live-Stunde ist gerade nicht erreichbar. Deine letzte Änderung bleibt erhalten und wird gesendet, sobald sie wieder erreichbar ist.",
    "You changed the example, so you now explore on your own: the teacher's steps no longer replace your edits. *Back to the teacher* takes the class's example again.": "Du hast das Beispiel geändert, daher erkundest du jetzt selbst: Die Schritte der Lehrkraft ersetzen deine Änderungen nicht mehr. *Zurück zur Lehrkraft* übernimmt wieder das Beispiel der Stunde.",
}
