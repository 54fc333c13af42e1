"""Issue 45 (deploy-seams): the teacher's warning about a loopback ATTENTION_LAB_PUBLIC_URL in fr.
``python dev/i18n/fill_po.py fr dev/i18n/tables/deploy_seams_fr.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    "{setting} is set to {address}, this computer's own (loopback) address: phones cannot reach it. Set it to the address students use, or leave it empty so that the app finds this computer's address on the network.": "{setting} vaut {address}, l'adresse de l'ordinateur lui-même (loopback) : les téléphones ne peuvent pas l'atteindre. Donnez-lui l'adresse qu'utilisent les élèves, ou laissez-la vide pour que l'application trouve l'adresse de cet ordinateur sur le réseau.",
}
# fmt: on
