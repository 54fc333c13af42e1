# ruff: noqa: E501  (a table of sentences, one entry a line)
"""The French translations of the kept exercise work and the short link's note (issue 41,
defects 4 and 5). ``T``: msgid -> msgstr (a plural entry: its singular msgid -> a tuple of
the language's forms). Written into the catalogue by
``dev/i18n/fill_po.py fr dev/i18n/tables/learner-work_fr.py`` (which adds the no-break
spaces of French typography)."""

T = {
    "A file this page's “Download progress (JSON)” saved, in any language: it replaces the work on this page.": "Un fichier enregistré par « Télécharger la progression (JSON) » de cette page, dans n'importe quelle langue : il remplace le travail de cette page.",
    "Delete your answers from this page, this browser and the server.": "Effacez vos réponses de cette page, de ce navigateur et du serveur.",
    "Forget it on this browser": "L'oublier sur ce navigateur",
    "Forgotten: this page, this browser and the server hold none of your work now.": "Oublié : ni cette page, ni ce navigateur, ni le serveur ne gardent plus rien de votre travail.",
    "It is larger than {limit} kB; a progress file is far smaller.": "Il dépasse {limit} ko ; un fichier de progression est bien plus petit.",
    "It is not a progress file of this app (it has no exercise progress in it).": "Ce n'est pas un fichier de progression de cette application (il ne contient aucune progression d'exercices).",
    "It is not a progress file of this app: it is not JSON text.": "Ce n'est pas un fichier de progression de cette application : ce n'est pas du texte JSON.",
    "It was saved by a newer version of this app (format {version}); this one reads formats 1 and 2.": "Il a été enregistré par une version plus récente de cette application (format {version}) ; celle-ci lit les formats 1 et 2.",
    "Kept on this server for {n} day: everything the full link holds (the numbers, the page and its settings).": (
        "Conservé {n} jour sur ce serveur : tout ce que contient le lien complet (les nombres, la page et ses réglages).",
        "Conservé {n} jours sur ce serveur : tout ce que contient le lien complet (les nombres, la page et ses réglages).",
    ),
    "Load a progress file (JSON)": "Charger un fichier de progression (JSON)",
    "Not saved yet: the server that keeps your work cannot be reached. Go on working; it is saved when the server is back (or download it now).": "Pas encore enregistré : le serveur qui conserve votre travail est injoignable. Continuez à travailler ; il sera enregistré au retour du serveur (ou téléchargez-le maintenant).",
    "That file could not be loaded, and your work is as it was: {why}": "Ce fichier n'a pas pu être chargé, et votre travail est resté tel quel : {why}",
    "The server that keeps your work cannot be reached just now, so it is not forgotten there: try again.": "Le serveur qui conserve votre travail est injoignable pour l'instant, il n'y est donc pas oublié : réessayez.",
    "Your progress file was loaded: {right} of {total} steps right.": "Votre fichier de progression a été chargé : {right} étapes justes sur {total}.",
    "Your work is kept on this app's server for this browser (a cookie holds its key) for {n} day after your last change. On a shared computer, forget it when you are done.": (
        "Votre travail est conservé sur le serveur de l'application pour ce navigateur (un cookie en garde la clé) pendant {n} jour après votre dernière modification. Sur un ordinateur partagé, faites-le oublier quand vous avez fini.",
        "Votre travail est conservé sur le serveur de l'application pour ce navigateur (un cookie en garde la clé) pendant {n} jours après votre dernière modification. Sur un ordinateur partagé, faites-le oublier quand vous avez fini.",
    ),
    "{n} step in the file is not one of this version's exercise steps: it was left out.": (
        "{n} étape du fichier ne fait pas partie des exercices de cette version : elle a été laissée de côté.",
        "{n} étapes du fichier ne font pas partie des exercices de cette version : elles ont été laissées de côté.",
    ),
}
