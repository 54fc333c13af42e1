"""Issue 45 (deploy-seams): the teacher's warning about a loopback ATTENTION_LAB_PUBLIC_URL in es.
``python dev/i18n/fill_po.py es dev/i18n/tables/deploy_seams_es.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    "{setting} is set to {address}, this computer's own (loopback) address: phones cannot reach it. Set it to the address students use, or leave it empty so that the app finds this computer's address on the network.": '{setting} vale {address}, la dirección propia de este ordenador (loopback): los móviles no pueden llegar a ella. Pon en su lugar la dirección que usan los estudiantes, o déjala vacía para que la aplicación encuentre la dirección de este ordenador en la red.',
}
# fmt: on
