"""German: the lead's own entries (the exercises' scenario names)."""

T = {
    "Exercise: causal mask": "Übung: kausale Maske",
    "Exercise: from embeddings": "Übung: aus den Embeddings",
    "Exercise: no scaling, d_k = 32": "Übung: ohne Skalierung, d_k = 32",
    "Exercise: two heads (head 1 alone)": "Übung: zwei Heads (nur Head 1)",
}
