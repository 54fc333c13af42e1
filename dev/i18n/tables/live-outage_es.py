# ruff: noqa: E501  (a msgid is a key as the code writes it: long sentences stay one line)
"""Spanish: a teacher's change kept through a store outage, and a following phone that edits
(issue 41, defects 6 and 7). Register and terms as docs/i18n/glossary.md's live class."""

T = {
    "**The class has not got this yet**: the live class cannot be reached just now. Your last change is kept and sent as soon as it is back.": "**La clase aún no lo ha recibido**: ahora mismo no se puede conectar con la clase en directo. Tu último cambio se guarda y se envía en cuanto vuelva.",
    "You changed the example, so you now explore on your own: the teacher's steps no longer replace your edits. *Back to the teacher* takes the class's example again.": "Has cambiado el ejemplo, así que ahora exploras por tu cuenta: los pasos del docente ya no reemplazan tus cambios. *Volver con el docente* recupera el ejemplo de la clase.",
}
