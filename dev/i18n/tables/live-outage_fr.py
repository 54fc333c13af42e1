# ruff: noqa: E501  (a msgid is a key as the code writes it: long sentences stay one line)
"""French: a teacher's change kept through a store outage, and a following phone that edits
(issue 41, defects 6 and 7). Register and terms as docs/i18n/glossary.md's live class."""

T = {
    "**The class has not got this yet**: the live class cannot be reached just now. Your last change is kept and sent as soon as it is back.": "**La classe n'a pas encore reçu ceci** : la classe en direct est injoignable pour le moment. Votre dernière modification est conservée et envoyée dès son retour.",
    "You changed the example, so you now explore on your own: the teacher's steps no longer replace your edits. *Back to the teacher* takes the class's example again.": "Vous avez modifié l'exemple : vous explorez donc seul désormais, et les étapes de l'enseignant ne remplacent plus vos modifications. *Revenir à l'enseignant* reprend l'exemple de la classe.",
}
