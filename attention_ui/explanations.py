"""The words on each stage: a one-line summary (presentation mode) and a fuller note (pages).

Written for this app; the facts follow the lessons in shared/lessons.
"""

from __future__ import annotations

SHORT = {
    "inputs": "Each token becomes a vector. Attention will let every token gather "
    "information from the others.",
    "projections": "Three learned matrices turn each embedding into a query (what am I "
    "looking for?), a key (what do I offer?) and a value (what do I pass on?).",
    "scores": "Every query is compared with every key by a dot product: a large score "
    "means 'this key matches what I am looking for'.",
    "scaling": "Dividing by √d_k keeps the scores near unit size however long the "
    "vectors are, so softmax does not saturate.",
    "mask": "A mask forbids some query-key pairs (the future, or padding) by setting "
    "their score to −∞, so they get weight exactly 0.",
    "softmax": "Softmax turns each row of scores into weights that are positive and sum "
    "to 1: how much attention each query pays to each key.",
    "output": "Each output row is a weighted average of the value vectors: the query's "
    "new, context-aware representation.",
}

LONG = {
    "inputs": """
Attention works on a **sequence of vectors**, one per token. You can start from
**embeddings** $X$ (one row per token) and the three learned projection matrices
$W_Q$, $W_K$, $W_V$, or skip that step and type **Q, K and V directly**, as the
lessons' small worked examples do. Change anything here: every later page follows.
""",
    "projections": """
The same embedding plays three roles, so it is projected three times. A row of
$Q = XW_Q$ is a token's **query**, what it is looking for; a row of $K = XW_K$ is its
**key**, what it can be found by; a row of $V = XW_V$ is its **value**, the information it
hands over when another token attends to it. Queries and keys must have the same length
$d_k$ because they will be compared; values may have any length $d_v$.
Think of a library: you bring a question (query), the shelves carry labels (keys), and the
books hold the content (values).
""",
    "scores": """
$QK^\\top$ holds one dot product for every (query, key) pair: row *i*, column *j* is
$q_i \\cdot k_j$, the sum of the products of matching components. Vectors that point the same
way give a large positive score, opposite ones a negative score, unrelated ones about 0.
Pick a cell to see its sum written out term by term.
""",
    "scaling": """
If the components of $q$ and $k$ are independent with mean 0 and variance 1, each product
$q_m k_m$ has variance 1, and their sum over $d_k$ components has variance $d_k$. So the
scores spread out like $\\sqrt{d_k}$: about 8 for $d_k = 64$. Fed such large numbers, softmax
puts almost all the weight on one key and its gradients become tiny. Multiplying by
$1/\\sqrt{d_k}$ brings the spread back to about 1, whatever the width.
""",
    "mask": """
Sometimes a query must not see some keys. In a decoder that generates text left to right,
token *i* may not look at tokens after it (**causal** mask). In a batch, short sentences
are filled up with **padding** tokens that nobody should attend to. A mask marks the
allowed pairs; here, as in PyTorch, **True means "may attend"**. Forbidden scores are
replaced by $-\\infty$, and since $e^{-\\infty} = 0$ they get weight exactly 0 after softmax.
""",
    "softmax": """
Softmax works **row by row**: for one query it exponentiates each score and divides by the
row's total, $w_j = e^{s_j} / \\sum_l e^{s_l}$. The weights are positive, sum to 1, and keep the
scores' order; larger gaps between scores give a sharper distribution. In practice the row
maximum is subtracted first: it changes nothing mathematically but keeps $e^x$ from
overflowing.
""",
    "output": """
The output for a query is $\\sum_j w_j v_j$: every value vector, weighted by how much attention
the query pays to its key. It is a new representation of the token that mixes in
information from the tokens it found relevant. In a Transformer block this result is added
back to the token's embedding (the **residual connection**), so the token keeps what it was
and gains context.
""",
}
