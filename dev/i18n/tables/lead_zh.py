"""Simplified Chinese: the lead's own entries (the exercises' scenario names)."""

T = {
    "Exercise: causal mask": "练习：因果掩码",
    "Exercise: from embeddings": "练习：从嵌入出发",
    "Exercise: no scaling, d_k = 32": "练习：不缩放，d_k = 32",
    "Exercise: two heads (head 1 alone)": "练习：两个头（仅头 1）",
}
