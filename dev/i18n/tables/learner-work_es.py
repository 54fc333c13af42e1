# ruff: noqa: E501  (a table of sentences, one entry a line)
"""The Spanish translations of the kept exercise work and the short link's note (issue 41,
defects 4 and 5). ``T``: msgid -> msgstr (a plural entry: its singular msgid -> a tuple of
the language's forms). Written into the catalogue by
``dev/i18n/fill_po.py es dev/i18n/tables/learner-work_es.py``."""

T = {
    "A file this page's “Download progress (JSON)” saved, in any language: it replaces the work on this page.": "Un archivo guardado con «Descargar el progreso (JSON)» de esta página, en cualquier idioma: sustituye el trabajo de esta página.",
    "Delete your answers from this page, this browser and the server.": "Borra tus respuestas de esta página, de este navegador y del servidor.",
    "Forget it on this browser": "Olvidarlo en este navegador",
    "Forgotten: this page, this browser and the server hold none of your work now.": "Olvidado: ni esta página, ni este navegador, ni el servidor guardan ya nada de tu trabajo.",
    "It is larger than {limit} kB; a progress file is far smaller.": "Ocupa más de {limit} kB; un archivo de progreso es mucho más pequeño.",
    "It is not a progress file of this app (it has no exercise progress in it).": "No es un archivo de progreso de esta aplicación (no contiene progreso de ejercicios).",
    "It is not a progress file of this app: it is not JSON text.": "No es un archivo de progreso de esta aplicación: no es texto JSON.",
    "It was saved by a newer version of this app (format {version}); this one reads formats 1 and 2.": "Lo guardó una versión más reciente de esta aplicación (formato {version}); esta lee los formatos 1 y 2.",
    "Kept on this server for {n} day: everything the full link holds (the numbers, the page and its settings).": (
        "Se guarda en este servidor {n} día: todo lo que contiene el enlace completo (los números, la página y sus ajustes).",
        "Se guarda en este servidor {n} días: todo lo que contiene el enlace completo (los números, la página y sus ajustes).",
    ),
    "Load a progress file (JSON)": "Cargar un archivo de progreso (JSON)",
    "Not saved yet: the server that keeps your work cannot be reached. Go on working; it is saved when the server is back (or download it now).": "Aún sin guardar: no se puede contactar con el servidor que guarda tu trabajo. Sigue trabajando; se guardará cuando el servidor vuelva (o descárgalo ahora).",
    "That file could not be loaded, and your work is as it was: {why}": "No se pudo cargar ese archivo y tu trabajo sigue como estaba: {why}",
    "The server that keeps your work cannot be reached just now, so it is not forgotten there: try again.": "Ahora mismo no se puede contactar con el servidor que guarda tu trabajo, así que allí no se ha olvidado: inténtalo de nuevo.",
    "Your progress file was loaded: {right} of {total} steps right.": "Se cargó tu archivo de progreso: {right} de {total} pasos correctos.",
    "Your work is kept on this app's server for this browser (a cookie holds its key) for {n} day after your last change. On a shared computer, forget it when you are done.": (
        "Tu trabajo se guarda en el servidor de esta aplicación para este navegador (una cookie guarda su clave) durante {n} día tras tu último cambio. En un ordenador compartido, olvídalo al terminar.",
        "Tu trabajo se guarda en el servidor de esta aplicación para este navegador (una cookie guarda su clave) durante {n} días tras tu último cambio. En un ordenador compartido, olvídalo al terminar.",
    ),
    "{n} step in the file is not one of this version's exercise steps: it was left out.": (
        "{n} paso del archivo no es de los ejercicios de esta versión: se ha omitido.",
        "{n} pasos del archivo no son de los ejercicios de esta versión: se han omitido.",
    ),
}
