"""French: the lead's own entries (the exercises' scenario names)."""

T = {
    "Exercise: causal mask": "Exercice\u00a0: masque causal",
    "Exercise: from embeddings": "Exercice\u00a0: à partir des plongements",
    "Exercise: no scaling, d_k = 32": "Exercice\u00a0: sans mise à l'échelle, d_k = 32",
    "Exercise: two heads (head 1 alone)": "Exercice\u00a0: deux têtes (la tête 1 seule)",
}
