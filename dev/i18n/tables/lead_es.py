"""Spanish: the lead's own entries (the exercises' scenario names)."""

T = {
    "Exercise: causal mask": "Ejercicio: máscara causal",
    "Exercise: from embeddings": "Ejercicio: a partir de los embeddings",
    "Exercise: no scaling, d_k = 32": "Ejercicio: sin escalado, d_k = 32",
    "Exercise: two heads (head 1 alone)": "Ejercicio: dos cabezas (solo la cabeza 1)",
}
