"""Ready-made scenarios: the lessons' worked examples, a small sentence, and random ones."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from attention_core.i18n import N_
from attention_core.resize import random_matrix
from attention_core.scenario import Scenario

_WORDS = [
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "the",
    "lazy",
    "dog",
    "while",
    "a",
    "small",
    "bird",
    "sings",
]


@dataclass(frozen=True)
class Preset:
    key: str  # stable: links, saved files and buttons name a preset by it
    title: str  # says what the example shows; also the name of the scenario it builds
    description: str
    build: Callable[[], Scenario]


# Each example's title, spelled once: the preset shows it, and the scenario it builds is
# named by it (the sidebar's "Scenario: ...", a share link's name). Two spellings drifted
# apart once: the loaded two-heads scenario was named with a comma its title did not have.
TITLES = {
    "cat_mat": N_("The cat sat on the mat"),
    "paper_toy": N_("One query, two keys: a weighted mix of 10 and 20"),
    "hungry": N_("Which word does 'it' look at: animal, jungle or hunt?"),
    "quiz88": N_("Two keys: scores become 80 % and 20 % of the attention"),
    "two_heads": N_("Two heads: the previous word and 'it' -> 'cat'"),
    "random": N_("Random numbers from a seed"),
}


def paper_toy() -> Scenario:
    """The paper guide's toy: one query, two keys, d_k = 2.

    Exact weights 0.33023 / 0.66977 and output 16.698; the guide prints 0.3303 / 0.6697
    and 16.697 (its output is computed from its rounded weights).
    """
    return Scenario(
        name=TITLES["paper_toy"],
        mode="direct",
        query_tokens=("q",),
        tokens=("k1", "k2"),
        Q=np.array([[1.0, 2.0]]),  # (1, d_k=2)
        K=np.eye(2),  # (2, 2)
        V=np.array([[10.0], [20.0]]),  # (2, d_v=1)
    )


def hungry() -> Scenario:
    """'The animal ... because it was hungry'.

    "it" scores [6, 2, 0], scaled by 1/sqrt(4) to [3, 1, 0].
    """
    return Scenario(
        name=TITLES["hungry"],
        mode="direct",
        query_tokens=("it",),
        tokens=("animal", "jungle", "hunt"),
        Q=np.array([[2.0, 2.0, 2.0, 0.0]]),  # (1, d_k=4)
        K=np.array([[1.0, 1.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]),
        V=np.array([[2.0, 4.0], [6.0, 2.0], [1.0, 8.0]]),  # (3, d_v=2), the post's values
    )


def quiz88() -> Scenario:
    """Lesson 88's quiz: q = [1, 2], keys [1, 1] and [1, 0] -> 80.4 % / 19.6 %.

    V = I, so the output shows the weights.
    """
    return Scenario(
        name=TITLES["quiz88"],
        mode="direct",
        query_tokens=("q",),
        tokens=("k1", "k2"),
        Q=np.array([[1.0, 2.0]]),
        K=np.array([[1.0, 1.0], [1.0, 0.0]]),
        V=np.eye(2),
    )


def cat_mat() -> Scenario:
    """Six tokens with hand-made 4-d embeddings (features: article, animal, action, place)."""
    X = np.array(
        [
            [1.0, 0.0, 0.0, 0.0],  # the
            [0.0, 1.0, 0.2, 0.1],  # cat
            [0.0, 0.3, 1.0, 0.0],  # sat
            [0.3, 0.0, 0.4, 0.6],  # on
            [1.0, 0.0, 0.0, 0.0],  # the
            [0.0, 0.1, 0.0, 1.0],  # mat
        ]
    )  # (n=6, d_model=4)
    # W_q, W_k (4, d_k=3)
    W_q = np.array([[0.0, 1.5, 0.0], [2.0, 1.0, 0.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]])
    W_k = np.array([[0.0, 0.0, 0.0], [0.0, 2.0, 0.0], [2.0, 0.0, 1.0], [0.0, 1.0, 2.0]])
    W_v = np.diag([0.1, 1.0, 1.0, 1.0])  # (4, d_v=4): d_v = d_model, so x + output is defined
    return Scenario(
        name=TITLES["cat_mat"],
        tokens=("the", "cat", "sat", "on", "the", "mat"),
        X=X,
        W_q=W_q,
        W_k=W_k,
        W_v=W_v,
    )


def two_heads() -> Scenario:
    """Two heads that look for different things in "the cat sat and it purred".

    X (6, d_model=4) has two meaning features (animal, pronoun) and a position written as a
    clock hand (cos, sin of 45° per token). Head 1 (columns 1-2) turns each query's hand back
    by one step, so its best match is the previous token. Head 2 (columns 3-4) lets a pronoun
    query look for animal keys: "it" finds "cat"; the other queries look for nothing and
    spread evenly. W_o writes what head 2 found into the animal feature.
    """
    c = 0.75  # about cos 45° = sin 45°; 0.75 and 3 are exact in binary, so no float noise
    X = np.array(
        [
            [0.0, 0.0, 1.0, 0.0],  # the: position 0, hand at 0°
            [1.0, 0.0, c, c],  # cat (an animal): 45°
            [0.0, 0.0, 0.0, 1.0],  # sat: 90°
            [0.0, 0.0, -c, c],  # and: 135°
            [0.0, 1.0, -1.0, 0.0],  # it (a pronoun): 180°
            [0.0, 0.0, -c, -c],  # purred: 225°
        ]
    )  # (n=6, d_model=4): animal, pronoun, cos, sin
    W_q = np.zeros((4, 4))  # (d_model, n_heads·d_head = 2·2)
    W_q[2:, :2] = [[3.0, -3.0], [3.0, 3.0]]  # head 1: the hand turned back 45°, times ~4
    W_q[1, 2] = 4.0  # head 2: a pronoun asks "any animals?"
    W_k = np.zeros((4, 4))
    W_k[2:, :2] = [[4.0, 0.0], [0.0, 4.0]]  # head 1: each key's own hand, times 4
    W_k[0, 2] = 4.0  # head 2: an animal answers
    W_v = np.zeros((4, 4))
    W_v[2:, :2] = np.eye(2)  # head 1 passes on the position it found
    W_v[0, 2] = 1.0  # head 2 passes on "animal"
    W_o = np.zeros((4, 4))  # (n_heads·d_head, d_model)
    W_o[0, 2] = W_o[1, 3] = 0.5  # head 1's position, halved, into the position features
    W_o[2, 0] = 1.0  # head 2's "animal" into the animal feature: "it" now carries it
    return Scenario(
        name=TITLES["two_heads"],
        tokens=("the", "cat", "sat", "and", "it", "purred"),
        X=X,
        W_q=W_q,
        W_k=W_k,
        W_v=W_v,
        W_o=W_o,
        n_heads=2,
    )


def random_scenario(
    seed: int = 0, n_tokens: int = 4, d_model: int = 4, d_k: int = 3, d_v: int = 3
) -> Scenario:
    """Embeddings and projections drawn from N(0, 1), rounded to 2 decimals so they can be read.

    Projections are divided by sqrt(d_model) so Q and K keep entries of about unit size.
    """
    rng = np.random.default_rng(seed)
    tokens = tuple(_WORDS[i] if i < len(_WORDS) else f"t{i + 1}" for i in range(n_tokens))
    return Scenario(
        name=f"random (seed {seed})",
        tokens=tokens,
        X=random_matrix(rng, (n_tokens, d_model), projection=False),
        W_q=random_matrix(rng, (d_model, d_k), projection=True),
        W_k=random_matrix(rng, (d_model, d_k), projection=True),
        W_v=random_matrix(rng, (d_model, d_v), projection=True),
    )


PRESETS: dict[str, Preset] = {
    key: Preset(key, TITLES[key], description, build)
    for key, description, build in (
        ("cat_mat", N_("Six tokens from hand-made embeddings and projections, every step of the "
         "recipe; 'the' appears twice."), cat_mat),
        ("paper_toy", N_("The paper guide's toy: one query [1, 2], keys = identity, values 10 "
         "and 20; the output is about 16.7."), paper_toy),
        ("hungry", N_("'The animal ... because it was hungry': scaled scores 3, 1, 0 give "
         "'animal' 84 % of the attention."), hungry),
        ("quiz88", N_("One query [1, 2] against keys [1, 1] and [1, 0], d_k = 2: softmax gives "
         "them 80.4 % and 19.6 % of the attention."), quiz88),
        ("two_heads", N_("Multi-head: head 1 looks at the word before, head 2 sends 'it' to "
         "'cat'. Open the Multi-head page."), two_heads),
        ("random", N_("Embeddings and projections drawn at random from a seed."), random_scenario),
    )
}  # fmt: skip

DEFAULT_PRESET = "cat_mat"


def default_scenario() -> Scenario:
    return PRESETS[DEFAULT_PRESET].build()
