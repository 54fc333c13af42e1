"""Issue 45 (deploy-seams): the teacher's warning about a loopback ATTENTION_LAB_PUBLIC_URL in de.
``python dev/i18n/fill_po.py de dev/i18n/tables/deploy_seams_de.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    "{setting} is set to {address}, this computer's own (loopback) address: phones cannot reach it. Set it to the address students use, or leave it empty so that the app finds this computer's address on the network.": '{setting} ist auf {address} gesetzt, die eigene Adresse dieses Computers (Loopback): Handys erreichen sie nicht. Setze sie auf die Adresse, die die Lernenden verwenden, oder lass sie leer, damit die App die Adresse dieses Computers im Netzwerk findet.',
}
# fmt: on
