# ruff: noqa: E501  (a table of sentences, one entry a line)
"""The German translations of the kept exercise work and the short link's note (issue 41,
defects 4 and 5). ``T``: msgid -> msgstr (a plural entry: its singular msgid -> a tuple of
the language's forms). Written into the catalogue by
``dev/i18n/fill_po.py de dev/i18n/tables/learner-work_de.py``."""

T = {
    "A file this page's “Download progress (JSON)” saved, in any language: it replaces the work on this page.": "Eine Datei, die „Fortschritt herunterladen (JSON)“ auf dieser Seite gespeichert hat, in jeder Sprache: Sie ersetzt, was du auf dieser Seite bearbeitet hast.",
    "Delete your answers from this page, this browser and the server.": "Lösche deine Antworten von dieser Seite, aus diesem Browser und vom Server.",
    "Forget it on this browser": "In diesem Browser vergessen",
    "Forgotten: this page, this browser and the server hold none of your work now.": "Vergessen: Diese Seite, dieser Browser und der Server haben jetzt nichts mehr von deiner Arbeit.",
    "It is larger than {limit} kB; a progress file is far smaller.": "Sie ist größer als {limit} kB; eine Fortschrittsdatei ist viel kleiner.",
    "It is not a progress file of this app (it has no exercise progress in it).": "Das ist keine Fortschrittsdatei dieser App (sie enthält keinen Übungsfortschritt).",
    "It is not a progress file of this app: it is not JSON text.": "Das ist keine Fortschrittsdatei dieser App: Sie ist kein JSON-Text.",
    "It was saved by a newer version of this app (format {version}); this one reads formats 1 and 2.": "Sie wurde von einer neueren Version dieser App gespeichert (Format {version}); diese liest die Formate 1 und 2.",
    "Kept on this server for {n} day: everything the full link holds (the numbers, the page and its settings).": (
        "{n} Tag auf diesem Server gespeichert: alles, was der vollständige Link enthält (die Zahlen, die Seite und ihre Einstellungen).",
        "{n} Tage auf diesem Server gespeichert: alles, was der vollständige Link enthält (die Zahlen, die Seite und ihre Einstellungen).",
    ),
    "Load a progress file (JSON)": "Fortschrittsdatei laden (JSON)",
    "Not saved yet: the server that keeps your work cannot be reached. Go on working; it is saved when the server is back (or download it now).": "Noch nicht gespeichert: Der Server, der deine Arbeit aufbewahrt, ist nicht erreichbar. Arbeite einfach weiter; sie wird gespeichert, sobald der Server wieder da ist (oder lade sie jetzt herunter).",
    "That file could not be loaded, and your work is as it was: {why}": "Diese Datei ließ sich nicht laden, und deine Arbeit ist unverändert: {why}",
    "The server that keeps your work cannot be reached just now, so it is not forgotten there: try again.": "Der Server, der deine Arbeit aufbewahrt, ist gerade nicht erreichbar, deshalb ist sie dort nicht vergessen: Versuch es noch einmal.",
    "Your progress file was loaded: {right} of {total} steps right.": "Deine Fortschrittsdatei wurde geladen: {right} von {total} Schritten richtig.",
    "Your work is kept on this app's server for this browser (a cookie holds its key) for {n} day after your last change. On a shared computer, forget it when you are done.": (
        "Deine Arbeit wird für diesen Browser auf dem Server dieser App aufbewahrt (ein Cookie enthält ihren Schlüssel), {n} Tag nach deiner letzten Änderung. Auf einem gemeinsam genutzten Computer: Lass sie vergessen, wenn du fertig bist.",
        "Deine Arbeit wird für diesen Browser auf dem Server dieser App aufbewahrt (ein Cookie enthält ihren Schlüssel), {n} Tage nach deiner letzten Änderung. Auf einem gemeinsam genutzten Computer: Lass sie vergessen, wenn du fertig bist.",
    ),
    "{n} step in the file is not one of this version's exercise steps: it was left out.": (
        "{n} Schritt in der Datei gehört nicht zu den Übungen dieser Version: Er wurde ausgelassen.",
        "{n} Schritte in der Datei gehören nicht zu den Übungen dieser Version: Sie wurden ausgelassen.",
    ),
}
