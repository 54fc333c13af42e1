"""The exercises' content: the lessons' examples, their prompts, hints and explanations.

Content only: the numbers come from the scenarios through the core (the step builders read
every accepted answer and every slip off an ``AttentionTrace``); this module adds the words.
"""

from __future__ import annotations

import functools

import numpy as np

from attention_core import presets
from attention_core.exercises.generation import online_softmax, temperature
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
from attention_core.i18n import N_, Text
from attention_core.masks import causal_mask
from attention_core.multihead import multi_head_attention


def _paper_toy() -> Exercise:
    s = presets.paper_toy()
    t = s.trace()
    guide_weights = np.array([[0.3303, 0.6697]])  # the guide's printed (rounded) weights
    return Exercise(
        id="paper_toy",
        title=Text("The paper guide's toy: one query, two keys"),
        short_title=Text("1 · Paper toy"),
        source=Text("Paper guide: scaled dot-product attention"),
        statement=Text(
            "One query, two keys, one value per key, with $d_k = 2$:\n\n{matrices}\n\n"
            "Compute {formula} one step at a time.",
            matrices=f"$$Q = {tex(t.Q)},\\quad K = {tex(t.K)},\\quad V = {tex(t.V)}$$",
            formula="$\\operatorname{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V$",
        ),
        scenario=s,
        steps=(
            scores_step(
                t,
                prompt=Text("**Step 1.** Multiply the query by the transposed keys: $QK^\\top$."),
                hints=(
                    Text("Each entry is a dot product: the query [1, 2] with one key."),
                    Text("K is the identity, so each key picks out one coordinate of the query."),
                ),
                explanation=Text(
                    "Each key is a unit vector, so the dot products just read off "
                    "the query's two coordinates."
                ),
            ),
            scaled_step(
                t,
                decimals=4,
                prompt=Text("**Step 2.** Scale the scores: divide by $\\sqrt{d_k}$ (4 decimals)."),
                hints=(
                    Text("d_k is the length of each key vector: here 2."),
                    Text("√2 ≈ 1.41421. Divide both scores by it."),
                ),
                explanation=Text("Both scores are divided by $\\sqrt{2} \\approx 1.41421$."),
            ),
            weights_step(
                t,
                decimals=4,
                prompt=Text("**Step 3.** Apply softmax to the scaled scores (4 decimals)."),
                hints=(
                    Text("softmax(z)_i = e^(z_i) / Σ_j e^(z_j), along the row."),
                    Text("e^0.7071 ≈ 2.028 and e^1.4142 ≈ 4.113; divide each by their sum."),
                ),
                explanation=Text(
                    "Exponentiate both scaled scores and divide by their sum. The "
                    "guide prints 0.3303 / 0.6697; full precision rounds to 0.3302 / 0.6698, "
                    "and either is accepted."
                ),
            ),
            output_step(
                t,
                decimals=3,
                weight_decimals=4,
                rounded_weights=guide_weights,
                rounded_label=Text("the guide's rounded weights 0.3303 / 0.6697"),
                prompt=Text("**Step 4.** Multiply the weights by $V$ (3 decimals)."),
                hints=(
                    Text("The output is a weighted average of the values 10 and 20."),
                    Text("weight₁ · 10 + weight₂ · 20."),
                ),
                explanation=Text(
                    "A weighted average of 10 and 20, leaning towards 20 because the "
                    "second key matched better. Full-precision weights give 16.698; the guide's "
                    "rounded weights give 16.697."
                ),
            ),
        ),
    )


def _hungry() -> Exercise:
    s = presets.hungry()
    t = s.trace()
    lesson_weights = np.round(t.weights, 3)  # the post's 0.844 / 0.114 / 0.042
    return Exercise(
        id="hungry",
        title=Text("“…because it was hungry”: what does “it” look at?"),
        short_title=Text("2 · “it was hungry”"),
        source=Text("Post: attention, the mathematics behind context"),
        statement=Text(
            "In *{sentence}*, the query for **it** meets the keys of **animal**, **jungle** "
            "and **hunt**. Its raw dot products are {scores} with $d_k = {d_k}$, and the "
            "value vectors are\n\n{values}",
            sentence="The animal in the jungle went out on a hunt because it was hungry",
            scores=f"${tex(t.scores)}$",
            d_k=str(t.d_k),
            values=f"$$V = {tex(t.V)} \\quad \\text{{(animal, jungle, hunt)}}$$",
        ),
        scenario=s,
        steps=(
            scaled_step(
                t,
                decimals=None,
                prompt=Text("**Step 1.** Scale the raw scores: divide by $\\sqrt{d_k}$."),
                hints=(Text("d_k = 4, so √d_k = 2."),),
                explanation=Text("Dividing by $\\sqrt{4} = 2$ gives the post's scaled scores."),
            ),
            weights_step(
                t,
                decimals=3,
                prompt=Text(
                    "**Step 2.** Turn the scaled scores into attention weights with "
                    "softmax (3 decimals), in the order animal, jungle, hunt."
                ),
                hints=(
                    Text("e³ ≈ 20.09, e¹ ≈ 2.72, e⁰ = 1."),
                    Text("Divide each exponential by their sum (≈ 23.81)."),
                ),
                explanation=Text("“animal” gets about 84 % of the attention."),
            ),
            output_step(
                t,
                decimals=3,
                weight_decimals=3,
                rounded_weights=lesson_weights,
                rounded_label=Text("the rounded weights 0.844 / 0.114 / 0.042"),
                prompt=Text(
                    "**Step 3.** Mix the value vectors with the weights: the output "
                    "for **it** (a row of 2 numbers, 3 decimals)."
                ),
                hints=(
                    Text("output = w_animal · [2, 4] + w_jungle · [6, 2] + w_hunt · [1, 8]."),
                    Text("Do the first coordinate and the second coordinate separately."),
                ),
                explanation=Text(
                    "With the rounded weights the post gets [2.414, 3.94]; at full "
                    "precision it is [2.41477, 3.93965]. Both are accepted. The value of "
                    "“animal” dominates."
                ),
            ),
        ),
    )


def _quiz88() -> Exercise:
    s = presets.quiz88()
    t = s.trace()
    return Exercise(
        id="quiz88",
        title=Text("Two keys: how scores become 80 % and 20 % of the attention"),
        short_title=Text("3 · Two keys"),
        source=Text("Lesson 88: calculating attention scores"),
        statement=Text(
            "A query and two keys, with $d_k = 2$:\n\n{matrices}",
            matrices=f"$$q = {tex(t.Q)},\\quad k_1 = {tex(t.K[:1])},\\quad k_2 = {tex(t.K[1:])}$$",
        ),
        scenario=s,
        steps=(
            scores_step(
                t,
                prompt=Text(
                    "**Step 1.** The unscaled scores $q \\cdot k_1$ and $q \\cdot k_2$ "
                    "(one row: 2 numbers)."
                ),
                hints=(Text("q · k₁ = 1·1 + 2·1."),),
                explanation=Text("Multiply matching coordinates and add them up."),
            ),
            scaled_step(
                t,
                decimals=4,
                prompt=Text("**Step 2.** The scaled scores: divide by $\\sqrt{d_k}$ (4 decimals)."),
                hints=(Text("√2 ≈ 1.41421."),),
                explanation=Text("Both scores are divided by $\\sqrt{2}$."),
            ),
            weights_step(
                t,
                decimals=3,
                percent=True,
                prompt=Text(
                    "**Step 3.** The attention weights after softmax, as fractions "
                    "(3 decimals) or as percentages (1 decimal, e.g. `12.3 %`)."
                ),
                hints=(
                    Text("e^2.1213 ≈ 8.34 and e^0.7071 ≈ 2.03."),
                    Text("Divide each exponential by their sum."),
                ),
                explanation=Text(
                    "The first key gets about 80.4 % of the attention, the second 19.6 %."
                ),
            ),
        ),
    )


def _why_scale() -> Exercise:
    s = saturation_scenario()
    return Exercise(
        id="why_scale",
        title=Text("Why not remove the scaling?"),
        short_title=Text("4 · Why scale?"),
        source=Text("Lesson 89: understanding scaled dot-product attention"),
        statement=Text(
            "An engineer proposes to drop the {factor} factor to make the model simpler and a "
            "little faster. The scenario for this card uses $d_k = 32$ with the scaling "
            "switched **off**: open it in the walkthrough and look at the weights.",
            factor="$\\frac{1}{\\sqrt{d_k}}$",
        ),
        scenario=s,
        steps=(
            ChoiceStep(
                id="choice",
                title=Text("What goes wrong?"),
                prompt=Text("What is the main problem you expect during training?"),
                choices=(
                    Choice(
                        Text(
                            "Nothing: softmax gives the same weights whatever the scale of "
                            "the scores."
                        ),
                        False,
                        Text(
                            "Softmax ignores adding the same number to every score, not "
                            "multiplying them. Bigger scores give sharper weights."
                        ),
                        N_("thinks softmax ignores scale"),
                    ),
                    Choice(
                        Text(
                            "The dot products grow with $d_k$, softmax saturates (weights near "
                            "0 or 1) and its gradients almost vanish, so learning stalls."
                        ),
                        True,
                        Text(
                            "A dot product of d_k unit-variance terms has variance d_k, so "
                            "without the scale the scores spread out as d_k grows. Softmax then "
                            "puts almost all the weight on one key, and its gradients are nearly "
                            "zero, so the weights that made Q and K barely learn."
                        ),
                    ),
                    Choice(
                        Text("The weights in a row would no longer add up to 1."),
                        False,
                        Text(
                            "Softmax always divides by the row's total, so each row still adds "
                            "up to 1 with or without the scale."
                        ),
                        N_("thinks scaling normalises the rows"),
                    ),
                    Choice(
                        Text("The output would have the wrong shape."),
                        False,
                        Text(
                            "Dividing by a number changes no shapes: the output is still one "
                            "row per query and one column per value dimension."
                        ),
                        N_("thinks scaling changes shapes"),
                    ),
                ),
                hints=(
                    Text("What happens to the spread of q · k when you add more and more terms?"),
                    Text("Look at softmax([1, 2]) and softmax([10, 20])."),
                ),
                explanation=Text(
                    "Without $1/\\sqrt{d_k}$ the scores' spread grows like "
                    "$\\sqrt{d_k}$, the softmax saturates and its gradients vanish. The scaling "
                    "lab lets you sweep $d_k$ and watch it happen."
                ),
                see_also="scaling-lab",
            ),
        ),
    )


def _causal() -> Exercise:
    s = causal_scenario()
    t = s.trace()
    return Exercise(
        id="causal",
        title=Text("A causal mask: no peeking ahead"),
        short_title=Text("5 · Causal mask"),
        source=Text("Lesson 89's optional Mask step"),
        statement=Text(
            "Self-attention over the three tokens *{tokens}*, with a **causal mask**: a "
            "token may attend to itself and to earlier tokens, never to later ones. "
            "Here $d_k = {d_k}$ and\n\n{matrices}",
            tokens="I like tea",
            d_k=str(t.d_k),
            matrices=f"$$Q = {tex(t.Q)},\\quad K = {tex(t.K)},\\quad V = {tex(t.V)}$$",
        ),
        scenario=s,
        steps=(
            scaled_step(
                t,
                decimals=None,
                prompt=Text(
                    "**Step 1.** The scaled scores $QK^\\top/\\sqrt{d_k}$ for every "
                    "pair, before masking (a 3 × 3 matrix; one row per line)."
                ),
                hints=(
                    Text("Row i, column j is (query i · key j) / 2."),
                    Text("Query 1 · key 1 = 2·1 + 0 + 0 + 0·1 = 2, so the top-left entry is 1."),
                ),
                explanation=Text("All nine dot products divided by $\\sqrt{4} = 2$."),
            ),
            numeric(
                id="mask",
                title=Text("mask"),
                symbol=r"\text{mask}",
                prompt=Text(
                    "**Step 2.** Write the causal mask: 1 where the query (row) may "
                    "attend to the key (column), 0 where it is blocked."
                ),
                accepted=[Variant(None, causal_mask(3).astype(float))],
                mistakes=mask_mistakes(causal_mask(3)),
                decimals=None,
                layout=Text("one row per query, one column per key"),
                kind="mask",
                hints=(
                    Text("Token 1 (“I”) can only see itself."),
                    Text("Allowed entries are on and below the diagonal."),
                ),
                explanation=Text(
                    "Lower triangle and diagonal are 1; everything above the "
                    "diagonal (the future) is 0."
                ),
            ),
            weights_step(
                t,
                decimals=3,
                prompt=Text(
                    "**Step 3.** The attention weights: blocked scores become $-\\infty$ "
                    "before the softmax, so they get weight 0 (3 decimals)."
                ),
                hints=(
                    Text("Row 1 has only one allowed key, so its weight is 1."),
                    Text("Row 2 is softmax([0, 2]) on the two allowed keys, then 0 for the third."),
                ),
                explanation=Text(
                    "Each row's softmax only shares the weight among the allowed "
                    "keys; blocked keys get exactly 0."
                ),
            ),
            output_step(
                t,
                decimals=3,
                weight_decimals=3,
                prompt=Text(
                    "**Step 4.** The outputs: weights times $V$ (a 3 × 2 matrix, 3 decimals)."
                ),
                hints=(
                    Text("The first token can only see itself, so its output is its own value."),
                    Text("Row i of the output is Σ_j weight[i, j] · V[j]."),
                ),
                explanation=Text("“I” keeps its own value; later tokens mix in earlier values."),
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
            title=Text("{name}", name=name),
            symbol=f"{name} = XW_{name.lower()}",
            prompt=Text(
                "**Step {i}.** Project the embeddings: {formula} (3 rows, one per token).",
                i=str(i),
                formula=f"${name} = XW_{name.lower()}$",
            ),
            accepted=[Variant(None, M)],
            mistakes=[
                Mistake(
                    "transposed",
                    M.T,
                    Text(
                        "Right numbers, wrong layout: {name} has one row per token. Compute "
                        "X · {w}, not its transpose.",
                        name=name,
                        w=w,
                    ),
                ),
                *(
                    Mistake(
                        "wrong_projection",
                        other,
                        Text(
                            "This is X · {other_w}, which gives {other_name}. "
                            "{name} comes from X · {w}.",
                            other_w=other_w,
                            other_name=other_name,
                            name=name,
                            w=w,
                        ),
                    )
                    for other_name, (other, other_w) in projections.items()
                    if other_name != name
                ),
            ],
            decimals=None,
            layout=Text("one row per token, one column per dimension"),
            hints=(
                Text("Row i of {name} is the embedding of token i times {w}.", name=name, w=w),
                Text(
                    "Row 3 of X is [1, 1], so row 3 of {name} is the sum of {w}'s two rows.",
                    name=name,
                    w=w,
                ),
            ),
            explanation=Text(
                "Every token's embedding (a row of $X$) times {w}.", w=f"$W_{name.lower()}$"
            ),
        )
        for i, (name, (M, w)) in enumerate(projections.items(), start=1)
    ]
    steps += [
        scaled_step(
            t,
            decimals=3,
            prompt=Text(
                "**Step 4.** The scaled scores $QK^\\top/\\sqrt{d_k}$ (3 × 3, 3 decimals)."
            ),
            hints=(
                Text("First Q Kᵀ: row i, column j is query i · key j."),
                Text("Then divide everything by √2 ≈ 1.41421."),
            ),
            explanation=Text("All nine dot products, divided by $\\sqrt{2}$."),
        ),
        weights_step(
            t,
            decimals=3,
            prompt=Text(
                "**Step 5.** The attention weights, softmax along each row (3 × 3, 3 decimals)."
            ),
            hints=(
                Text("Each row must add up to 1."),
                Text("Row 1 is softmax([0.707, 0, 0.707])."),
            ),
            explanation=Text("Each row is one token's attention over all three tokens."),
        ),
        output_step(
            t,
            decimals=3,
            weight_decimals=3,
            prompt=Text("**Step 6.** The outputs: weights times $V$ (3 × 2, 3 decimals)."),
            hints=(Text("Row i of the output is Σ_j weight[i, j] · V[j]."),),
            explanation=Text("Each token's output is a blend of all three value vectors."),
        ),
    ]
    return Exercise(
        id="embeddings",
        title=Text("Self-attention from embeddings and projections"),
        short_title=Text("6 · From embeddings"),
        source=Text("Lesson 88: from embeddings to Q, K and V"),
        statement=Text(
            "Three tokens *{tokens}* with 2-dimensional embeddings (one row each) "
            "and three learned projections, so $d_k = 2$:\n\n{matrices}",
            tokens="cats chase mice",
            matrices=f"$$X = {tex(m['X'])},\\quad W_q = {tex(m['W_q'])},\\quad "
            f"W_k = {tex(m['W_k'])},\\quad W_v = {tex(m['W_v'])}$$",
        ),
        scenario=s,
        steps=tuple(steps),
    )


def _two_heads() -> Exercise:
    m = two_heads()
    mh = multi_head_attention(m.X, m.W_q, m.W_k, m.W_v, m.W_o, n_heads=m.n_heads)
    return Exercise(
        id="two_heads",
        title=Text("Two heads: split, attend, concatenate, mix"),
        short_title=Text("7 · Two heads"),
        source=Text("the lessons' next step: multi-head attention"),
        statement=Text(
            "The two tokens *{tokens}* have 4-dimensional embeddings ({d_model}), and the "
            "projections are split into **two heads** of width {d_head}: head 1 uses columns "
            "1–2 of $W_q$, $W_k$ and $W_v$, head 2 uses columns 3–4. Each head runs scaled "
            "dot-product attention on its own slice, dividing by {sqrt}; the heads' outputs "
            "are put side by side and $W_O$ mixes them back to the model width.\n\n{matrices}",
            tokens="ice cream",
            d_model="$d_\\text{model} = 4$",
            d_head="$d_\\text{head} = 2$",
            sqrt="$\\sqrt{d_\\text{head}}$",
            matrices=f"$$X = {tex(m.X)},\\quad W_q = {tex(m.W_q)},\\quad W_k = {tex(m.W_k)}$$"
            f"\n\n$$W_v = {tex(m.W_v)},\\quad W_O = {tex(m.W_o)}$$",
        ),
        scenario=m.head_scenario(0, N_("Exercise: two heads (head 1 alone)")),
        steps=(
            head_weights_step(
                mh,
                0,
                decimals=3,
                prompt=Text(
                    "**Step 1.** Head 1's attention weights (2 × 2, 3 decimals): "
                    "$Q_1 = X W_q$ and $K_1 = X W_k$ restricted to columns 1–2, then "
                    "$\\operatorname{softmax}(Q_1 K_1^\\top / \\sqrt{2})$ row by row."
                ),
                hints=(
                    Text("W_q is the identity, so Q₁ is just the first two columns of X."),
                    Text("K₁ = [2 0; 0 2], so the scores are [2 0; 0 2]. Divide by √2, not by √4."),
                ),
                explanation=Text(
                    "Head 1's scores are $\\begin{bmatrix} 2 & 0 \\\\ 0 & 2 "
                    "\\end{bmatrix}$; after dividing by $\\sqrt{2}$ each token puts about "
                    "80 % of this head's attention on itself."
                ),
            ),
            head_weights_step(
                mh,
                1,
                decimals=3,
                prompt=Text(
                    "**Step 2.** Head 2's attention weights (2 × 2, 3 decimals), from "
                    "columns 3–4 of $XW_q$ and $XW_k$."
                ),
                hints=(
                    Text("Q₂ is columns 3–4 of X: [0 1; 1 0]. K₂ is columns 3–4 of X W_k."),
                    Text("The scores are [0 4; 2 0]; divide by √2 and take each row's softmax."),
                ),
                explanation=Text(
                    "Head 2's scores are $\\begin{bmatrix} 0 & 4 \\\\ 2 & 0 "
                    "\\end{bmatrix}$: this head sends each token's attention to the *other* "
                    "token, so the two heads look at different things."
                ),
            ),
            concat_step(
                mh,
                decimals=3,
                prompt=Text(
                    "**Step 3.** Each head's output is its weights times its own slice "
                    "of $V = XW_v$. Write both side by side: head 1's two columns, then "
                    "head 2's (2 × 4, 3 decimals)."
                ),
                hints=(
                    Text(
                        "V₁ (columns 1–2 of X W_v) is [2 0; 0 2]; V₂ (columns 3–4) is [1 0; 1 2]."
                    ),
                    Text("Row i of the concatenation is [weights₁[i] · V₁ | weights₂[i] · V₂]."),
                ),
                explanation=Text(
                    "Concatenating does no arithmetic: it only places the heads' "
                    "outputs next to each other, so the result is as wide as $W_q$."
                ),
            ),
            multi_head_output_step(
                mh,
                decimals=3,
                prompt=Text(
                    "**Step 4.** The output: the concatenation times $W_O$ (2 × 4, 3 decimals)."
                ),
                hints=(
                    Text(
                        "W_O = [I I; I −I]: columns 1–2 add the heads, columns 3–4 subtract head 2."
                    ),
                    Text(
                        "Row i of the output is row i of the concatenation times each column "
                        "of W_O."
                    ),
                ),
                explanation=Text(
                    "$W_O$ is what lets the heads talk to each other: every output "
                    "column mixes numbers from both heads. Without it the result would just be "
                    "two separate halves."
                ),
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
        temperature(),
        online_softmax(),
    )


def exercise_by_id(exercise_id: str) -> Exercise:
    return next(e for e in all_exercises() if e.id == exercise_id)
