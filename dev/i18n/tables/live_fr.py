# ruff: noqa: E501  (a msgid is a key as the code writes it: long sentences stay one line)
"""French: the live class, its notices, the teacher's console and the dashboard (issue 36).

Register: vous (docs/i18n/glossary.md); « classe en direct », « enseignant », « téléphone »,
« code », « projecteur » as the frame and the Start page say them; a plain space before
: ; ? ! (the glossary's typography).
"""

T = {
    "**Each step**": "**Chaque étape**",
    "**Each student** (✓ right, ✗ wrong with its slip, · not tried)": (
        "**Chaque élève** (✓ juste, ✗ faux avec son erreur courante, · pas essayé)"
    ),
    "**Live class {code}**": "**Classe en direct {code}**",
    "**Live class {code}**: exploring on your own": "**Classe en direct {code}** : vous explorez seul",
    "**Live class {code}**: following the teacher": "**Classe en direct {code}** : vous suivez l'enseignant",
    "**Live class {code}**: the class follows you to this page": (
        "**Classe en direct {code}** : la classe vous suit sur cette page"
    ),
    "**Practice at their own pace** on the Exercises page, with the same code: phones that join go there.": (
        "**Exercices à son rythme** sur la page Exercices, avec le même code : les téléphones "
        "qui rejoignent y vont."
    ),
    "**Practice at your own pace**: you are seat {number}, “{nick}”.": (
        "**Exercices à votre rythme** : vous êtes la place {number}, « {nick} »."
    ),
    "**Practice at your own pace**: you are seat {number}.": (
        "**Exercices à votre rythme** : vous êtes la place {number}."
    ),
    "**Question for the class.** {question}": "**Question pour la classe.** {question}",
    "**Question:** {question}": "**Question :** {question}",
    "**The class at its own pace**: {n} student": (
        "**La classe à son rythme** : {n} élève",
        "**La classe à son rythme** : {n} élèves",
    ),
    "**{n} student** in the practice": (
        "**{n} élève** dans l'exercice",
        "**{n} élèves** dans l'exercice",
    ),
    "1 row, numbers by commas": "1 ligne, nombres séparés par des virgules",
    "A nickname for your teacher (optional: only your teacher sees it)": (
        "Un pseudo pour votre enseignant (facultatif : seul votre enseignant le voit)"
    ),
    "A nickname has at most {n} characters.": "Un pseudo compte au plus {n} caractères.",
    "A nickname is plain text: letters, digits, spaces, punctuation.": (
        "Un pseudo est du texte simple : lettres, chiffres, espaces, ponctuation."
    ),
    "Already leading a class on another device? Open your control link here.": (
        "Vous animez déjà une classe depuis un autre appareil ? Ouvrez ici votre lien de pilotage."
    ),
    "Answer": "Réponse",
    "Answer: {format}.": "Réponse : {format}.",
    "Anyone who has this link drives your class: scan it with your own phone, and hide it before you project this screen.": (
        "Toute personne qui a ce lien pilote votre classe : scannez-le avec votre propre "
        "téléphone, et masquez-le avant de projeter cet écran."
    ),
    "Ask": "Demander",
    "Ask for": "Demander",
    "Ask the class": "Interroger la classe",
    "At any step: the projector and every phone take it at once.": (
        "À n'importe quelle étape : le projecteur et chaque téléphone le reprennent aussitôt."
    ),
    "At least one exercise stays open.": "Au moins un exercice reste ouvert.",
    "Back to the teacher": "Revenir à l'enseignant",
    "Bar chart of {answered} answer: {parts}.": (
        "Diagramme en barres de {answered} réponse : {parts}.",
        "Diagramme en barres de {answered} réponses : {parts}.",
    ),
    "Close the question": "Clore la question",
    "Column": "Colonne",
    "Copied": "Copié",
    "Copy failed (the clipboard needs https): copy it above": (
        "Échec de la copie (le presse-papiers exige https) : copiez-le ci-dessus"
    ),
    "Copy my control link": "Copier mon lien de pilotage",
    "Counts on the projector (no names)": "Décomptes au projecteur (sans noms)",
    "Each seat's progress (JSON, zip)": "La progression de chaque place (JSON, zip)",
    "Each student works through the exercises you open, on their own phone; this console shows who is where and who is stuck.": (
        "Chaque élève fait les exercices que vous ouvrez, sur son propre téléphone ; cette "
        "console montre qui en est où et qui est bloqué."
    ),
    "End it for everyone": "La terminer pour tous",
    "End the class": "Terminer la classe",
    "Every phone leaves the class, and its answers are deleted with it.": (
        "Chaque téléphone quitte la classe, et ses réponses sont supprimées avec elle."
    ),
    "Exercise": "Exercice",
    "Exercises open": "Exercices ouverts",
    "Explore on my own": "Explorer seul",
    "Eyes on the screen": "Les yeux sur l'écran",
    "Go on": "Reprendre",
    "Go there": "Y aller",
    "Hide the join screen": "Masquer l'écran pour rejoindre",
    "It drives this class: open it on your own phone to use it as a remote, or after a restart to take the class back.": (
        "Il pilote cette classe : ouvrez-le sur votre propre téléphone pour vous en servir de "
        "télécommande, ou après un redémarrage pour reprendre la classe."
    ),
    "Join at": "Rejoignez sur",
    "Join screen": "Écran pour rejoindre",
    "Lead a live class from here, off the projector. **Go live** opens a class on presentation mode's first slide with the current example; open presentation mode (or any page) on the projector, and every phone that joins follows you there.": (
        "Animez une classe en direct d'ici, hors de l'écran projeté. **Passer en direct** ouvre "
        "une classe sur la première diapositive du mode présentation avec l'exemple actuel ; "
        "ouvrez le mode présentation (ou toute autre page) au projecteur, et chaque téléphone "
        "qui rejoint vous y suit."
    ),
    "Live class: reconnecting…": "Classe en direct : reconnexion…",
    "Live class: reconnecting… This page works on its own meanwhile.": (
        "Classe en direct : reconnexion… En attendant, cette page fonctionne seule."
    ),
    "Live class: reconnecting… the answers are kept in the class's store.": (
        "Classe en direct : reconnexion… les réponses sont conservées dans le stockage de la classe."
    ),
    "Live class: reconnecting… the checks are kept in the class's store.": (
        "Classe en direct : reconnexion… les vérifications sont conservées dans le stockage de "
        "la classe."
    ),
    "Lock the class to": "Bloquer la classe sur",
    "No live class has the code {code}: check it with your teacher (the class may have ended).": (
        "Aucune classe en direct n'a le code {code} : vérifiez-le auprès de votre enseignant "
        "(la classe est peut-être terminée)."
    ),
    "No student yet: phones that join with the code appear here.": (
        "Aucun élève pour l'instant : les téléphones qui rejoignent avec le code apparaissent ici."
    ),
    "Nobody is stuck.": "Personne n'est bloqué.",
    "Not asked: the live class cannot be reached just now.": (
        "Question non posée : la classe en direct est injoignable pour le moment."
    ),
    "Not changed: the live class cannot be reached just now.": (
        "Rien de changé : la classe en direct est injoignable pour le moment."
    ),
    "Not sent yet: the class cannot be reached just now. Your answer is kept and goes out by itself when the class is back, or press Send to try again.": (
        "Pas encore envoyé : la classe est injoignable pour le moment. Votre réponse est "
        "conservée et partira d'elle-même quand la classe sera de retour ; ou appuyez sur "
        "Envoyer pour réessayer."
    ),
    "Not started: the live class cannot be reached just now.": (
        "Non lancé : la classe en direct est injoignable pour le moment."
    ),
    "Nothing was sent: correct it and send again.": "Rien n'a été envoyé : corrigez et renvoyez.",
    "Open": "Ouverts",
    "Open at least one exercise.": "Ouvrez au moins un exercice.",
    "Open the next": "Ouvrir le suivant",
    "Open the next: {exercise}": "Ouvrir le suivant : {exercise}",
    "Open the projector view": "Ouvrir la vue projecteur",
    "Pause: eyes on the screen": "Pause : les yeux sur l'écran",
    "Phones on this server follow only every few seconds: it cannot write the class's watch file ({error}).": (
        "Les téléphones de ce serveur ne suivent que toutes les quelques secondes : il ne peut "
        "pas écrire le fichier de suivi de la classe ({error})."
    ),
    "Practice at their own pace": "Exercices à son rythme",
    "QR code of your control link": "Code QR de votre lien de pilotage",
    "QR code of {address}": "Code QR de {address}",
    "Results (CSV)": "Résultats (CSV)",
    "Reveal": "Révéler",
    "Right first": "Juste du premier coup",
    "Right in the end": "Juste à la fin",
    "Seat {number}": "Place {number}",
    "Send": "Envoyer",
    "Sent: your first answer is the one counted.": "Envoyé : c'est votre première réponse qui compte.",
    "Show my control link": "Afficher mon lien de pilotage",
    "Show the counts on the projector": "Afficher les décomptes au projecteur",
    "Show the join screen": "Afficher l'écran pour rejoindre",
    "Slips, most common first": "Erreurs courantes, les plus fréquentes d'abord",
    "So far {answered} answered, {right} right.": "Jusqu'ici {answered} réponses, {right} justes.",
    "Someone in this class is already called '{nick}': choose another nickname.": (
        "Quelqu'un dans cette classe s'appelle déjà « {nick} » : choisissez un autre pseudo."
    ),
    "Start the lesson": "Commencer la leçon",
    "Start the practice": "Lancer les exercices",
    "Step": "Étape",
    "Stop the practice": "Arrêter les exercices",
    "Student": "Élève",
    "Stuck": "Bloqués",
    "Stuck after (minutes without progress)": "Bloqué après (minutes sans progrès)",
    "Students may see the class's counts before the reveal": (
        "Les élèves peuvent voir les décomptes de la classe avant la révélation"
    ),
    "Students see if they are right": "Les élèves voient s'ils ont juste",
    "Take the class to": "Emmener la classe vers",
    "That is not a class code: a code has {n} letters and digits, like {example}.": (
        "Ce n'est pas un code de classe : un code a {n} lettres et chiffres, comme {example}."
    ),
    "The answer": "La réponse",
    "The answer: {answer}": "La réponse : {answer}",
    "The class cannot be reached just now: try again.": (
        "La classe est injoignable pour le moment : réessayez."
    ),
    "The class is on **{page}**, step {k} of {n}: **{step}**": (
        "La classe est sur **{page}**, étape {k} sur {n} : **{step}**"
    ),
    "The class is on **{page}**.": "La classe est sur **{page}**.",
    "The class's answers": "Les réponses de la classe",
    "The class's page as the class sees it, with the join code, in a new tab: put that window on the projector.": (
        "La page de la classe telle que la classe la voit, avec le code pour rejoindre, dans un "
        "nouvel onglet : mettez cette fenêtre au projecteur."
    ),
    "The live class cannot be reached just now: open the control link again soon.": (
        "La classe en direct est injoignable pour le moment : rouvrez le lien de pilotage "
        "un peu plus tard."
    ),
    "The live class cannot be reached just now: try again in a moment.": (
        "La classe en direct est injoignable pour le moment : réessayez dans un instant."
    ),
    "The live class has ended.": "La classe en direct est terminée.",
    "The live class of this control link has ended.": (
        "La classe en direct de ce lien de pilotage est terminée."
    ),
    "The question was closed before your answer arrived.": (
        "La question a été close avant l'arrivée de votre réponse."
    ),
    "The session (CSV)": "La séance (CSV)",
    "This address is this computer's own (loopback): phones cannot reach it. Set {setting}, or start the app with {command}.": (
        "Cette adresse est celle de l'ordinateur lui-même (loopback) : les téléphones ne "
        "peuvent pas l'atteindre. Définissez {setting}, ou lancez l'application avec {command}."
    ),
    "This control link does not drive any live class (it may be old or wrong).": (
        "Ce lien de pilotage ne pilote aucune classe en direct (il est peut-être ancien ou erroné)."
    ),
    "Too many wrong codes from this device: try again in a minute.": (
        "Trop de codes erronés depuis cet appareil : réessayez dans une minute."
    ),
    "Too many wrong codes: try again in {seconds} s.": (
        "Trop de codes erronés : réessayez dans {seconds} s."
    ),
    "Tried": "Essayé",
    "Tried: checked at least once. Right first: the first check was right. Right in the end: the last check is right.": (
        "Essayé : vérifié au moins une fois. Juste du premier coup : la première vérification "
        "était juste. Juste à la fin : la dernière vérification est juste."
    ),
    "Use it": "L'utiliser",
    "You had already answered: your first answer is the one counted.": (
        "Vous aviez déjà répondu : c'est votre première réponse qui compte."
    ),
    "Your answer": "Votre réponse",
    "Your answer: **{answer}**": "Votre réponse : **{answer}**",
    "Your answers are kept on this phone and reach your teacher when the class is back. Go on working.": (
        "Vos réponses sont conservées sur ce téléphone et parviendront à votre enseignant quand "
        "la classe sera de retour. Continuez à travailler."
    ),
    "Your control link drives this class from another device (your phone as a remote). It is hidden until you ask: never project it.": (
        "Votre lien de pilotage pilote cette classe depuis un autre appareil (votre téléphone "
        "comme télécommande). Il reste masqué jusqu'à ce que vous le demandiez : ne le projetez "
        "jamais."
    ),
    "Your controls (pause, ask, reveal, end) in a new tab, off the projector": (
        "Vos commandes (pause, question, révélation, fin) dans un nouvel onglet, hors de "
        "l'écran projeté"
    ),
    "Your teacher has opened one exercise for now.": (
        "Votre enseignant a ouvert un seul exercice pour l'instant."
    ),
    "Your teacher has paused the class. This page comes back by itself.": (
        "Votre enseignant a mis la classe en pause. Cette page reviendra d'elle-même."
    ),
    "Your teacher sees your checks; no other student does.": (
        "Votre enseignant voit vos vérifications ; aucun autre élève ne les voit."
    ),
    "a lesson's exercise": "un exercice de la leçon",
    "a number of this slide": "un nombre de cette diapositive",
    "a scaled score": "un score mis à l'échelle",
    "a score": "un score",
    "an attention weight": "un poids d'attention",
    "an output entry": "un coefficient de la sortie",
    "answer": "réponse",
    "at once": "aussitôt",
    "code {letters}": "code {letters}",
    "e.g. {name}": "p. ex. {name}",
    "no lock: every open one": "pas de blocage : tous les exercices ouverts",
    "no progress for {minutes} min": "aucun progrès depuis {minutes} min",
    "one row per line": "une ligne de la matrice par ligne",
    "other": "autre",
    "paused": "en pause",
    "right": "juste",
    "solution": "solution",
    "students": "élèves",
    "when I reveal": "quand je révèle",
    "with the code": "avec le code",
    "{lead}: **{answer}**. {worked}": "{lead} : **{answer}**. {worked}",
    "{answered} answered": ("{answered} réponse", "{answered} réponses"),
    "{answered} answered of {n} following": (
        "{answered} réponse sur {n} qui suivent",
        "{answered} réponses sur {n} qui suivent",
    ),
    "{answered} of {n} student answered": (
        "Réponses : {answered} sur {n} élève",
        "Réponses : {answered} sur {n} élèves",
    ),
    "{n} not sent yet.": ("{n} pas encore envoyé.", "{n} pas encore envoyés."),
    "{n} stuck": ("{n} bloqué", "{n} bloqués"),
    "{n} student following": ("{n} élève suit", "{n} élèves suivent"),
    "{n} student following. Press to show the join screen.": (
        "{n} élève suit. Appuyez pour afficher l'écran pour rejoindre.",
        "{n} élèves suivent. Appuyez pour afficher l'écran pour rejoindre.",
    ),
    "{n} wrong try on {step} ({slip})": (
        "{n} essai faux sur {step} ({slip})",
        "{n} essais faux sur {step} ({slip})",
    ),
}
