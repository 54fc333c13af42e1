# ruff: noqa: E501  (a msgid is a key as the code writes it: long sentences stay one line)
"""German: the live class, its notices, the teacher's console and the dashboard (issue 36).

Register: du (docs/i18n/glossary.md); „Live-Stunde“, „Lehrkraft“, „Handy“, „Code“,
„Projektor“ as the frame and the Start page say them; „Lernende“ for students.
"""

T = {
    "**Each step**": "**Jeder Schritt**",
    "**Each student** (✓ right, ✗ wrong with its slip, · not tried)": (
        "**Alle Lernenden** (✓ richtig, ✗ falsch mit typischem Fehler, · nicht versucht)"
    ),
    "**Live class {code}**": "**Live-Stunde {code}**",
    "**Live class {code}**: exploring on your own": "**Live-Stunde {code}**: du erkundest selbst",
    "**Live class {code}**: following the teacher": "**Live-Stunde {code}**: du folgst der Lehrkraft",
    "**Live class {code}**: the class follows you to this page": (
        "**Live-Stunde {code}**: die Klasse folgt dir auf diese Seite"
    ),
    "**Practice at their own pace** on the Exercises page, with the same code: phones that join go there.": (
        "**Üben im eigenen Tempo** auf der Seite Übungen, mit demselben Code: Handys, die "
        "beitreten, landen dort."
    ),
    "**Practice at your own pace**: you are seat {number}, “{nick}”.": (
        "**Üben im eigenen Tempo**: du bist Platz {number}, „{nick}“."
    ),
    "**Practice at your own pace**: you are seat {number}.": (
        "**Üben im eigenen Tempo**: du bist Platz {number}."
    ),
    "**Question for the class.** {question}": "**Frage an die Klasse.** {question}",
    "**Question:** {question}": "**Frage:** {question}",
    "**The class at its own pace**: {n} student": (
        "**Die Klasse im eigenen Tempo**: {n} Person",
        "**Die Klasse im eigenen Tempo**: {n} Personen",
    ),
    "**{n} student** in the practice": (
        "**{n} Person** übt",
        "**{n} Personen** üben",
    ),
    "1 row, numbers by commas": "1 Zeile, Zahlen durch Kommas getrennt",
    "A nickname for your teacher (optional: only your teacher sees it)": (
        "Ein Spitzname für deine Lehrkraft (freiwillig: nur deine Lehrkraft sieht ihn)"
    ),
    "A nickname has at most {n} characters.": "Ein Spitzname hat höchstens {n} Zeichen.",
    "A nickname is plain text: letters, digits, spaces, punctuation.": (
        "Ein Spitzname ist einfacher Text: Buchstaben, Ziffern, Leerzeichen, Satzzeichen."
    ),
    "Already leading a class on another device? Open your control link here.": (
        "Leitest du schon eine Stunde auf einem anderen Gerät? Öffne hier deinen Steuerlink."
    ),
    "Answer": "Antwort",
    "Answer: {format}.": "Antwort: {format}.",
    "Anyone who has this link drives your class: scan it with your own phone, and hide it before you project this screen.": (
        "Wer diesen Link hat, steuert deine Stunde: Scanne ihn mit deinem eigenen Handy und "
        "blende ihn aus, bevor du diesen Bildschirm projizierst."
    ),
    "Ask": "Fragen",
    "Ask for": "Fragen nach",
    "Ask the class": "Die Klasse fragen",
    "At any step: the projector and every phone take it at once.": (
        "Bei jedem Schritt: Der Projektor und jedes Handy übernehmen es sofort."
    ),
    "At least one exercise stays open.": "Mindestens eine Übung bleibt offen.",
    "Back to the teacher": "Zurück zur Lehrkraft",
    "Bar chart of {answered} answer: {parts}.": (
        "Balkendiagramm von {answered} Antwort: {parts}.",
        "Balkendiagramm von {answered} Antworten: {parts}.",
    ),
    "Close the question": "Frage schließen",
    "Column": "Spalte",
    "Copied": "Kopiert",
    "Copy failed (the clipboard needs https): copy it above": (
        "Kopieren fehlgeschlagen (die Zwischenablage braucht https): kopiere ihn oben"
    ),
    "Copy my control link": "Meinen Steuerlink kopieren",
    "Counts on the projector (no names)": "Zahlen am Projektor (ohne Namen)",
    "Each seat's progress (JSON, zip)": "Fortschritt jedes Platzes (JSON, zip)",
    "Each student works through the exercises you open, on their own phone; this console shows who is where and who is stuck.": (
        "Alle bearbeiten die Übungen, die du öffnest, auf dem eigenen Handy; diese Konsole "
        "zeigt, wer wo steht und wer festhängt."
    ),
    "End it for everyone": "Für alle beenden",
    "End the class": "Stunde beenden",
    "Every phone leaves the class, and its answers are deleted with it.": (
        "Alle Handys verlassen die Stunde, und ihre Antworten werden mit ihr gelöscht."
    ),
    "Exercise": "Übung",
    "Exercises open": "Offene Übungen",
    "Explore on my own": "Selbst erkunden",
    "Eyes on the screen": "Alle Augen nach vorn",
    "Go on": "Weiter",
    "Go there": "Dorthin",
    "Hide the join screen": "Beitrittsbildschirm ausblenden",
    "It drives this class: open it on your own phone to use it as a remote, or after a restart to take the class back.": (
        "Er steuert diese Stunde: Öffne ihn auf deinem eigenen Handy, um es als Fernbedienung "
        "zu nutzen, oder nach einem Neustart, um die Stunde wieder zu übernehmen."
    ),
    "Join at": "Beitreten unter",
    "Join screen": "Beitrittsbildschirm",
    "Lead a live class from here, off the projector. **Go live** opens a class on presentation mode's first slide with the current example; open presentation mode (or any page) on the projector, and every phone that joins follows you there.": (
        "Leite eine Live-Stunde von hier aus, abseits des Projektors. **Live gehen** öffnet "
        "eine Stunde auf der ersten Folie des Präsentationsmodus mit dem aktuellen Beispiel; "
        "öffne den Präsentationsmodus (oder eine beliebige Seite) am Projektor, und jedes "
        "Handy, das beitritt, folgt dir dorthin."
    ),
    "Live class: reconnecting…": "Live-Stunde: Verbindung wird wiederhergestellt…",
    "Live class: reconnecting… This page works on its own meanwhile.": (
        "Live-Stunde: Verbindung wird wiederhergestellt… Diese Seite funktioniert so lange "
        "für sich."
    ),
    "Live class: reconnecting… the answers are kept in the class's store.": (
        "Live-Stunde: Verbindung wird wiederhergestellt… Die Antworten bleiben im Speicher der "
        "Stunde erhalten."
    ),
    "Live class: reconnecting… the checks are kept in the class's store.": (
        "Live-Stunde: Verbindung wird wiederhergestellt… Die Prüfungen bleiben im Speicher der "
        "Stunde erhalten."
    ),
    "Lock the class to": "Klasse festlegen auf",
    "No live class has the code {code}: check it with your teacher (the class may have ended).": (
        "Keine Live-Stunde hat den Code {code}: Prüfe ihn mit deiner Lehrkraft (die Stunde ist "
        "vielleicht schon vorbei)."
    ),
    "No student yet: phones that join with the code appear here.": (
        "Noch niemand da: Handys, die mit dem Code beitreten, erscheinen hier."
    ),
    "Nobody is stuck.": "Niemand hängt fest.",
    "Not asked: the live class cannot be reached just now.": (
        "Nicht gefragt: Die Live-Stunde ist gerade nicht erreichbar."
    ),
    "Not changed: the live class cannot be reached just now.": (
        "Nicht geändert: Die Live-Stunde ist gerade nicht erreichbar."
    ),
    "Not sent yet: the class cannot be reached just now. Your answer is kept and goes out by itself when the class is back, or press Send to try again.": (
        "Noch nicht gesendet: Die Stunde ist gerade nicht erreichbar. Deine Antwort bleibt "
        "erhalten und geht von selbst hinaus, sobald die Stunde wieder da ist, oder drücke "
        "Senden, um es noch einmal zu versuchen."
    ),
    "Not started: the live class cannot be reached just now.": (
        "Nicht gestartet: Die Live-Stunde ist gerade nicht erreichbar."
    ),
    "Nothing was sent: correct it and send again.": "Nichts wurde gesendet: Korrigiere es und sende erneut.",
    "Open": "Offen",
    "Open at least one exercise.": "Öffne mindestens eine Übung.",
    "Open the next": "Die nächste öffnen",
    "Open the next: {exercise}": "Die nächste öffnen: {exercise}",
    "Open the projector view": "Projektoransicht öffnen",
    "Pause: eyes on the screen": "Pause: alle Augen nach vorn",
    "Phones on this server follow only every few seconds: it cannot write the class's watch file ({error}).": (
        "Handys auf diesem Server folgen nur alle paar Sekunden: Er kann die Beobachtungsdatei "
        "der Stunde nicht schreiben ({error})."
    ),
    "Practice at their own pace": "Üben im eigenen Tempo",
    "QR code of your control link": "QR-Code deines Steuerlinks",
    "QR code of {address}": "QR-Code von {address}",
    "Results (CSV)": "Ergebnisse (CSV)",
    "Reveal": "Auflösen",
    "Right first": "Sofort richtig",
    "Right in the end": "Am Ende richtig",
    "Seat {number}": "Platz {number}",
    "Send": "Senden",
    "Sent: your first answer is the one counted.": "Gesendet: Deine erste Antwort zählt.",
    "Show my control link": "Meinen Steuerlink zeigen",
    "Show the counts on the projector": "Zahlen am Projektor zeigen",
    "Show the join screen": "Beitrittsbildschirm zeigen",
    "Slips, most common first": "Typische Fehler, häufigste zuerst",
    "So far {answered} answered, {right} right.": "Bisher {answered} Antworten, {right} richtig.",
    "Someone in this class is already called '{nick}': choose another nickname.": (
        "Jemand in dieser Stunde heißt schon „{nick}“: Wähle einen anderen Spitznamen."
    ),
    "Start the lesson": "Stunde beginnen",
    "Start the practice": "Üben starten",
    "Step": "Schritt",
    "Stop the practice": "Üben beenden",
    "Student": "Lernende",
    "Stuck": "Hängt fest",
    "Stuck after (minutes without progress)": "Hängt fest nach (Minuten ohne Fortschritt)",
    "Students may see the class's counts before the reveal": (
        "Lernende dürfen die Zahlen der Klasse vor der Auflösung sehen"
    ),
    "Students see if they are right": "Lernende sehen, ob sie richtig liegen",
    "Take the class to": "Klasse führen zu",
    "That is not a class code: a code has {n} letters and digits, like {example}.": (
        "Das ist kein Code einer Stunde: Ein Code hat {n} Buchstaben und Ziffern, etwa {example}."
    ),
    "The answer": "Die Antwort",
    "The answer: {answer}": "Die Antwort: {answer}",
    "The class cannot be reached just now: try again.": (
        "Die Stunde ist gerade nicht erreichbar: Versuche es noch einmal."
    ),
    "The class is on **{page}**, step {k} of {n}: **{step}**": (
        "Die Klasse ist auf **{page}**, Schritt {k} von {n}: **{step}**"
    ),
    "The class is on **{page}**.": "Die Klasse ist auf **{page}**.",
    "The class's answers": "Die Antworten der Klasse",
    "The class's page as the class sees it, with the join code, in a new tab: put that window on the projector.": (
        "Die Seite der Klasse, wie die Klasse sie sieht, mit dem Beitrittscode, in einem neuen "
        "Tab: Lege dieses Fenster auf den Projektor."
    ),
    "The live class cannot be reached just now: open the control link again soon.": (
        "Die Live-Stunde ist gerade nicht erreichbar: Öffne den Steuerlink gleich noch einmal."
    ),
    "The live class cannot be reached just now: try again in a moment.": (
        "Die Live-Stunde ist gerade nicht erreichbar: Versuche es gleich noch einmal."
    ),
    "The live class has ended.": "Die Live-Stunde ist beendet.",
    "The live class of this control link has ended.": (
        "Die Live-Stunde dieses Steuerlinks ist beendet."
    ),
    "The question was closed before your answer arrived.": (
        "Die Frage wurde geschlossen, bevor deine Antwort ankam."
    ),
    "The session (CSV)": "Die Sitzung (CSV)",
    "This address is this computer's own (loopback): phones cannot reach it. Set {setting}, or start the app with {command}.": (
        "Diese Adresse ist die des Computers selbst (Loopback): Handys erreichen sie nicht. "
        "Setze {setting} oder starte die App mit {command}."
    ),
    "This control link does not drive any live class (it may be old or wrong).": (
        "Dieser Steuerlink steuert keine Live-Stunde (er ist vielleicht alt oder falsch)."
    ),
    "Too many wrong codes from this device: try again in a minute.": (
        "Zu viele falsche Codes von diesem Gerät: Versuche es in einer Minute noch einmal."
    ),
    "Too many wrong codes: try again in {seconds} s.": (
        "Zu viele falsche Codes: Versuche es in {seconds} s noch einmal."
    ),
    "Tried": "Versucht",
    "Tried: checked at least once. Right first: the first check was right. Right in the end: the last check is right.": (
        "Versucht: mindestens einmal geprüft. Sofort richtig: Die erste Prüfung war richtig. "
        "Am Ende richtig: Die letzte Prüfung ist richtig."
    ),
    "Use it": "Übernehmen",
    "You had already answered: your first answer is the one counted.": (
        "Du hattest schon geantwortet: Deine erste Antwort zählt."
    ),
    "Your answer": "Deine Antwort",
    "Your answer: **{answer}**": "Deine Antwort: **{answer}**",
    "Your answers are kept on this phone and reach your teacher when the class is back. Go on working.": (
        "Deine Antworten bleiben auf diesem Handy und erreichen deine Lehrkraft, sobald die "
        "Stunde wieder da ist. Arbeite einfach weiter."
    ),
    "Your control link drives this class from another device (your phone as a remote). It is hidden until you ask: never project it.": (
        "Dein Steuerlink steuert diese Stunde von einem anderen Gerät aus (dein Handy als "
        "Fernbedienung). Er bleibt verborgen, bis du ihn anforderst: Projiziere ihn nie."
    ),
    "Your controls (pause, ask, reveal, end) in a new tab, off the projector": (
        "Deine Steuerung (Pause, Fragen, Auflösen, Beenden) in einem neuen Tab, abseits des "
        "Projektors"
    ),
    "Your teacher has opened one exercise for now.": (
        "Deine Lehrkraft hat vorerst eine Übung geöffnet."
    ),
    "Your teacher has paused the class. This page comes back by itself.": (
        "Deine Lehrkraft hat die Stunde angehalten. Diese Seite kommt von selbst zurück."
    ),
    "Your teacher sees your checks; no other student does.": (
        "Deine Lehrkraft sieht deine Prüfungen; sonst niemand aus der Klasse."
    ),
    "a lesson's exercise": "eine Übung der Lektion",
    "a number of this slide": "eine Zahl dieser Folie",
    "a scaled score": "einem skalierten Score",
    "a score": "einem Score",
    "an attention weight": "einem Attention-Gewicht",
    "an output entry": "einem Eintrag der Ausgabe",
    "answer": "Antwort",
    "at once": "sofort",
    "code {letters}": "Code {letters}",
    "e.g. {name}": "z. B. {name}",
    "no lock: every open one": "nicht festgelegt: alle offenen",
    "no progress for {minutes} min": "seit {minutes} min kein Fortschritt",
    "one row per line": "eine Zeile der Matrix pro Zeile",
    "other": "anderes",
    "paused": "angehalten",
    "right": "richtig",
    "solution": "Lösung",
    "students": "Lernende",
    "when I reveal": "wenn ich auflöse",
    "with the code": "mit dem Code",
    "{lead}: **{answer}**. {worked}": "{lead}: **{answer}**. {worked}",
    "{answered} answered": ("{answered} hat geantwortet", "{answered} haben geantwortet"),
    "{answered} answered of {n} following": (
        "{answered} von {n} hat geantwortet",
        "{answered} von {n} haben geantwortet",
    ),
    "{answered} of {n} student answered": (
        "Antworten: {answered} von {n} Person",
        "Antworten: {answered} von {n} Personen",
    ),
    "{n} not sent yet.": ("{n} noch nicht gesendet.", "{n} noch nicht gesendet."),
    "{n} stuck": ("{n} hängt fest", "{n} hängen fest"),
    "{n} student following": ("{n} Person folgt", "{n} Personen folgen"),
    "{n} student following. Press to show the join screen.": (
        "{n} Person folgt. Drücke, um den Beitrittsbildschirm zu zeigen.",
        "{n} Personen folgen. Drücke, um den Beitrittsbildschirm zu zeigen.",
    ),
    "{n} wrong try on {step} ({slip})": (
        "{n} falscher Versuch bei {step} ({slip})",
        "{n} falsche Versuche bei {step} ({slip})",
    ),
}
