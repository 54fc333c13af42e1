"""The exercises' content: the lessons' examples, their prompts, hints and explanations.

Content only: the numbers come from the scenarios through the core (the step builders read
every accepted answer and every slip off an ``AttentionTrace``); this module adds the words.
"""

from __future__ import annotations

import functools

import numpy as np

from attention_core import presets
from attention_core.exercises.mistakes import mask_mistakes
from attention_core.exercises.model import Choice, ChoiceStep, Exercise, Mistake, Step, Variant
from attention_core.exercises.scenarios import (
    causal_scenario,
    embeddings_scenario,
    saturation_scenario,
    two_heads,
)
from attention_core.exercises.steps import (
    concat_step,
    head_weights_step,
    multi_head_output_step,
    numeric,
    output_step,
    scaled_step,
    scores_step,
    weights_step,
)
from attention_core.exercises.text import tex_matrix as tex
from attention_core.exercises.training import stall
from attention_core.masks import causal_mask
from attention_core.multihead import multi_head_attention


def _paper_toy() -> Exercise:
    s = presets.paper_toy()
    t = s.trace()
    guide_weights = np.array([[0.3303, 0.6697]])  # the guide's printed (rounded) weights
    return Exercise(
        id="paper_toy",
        title="The paper guide's toy: one query, two keys",
        short_title="1 · Paper toy",
        source="Paper guide: scaled dot-product attention",
        statement=(
            "One query, two keys, one value per key, with $d_k = 2$:\n\n"
            f"$$Q = {tex(t.Q)},\\quad K = {tex(t.K)},\\quad V = {tex(t.V)}$$\n\n"
            "Compute $\\operatorname{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V$ "
            "one step at a time."
        ),
        scenario=s,
        steps=(
            scores_step(
                t,
                prompt="**Step 1.** Multiply the query by the transposed keys: $QK^\\top$.",
                hints=(
                    "Each entry is a dot product: the query [1, 2] with one key.",
                    "K is the identity, so each key picks out one coordinate of the query.",
                ),
                explanation="Each key is a unit vector, so the dot products just read off "
                "the query's two coordinates.",
            ),
            scaled_step(
                t,
                decimals=4,
                prompt="**Step 2.** Scale the scores: divide by $\\sqrt{d_k}$ (4 decimals).",
                hints=(
                    "d_k is the length of each key vector: here 2.",
                    "√2 ≈ 1.41421. Divide both scores by it.",
                ),
                explanation="Both scores are divided by $\\sqrt{2} \\approx 1.41421$.",
            ),
            weights_step(
                t,
                decimals=4,
                prompt="**Step 3.** Apply softmax to the scaled scores (4 decimals).",
                hints=(
                    "softmax(z)_i = e^(z_i) / Σ_j e^(z_j), along the row.",
                    "e^0.7071 ≈ 2.028 and e^1.4142 ≈ 4.113; divide each by their sum.",
                ),
                explanation="Exponentiate both scaled scores and divide by their sum. The "
                "guide prints 0.3303 / 0.6697; full precision rounds to 0.3302 / 0.6698, "
                "and either is accepted.",
            ),
            output_step(
                t,
                decimals=3,
                weight_decimals=4,
                rounded_weights=guide_weights,
                rounded_label="the guide's rounded weights 0.3303 / 0.6697",
                prompt="**Step 4.** Multiply the weights by $V$ (3 decimals).",
                hints=(
                    "The output is a weighted average of the values 10 and 20.",
                    "weight₁ · 10 + weight₂ · 20.",
                ),
                explanation="A weighted average of 10 and 20, leaning towards 20 because the "
                "second key matched better. Full-precision weights give 16.698; the guide's "
                "rounded weights give 16.697.",
            ),
        ),
    )


def _hungry() -> Exercise:
    s = presets.hungry()
    t = s.trace()
    lesson_weights = np.round(t.weights, 3)  # the post's 0.844 / 0.114 / 0.042
    return Exercise(
        id="hungry",
        title="“…because it was hungry”: what does “it” look at?",
        short_title="2 · “it was hungry”",
        source="Post: attention, the mathematics behind context",
        statement=(
            "In *The animal in the jungle went out on a hunt because it was hungry*, the "
            "query for **it** meets the keys of **animal**, **jungle** and **hunt**. Its raw "
            f"dot products are ${tex(t.scores)}$ with $d_k = {t.d_k}$, and the value "
            "vectors are\n\n"
            f"$$V = {tex(t.V)} \\quad \\text{{(animal, jungle, hunt)}}$$"
        ),
        scenario=s,
        steps=(
            scaled_step(
                t,
                decimals=None,
                prompt="**Step 1.** Scale the raw scores: divide by $\\sqrt{d_k}$.",
                hints=("d_k = 4, so √d_k = 2.",),
                explanation="Dividing by $\\sqrt{4} = 2$ gives the post's scaled scores.",
            ),
            weights_step(
                t,
                decimals=3,
                prompt="**Step 2.** Turn the scaled scores into attention weights with "
                "softmax (3 decimals), in the order animal, jungle, hunt.",
                hints=(
                    "e³ ≈ 20.09, e¹ ≈ 2.72, e⁰ = 1.",
                    "Divide each exponential by their sum (≈ 23.81).",
                ),
                explanation="“animal” gets about 84 % of the attention.",
            ),
            output_step(
                t,
                decimals=3,
                weight_decimals=3,
                rounded_weights=lesson_weights,
                rounded_label="the rounded weights 0.844 / 0.114 / 0.042",
                prompt="**Step 3.** Mix the value vectors with the weights: the output "
                "for **it** (a row of 2 numbers, 3 decimals).",
                hints=(
                    "output = w_animal · [2, 4] + w_jungle · [6, 2] + w_hunt · [1, 8].",
                    "Do the first coordinate and the second coordinate separately.",
                ),
                explanation="With the rounded weights the post gets [2.414, 3.94]; at full "
                "precision it is [2.41477, 3.93965]. Both are accepted. The value of "
                "“animal” dominates.",
            ),
        ),
    )


def _quiz88() -> Exercise:
    s = presets.quiz88()
    t = s.trace()
    return Exercise(
        id="quiz88",
        title="Two keys: how scores become 80 % and 20 % of the attention",
        short_title="3 · Two keys",
        source="Lesson 88: calculating attention scores",
        statement=(
            "A query and two keys, with $d_k = 2$:\n\n"
            f"$$q = {tex(t.Q)},\\quad k_1 = {tex(t.K[:1])},\\quad k_2 = {tex(t.K[1:])}$$"
        ),
        scenario=s,
        steps=(
            scores_step(
                t,
                prompt="**Step 1.** The unscaled scores $q \\cdot k_1$ and $q \\cdot k_2$ "
                "(one row: 2 numbers).",
                hints=("q · k₁ = 1·1 + 2·1.",),
                explanation="Multiply matching coordinates and add them up.",
            ),
            scaled_step(
                t,
                decimals=4,
                prompt="**Step 2.** The scaled scores: divide by $\\sqrt{d_k}$ (4 decimals).",
                hints=("√2 ≈ 1.41421.",),
                explanation="Both scores are divided by $\\sqrt{2}$.",
            ),
            weights_step(
                t,
                decimals=3,
                percent=True,
                prompt="**Step 3.** The attention weights after softmax, as fractions "
                "(3 decimals) or as percentages (1 decimal, e.g. `12.3 %`).",
                hints=(
                    "e^2.1213 ≈ 8.34 and e^0.7071 ≈ 2.03.",
                    "Divide each exponential by their sum.",
                ),
                explanation="The first key gets about 80.4 % of the attention, the second 19.6 %.",
            ),
        ),
    )


def _why_scale() -> Exercise:
    s = saturation_scenario()
    return Exercise(
        id="why_scale",
        title="Why not remove the scaling?",
        short_title="4 · Why scale?",
        source="Lesson 89: understanding scaled dot-product attention",
        statement=(
            "An engineer proposes to drop the $\\frac{1}{\\sqrt{d_k}}$ factor to make the "
            "model simpler and a little faster. The scenario for this card uses $d_k = 32$ "
            "with the scaling switched **off**: open it in the walkthrough and look at the "
            "weights."
        ),
        scenario=s,
        steps=(
            ChoiceStep(
                id="choice",
                title="What goes wrong?",
                prompt="What is the main problem you expect during training?",
                choices=(
                    Choice(
                        "Nothing: softmax gives the same weights whatever the scale of the scores.",
                        False,
                        "Softmax ignores adding the same number to every score, not "
                        "multiplying them. Bigger scores give sharper weights.",
                        "thinks softmax ignores scale",
                    ),
                    Choice(
                        "The dot products grow with $d_k$, softmax saturates (weights near "
                        "0 or 1) and its gradients almost vanish, so learning stalls.",
                        True,
                        "A dot product of d_k unit-variance terms has variance d_k, so "
                        "without the scale the scores spread out as d_k grows. Softmax then "
                        "puts almost all the weight on one key, and its gradients are nearly "
                        "zero, so the weights that made Q and K barely learn.",
                    ),
                    Choice(
                        "The weights in a row would no longer add up to 1.",
                        False,
                        "Softmax always divides by the row's total, so each row still adds "
                        "up to 1 with or without the scale.",
                        "thinks scaling normalises the rows",
                    ),
                    Choice(
                        "The output would have the wrong shape.",
                        False,
                        "Dividing by a number changes no shapes: the output is still one "
                        "row per query and one column per value dimension.",
                        "thinks scaling changes shapes",
                    ),
                ),
                hints=(
                    "What happens to the spread of q · k when you add more and more terms?",
                    "Look at softmax([1, 2]) and softmax([10, 20]).",
                ),
                explanation="Without $1/\\sqrt{d_k}$ the scores' spread grows like "
                "$\\sqrt{d_k}$, the softmax saturates and its gradients vanish. The scaling "
                "lab lets you sweep $d_k$ and watch it happen.",
                see_also="scaling-lab",
            ),
        ),
    )


def _causal() -> Exercise:
    s = causal_scenario()
    t = s.trace()
    return Exercise(
        id="causal",
        title="A causal mask: no peeking ahead",
        short_title="5 · Causal mask",
        source="Lesson 89's optional Mask step",
        statement=(
            "Self-attention over the three tokens *I like tea*, with a **causal mask**: a "
            "token may attend to itself and to earlier tokens, never to later ones. "
            f"Here $d_k = {t.d_k}$ and\n\n"
            f"$$Q = {tex(t.Q)},\\quad K = {tex(t.K)},\\quad V = {tex(t.V)}$$"
        ),
        scenario=s,
        steps=(
            scaled_step(
                t,
                decimals=None,
                prompt="**Step 1.** The scaled scores $QK^\\top/\\sqrt{d_k}$ for every "
                "pair, before masking (a 3 × 3 matrix; one row per line).",
                hints=(
                    "Row i, column j is (query i · key j) / 2.",
                    "Query 1 · key 1 = 2·1 + 0 + 0 + 0·1 = 2, so the top-left entry is 1.",
                ),
                explanation="All nine dot products divided by $\\sqrt{4} = 2$.",
            ),
            numeric(
                id="mask",
                title="mask",
                symbol=r"\text{mask}",
                prompt="**Step 2.** Write the causal mask: 1 where the query (row) may "
                "attend to the key (column), 0 where it is blocked.",
                accepted=[Variant("", causal_mask(3).astype(float))],
                mistakes=mask_mistakes(causal_mask(3)),
                decimals=None,
                layout="one row per query, one column per key",
                kind="mask",
                hints=(
                    "Token 1 (“I”) can only see itself.",
                    "Allowed entries are on and below the diagonal.",
                ),
                explanation="Lower triangle and diagonal are 1; everything above the "
                "diagonal (the future) is 0.",
            ),
            weights_step(
                t,
                decimals=3,
                prompt="**Step 3.** The attention weights: blocked scores become $-\\infty$ "
                "before the softmax, so they get weight 0 (3 decimals).",
                hints=(
                    "Row 1 has only one allowed key, so its weight is 1.",
                    "Row 2 is softmax([0, 2]) on the two allowed keys, then 0 for the third.",
                ),
                explanation="Each row's softmax only shares the weight among the allowed "
                "keys; blocked keys get exactly 0.",
            ),
            output_step(
                t,
                decimals=3,
                weight_decimals=3,
                prompt="**Step 4.** The outputs: weights times $V$ (a 3 × 2 matrix, 3 decimals).",
                hints=(
                    "The first token can only see itself, so its output is its own value.",
                    "Row i of the output is Σ_j weight[i, j] · V[j].",
                ),
                explanation="“I” keeps its own value; later tokens mix in earlier values.",
            ),
        ),
    )


def _embeddings() -> Exercise:
    s = embeddings_scenario()
    m = s.matrices()  # X, W_q, W_k, W_v
    Q, K, V = s.qkv()
    t = s.trace()
    projections = {"Q": (Q, "W_q"), "K": (K, "W_k"), "V": (V, "W_v")}
    steps: list[Step] = [
        numeric(
            id=name.lower(),
            title=name,
            symbol=f"{name} = XW_{name.lower()}",
            prompt=f"**Step {i}.** Project the embeddings: ${name} = XW_{name.lower()}$ "
            "(3 rows, one per token).",
            accepted=[Variant("", M)],
            mistakes=[
                Mistake(
                    "transposed",
                    M.T,
                    f"Right numbers, wrong layout: {name} has one row per token. Compute "
                    f"X · {w}, not its transpose.",
                ),
                *(
                    Mistake(
                        "wrong_projection",
                        other,
                        f"This is X · {other_w}, which gives {other_name}. "
                        f"{name} comes from X · {w}.",
                    )
                    for other_name, (other, other_w) in projections.items()
                    if other_name != name
                ),
            ],
            decimals=None,
            layout="one row per token, one column per dimension",
            hints=(
                f"Row i of {name} is the embedding of token i times {w}.",
                f"Row 3 of X is [1, 1], so row 3 of {name} is the sum of {w}'s two rows.",
            ),
            explanation=f"Every token's embedding (a row of $X$) times $W_{name.lower()}$.",
        )
        for i, (name, (M, w)) in enumerate(projections.items(), start=1)
    ]
    steps += [
        scaled_step(
            t,
            decimals=3,
            prompt="**Step 4.** The scaled scores $QK^\\top/\\sqrt{d_k}$ (3 × 3, 3 decimals).",
            hints=(
                "First Q Kᵀ: row i, column j is query i · key j.",
                "Then divide everything by √2 ≈ 1.41421.",
            ),
            explanation="All nine dot products, divided by $\\sqrt{2}$.",
        ),
        weights_step(
            t,
            decimals=3,
            prompt="**Step 5.** The attention weights, softmax along each row (3 × 3, 3 decimals).",
            hints=("Each row must add up to 1.", "Row 1 is softmax([0.707, 0, 0.707])."),
            explanation="Each row is one token's attention over all three tokens.",
        ),
        output_step(
            t,
            decimals=3,
            weight_decimals=3,
            prompt="**Step 6.** The outputs: weights times $V$ (3 × 2, 3 decimals).",
            hints=("Row i of the output is Σ_j weight[i, j] · V[j].",),
            explanation="Each token's output is a blend of all three value vectors.",
        ),
    ]
    return Exercise(
        id="embeddings",
        title="Self-attention from embeddings and projections",
        short_title="6 · From embeddings",
        source="Lesson 88: from embeddings to Q, K and V",
        statement=(
            "Three tokens *cats chase mice* with 2-dimensional embeddings (one row each) "
            "and three learned projections, so $d_k = 2$:\n\n"
            f"$$X = {tex(m['X'])},\\quad W_q = {tex(m['W_q'])},\\quad W_k = {tex(m['W_k'])},"
            f"\\quad W_v = {tex(m['W_v'])}$$"
        ),
        scenario=s,
        steps=tuple(steps),
    )


def _two_heads() -> Exercise:
    m = two_heads()
    mh = multi_head_attention(m.X, m.W_q, m.W_k, m.W_v, m.W_o, n_heads=m.n_heads)
    return Exercise(
        id="two_heads",
        title="Two heads: split, attend, concatenate, mix",
        short_title="7 · Two heads",
        source="the lessons' next step: multi-head attention",
        statement=(
            "The two tokens *ice cream* have 4-dimensional embeddings ($d_\\text{model} = 4$), "
            "and the projections are split into **two heads** of width $d_\\text{head} = 2$: "
            "head 1 uses columns 1–2 of $W_q$, $W_k$ and $W_v$, head 2 uses columns 3–4. "
            "Each head runs scaled dot-product attention on its own slice, dividing by "
            "$\\sqrt{d_\\text{head}}$; the heads' outputs are put side by side and $W_O$ "
            "mixes them back to the model width.\n\n"
            f"$$X = {tex(m.X)},\\quad W_q = {tex(m.W_q)},\\quad W_k = {tex(m.W_k)}$$\n\n"
            f"$$W_v = {tex(m.W_v)},\\quad W_O = {tex(m.W_o)}$$"
        ),
        scenario=m.head_scenario(0, "Exercise: two heads (head 1 alone)"),
        steps=(
            head_weights_step(
                mh,
                0,
                decimals=3,
                prompt="**Step 1.** Head 1's attention weights (2 × 2, 3 decimals): "
                "$Q_1 = X W_q$ and $K_1 = X W_k$ restricted to columns 1–2, then "
                "$\\operatorname{softmax}(Q_1 K_1^\\top / \\sqrt{2})$ row by row.",
                hints=(
                    "W_q is the identity, so Q₁ is just the first two columns of X.",
                    "K₁ = [2 0; 0 2], so the scores are [2 0; 0 2]. Divide by √2, not by √4.",
                ),
                explanation="Head 1's scores are $\\begin{bmatrix} 2 & 0 \\\\ 0 & 2 "
                "\\end{bmatrix}$; after dividing by $\\sqrt{2}$ each token puts about "
                "80 % of this head's attention on itself.",
            ),
            head_weights_step(
                mh,
                1,
                decimals=3,
                prompt="**Step 2.** Head 2's attention weights (2 × 2, 3 decimals), from "
                "columns 3–4 of $XW_q$ and $XW_k$.",
                hints=(
                    "Q₂ is columns 3–4 of X: [0 1; 1 0]. K₂ is columns 3–4 of X W_k.",
                    "The scores are [0 4; 2 0]; divide by √2 and take each row's softmax.",
                ),
                explanation="Head 2's scores are $\\begin{bmatrix} 0 & 4 \\\\ 2 & 0 "
                "\\end{bmatrix}$: this head sends each token's attention to the *other* "
                "token, so the two heads look at different things.",
            ),
            concat_step(
                mh,
                decimals=3,
                prompt="**Step 3.** Each head's output is its weights times its own slice "
                "of $V = XW_v$. Write both side by side: head 1's two columns, then "
                "head 2's (2 × 4, 3 decimals).",
                hints=(
                    "V₁ (columns 1–2 of X W_v) is [2 0; 0 2]; V₂ (columns 3–4) is [1 0; 1 2].",
                    "Row i of the concatenation is [weights₁[i] · V₁ | weights₂[i] · V₂].",
                ),
                explanation="Concatenating does no arithmetic: it only places the heads' "
                "outputs next to each other, so the result is as wide as $W_q$.",
            ),
            multi_head_output_step(
                mh,
                decimals=3,
                prompt="**Step 4.** The output: the concatenation times $W_O$ (2 × 4, 3 decimals).",
                hints=(
                    "W_O = [I I; I −I]: columns 1–2 add the heads, columns 3–4 subtract head 2.",
                    "Row i of the output is row i of the concatenation times each column of W_O.",
                ),
                explanation="$W_O$ is what lets the heads talk to each other: every output "
                "column mixes numbers from both heads. Without it the result would just be "
                "two separate halves.",
            ),
        ),
    )


@functools.cache
def all_exercises() -> tuple[Exercise, ...]:
    """Every exercise, in the order the page shows them (built once per process)."""
    return (
        _paper_toy(),
        _hungry(),
        _quiz88(),
        _why_scale(),
        _causal(),
        _embeddings(),
        _two_heads(),
        stall(),
    )


def exercise_by_id(exercise_id: str) -> Exercise:
    return next(e for e in all_exercises() if e.id == exercise_id)
