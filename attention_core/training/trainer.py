"""Train one attention head by plain gradient descent, with or without 1/sqrt(d_k).

Only W_Q and W_K learn. The values are fixed, and the loss is the squared distance between
the head's output and the right key's value (``TaskData.goal``): the weights reach the loss
only through V, as in a transformer, where the output goes on to the next layer and the
loss is far away. So the gradient that reaches a row's scores is softmax's Jacobian
diag(w) - w w^T times the output's error, and a row saturated on one key, right or wrong,
gets none: an unscaled head whose rows saturate at the start cannot learn its way out.

(A cross-entropy on the weights themselves would hide that: its log cancels the Jacobian,
dL/dscores = w - target, and a saturated wrong row gets the largest gradient there is.)

Deterministic: the same settings give the same data, the same starting weights and the
same history, to the last bit, for both runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from attention_core.attention import batched_attention
from attention_core.backward import attention_backward
from attention_core.errors import InputError
from attention_core.i18n import N_
from attention_core.trained.run import one_blas_thread
from attention_core.training.tasks import TaskData, make_task
from attention_core.types import FloatArray

SATURATED = 0.99  # a row whose largest weight is at least this is saturated
N_CHECKPOINTS = 50  # the steps whose example weights and Q, K are kept (plus step 0)
SEEDS = (0, 1000)  # the seeds a learner may pick, both ends included


@dataclass(frozen=True)
class TrainSettings:
    """What the learner sets (task, d_k, lr, spread, steps, seed) and the fixed sizes."""

    task: str = "match"
    d_k: int = 256
    lr: float = 1.0
    spread: float = 1.0  # W_Q, W_K entries start as N(0, spread^2 / d_model)
    steps: int = 200
    seed: int = 0
    n: int = 8  # queries and keys per example
    d_model: int = 32
    d_v: int = 16
    batch: int = 32

    def check(self) -> TrainSettings:
        """These settings, or an InputError saying which one is out of range."""
        if not SEEDS[0] <= self.seed <= SEEDS[1]:
            raise InputError(
                N_("the seed must be a whole number from {low} to {high}; {seed} is outside "
                   "that range"),
                where="seed", low=SEEDS[0], high=SEEDS[1], seed=self.seed,
            )  # fmt: skip
        if not 1 <= self.d_k <= 1024:
            raise ValueError(f"d_k must be between 1 and 1024, got {self.d_k}")
        if not 0 <= self.steps <= 5000:
            raise ValueError(f"steps must be between 0 and 5000, got {self.steps}")
        if not (self.lr > 0 and self.spread > 0):
            raise ValueError("the learning rate and the spread must be positive")
        return self


@dataclass(frozen=True, eq=False)
class History:
    """One run, step by step. Per step s = 0..done (s = 0: the start; the update at s uses
    the gradient recorded at s): loss, accuracy (the share of rows whose largest weight is
    on the right key), grad_q and grad_k (Frobenius norms of dL/dW_Q, dL/dW_K), saturation
    (the mean largest weight per row), stuck (rows saturated on a wrong key) and
    wrong_grad (the median, over the rows whose largest weight is on a wrong key, of each
    row's |dL/dscores|, the gradient that reaches that row's scores q.k; NaN when every row
    is right), all (done + 1,). ``done`` is ``settings.steps`` for a finished run, fewer
    for one that was stopped. At ``checkpoints`` (C,): example 0's Q, K (C, n, d_k) and
    weights (C, n, n); its V (n, d_v), right keys (n,) and mask are fixed."""

    settings: TrainSettings
    scaled: bool
    loss: FloatArray
    accuracy: FloatArray
    grad_q: FloatArray
    grad_k: FloatArray
    saturation: FloatArray
    stuck: np.ndarray
    checkpoints: np.ndarray
    Q: FloatArray
    K: FloatArray
    weights: FloatArray
    V: FloatArray
    target: np.ndarray
    mask: np.ndarray | None = None
    query_tokens: list[str] = field(default_factory=list)
    key_tokens: list[str] = field(default_factory=list)
    rows: int = 0  # rows in the batch (queries of every example): stuck's denominator
    wrong_grad: FloatArray = field(default_factory=lambda: np.empty(0))

    @property
    def done(self) -> int:
        """The steps trained: ``settings.steps`` unless the run was stopped early."""
        return len(self.loss) - 1

    @property
    def finished(self) -> bool:
        return self.done == self.settings.steps

    def at(self, step: int) -> int:
        """The index of the last checkpoint at or before ``step``."""
        return max(0, int(np.searchsorted(self.checkpoints, step, side="right")) - 1)

    def until(self, step: int) -> History:
        """This run as it was at its last kept step at or before ``step`` (a Stop lands
        there: the text's step count, the slider's end and the charts then agree)."""
        last = int(self.checkpoints[self.at(step)])
        if last == self.done:
            return self
        cut = {
            name: getattr(self, name)[: last + 1]
            for name in (
                "loss",
                "accuracy",
                "grad_q",
                "grad_k",
                "saturation",
                "stuck",
                "wrong_grad",
            )
        }
        kept = self.at(step) + 1
        return replace(self, **cut, checkpoints=self.checkpoints[:kept], Q=self.Q[:kept],
                       K=self.K[:kept], weights=self.weights[:kept])  # fmt: skip


def checkpoints(steps: int) -> np.ndarray:
    return np.unique(np.linspace(0, steps, N_CHECKPOINTS + 1).round().astype(int))


def initial_weights(s: TrainSettings) -> tuple[FloatArray, FloatArray]:
    """W_Q, W_K (d_model, d_k): the same for both runs of one setting (from its seed)."""
    rng = np.random.default_rng([s.seed, 1])
    W = rng.standard_normal((2, s.d_model, s.d_k)) * s.spread / np.sqrt(s.d_model)
    return W[0], W[1]


def wrong_rows_gradient(d_scores: FloatArray, wrong: np.ndarray) -> float:
    """The median of |dL/dscores| over the rows (queries) whose largest weight is on a wrong
    key: what reaches the rows that still have to move. NaN when no row is wrong.

    d_scores: (B, n_q, n_k); wrong: (B, n_q) boolean."""
    per_row = np.linalg.norm(d_scores, axis=-1)  # (B, n_q)
    return float(np.median(per_row[wrong])) if wrong.any() else float("nan")


class Run:
    """One run that trains in pieces: ``advance(k)`` trains k more steps, ``history()`` is
    what it has done so far. Advancing in any pieces gives, step for step and to the last
    bit, what one ``advance(settings.steps)`` gives: a stopped run can go on later."""

    def __init__(self, settings: TrainSettings, scaled: bool, data: TaskData | None = None):
        s = self.s = settings.check()
        self.scaled = scaled
        self.data = data or make_task(s.task, s.batch, s.n, s.d_model, s.d_v, s.seed)
        self.W_q, self.W_k = initial_weights(s)
        self.goal = self.data.goal()  # (B, n, d_v)
        B, n, _ = self.data.X_q.shape
        self.Xq = self.data.X_q.reshape(B * n, s.d_model)  # every query: (B n, d_model)
        self.Xk = self.data.X_k.reshape(B * n, s.d_model)
        self.log = {name: np.empty(s.steps + 1)
                    for name in ("loss", "acc", "gq", "gk", "sat", "stuck", "wg")}  # fmt: skip
        self.kept = checkpoints(s.steps)
        self.Qs: list[FloatArray] = []
        self.Ks: list[FloatArray] = []
        self.Ws: list[FloatArray] = []
        self.recorded = 0  # steps whose numbers are in the log (step 0 .. recorded - 1)

    @property
    def done(self) -> int:
        return self.recorded - 1

    def advance(self, k: int) -> int:
        """Train up to ``k`` more steps (fewer at the end); the steps done after."""
        s, data = self.s, self.data
        B, n, _ = data.X_q.shape
        log = self.log
        for step in range(self.recorded, min(self.recorded + k, s.steps + 1)):
            W_q, W_k = self.W_q, self.W_k
            Q = (self.Xq @ W_q).reshape(B, n, s.d_k)  # (B n, d_model) @ (d_model, d_k)
            K = (self.Xk @ W_k).reshape(B, n, s.d_k)
            trace = batched_attention(Q, K, data.V, mask=data.mask, scaled=self.scaled)
            error = trace.output - self.goal  # (B, n, d_v)
            grads = attention_backward(trace, 2 * error / error.size)  # d(mean squared error)
            dW_q = self.Xq.T @ grads.dQ.reshape(B * n, s.d_k)  # (d_model, B n) @ (B n, d_k)
            dW_k = self.Xk.T @ grads.dK.reshape(B * n, s.d_k)
            top = trace.weights.max(axis=-1)  # (B, n)
            right = trace.weights.argmax(axis=-1) == data.target  # (B, n)
            log["loss"][step] = np.mean(error**2)
            log["acc"][step] = np.mean(right)
            log["gq"][step] = np.linalg.norm(dW_q)
            log["gk"][step] = np.linalg.norm(dW_k)
            log["sat"][step] = np.mean(top)
            log["stuck"][step] = np.sum((top >= SATURATED) & ~right)
            log["wg"][step] = wrong_rows_gradient(grads.d_scores, ~right)
            if step in self.kept:
                self.Qs.append(Q[0])
                self.Ks.append(K[0])
                self.Ws.append(trace.weights[0])
            if step < s.steps:
                W_q = W_q - s.lr * dW_q
                W_k = W_k - s.lr * dW_k
                self.W_q, self.W_k = W_q, W_k
            self.recorded = step + 1
        return self.done

    def history(self) -> History:
        """The run so far (copies: advancing further never changes a history handed out)."""
        r, data = self.recorded, self.data
        B, n, _ = data.X_q.shape
        return History(
            settings=self.s,
            scaled=self.scaled,
            loss=self.log["loss"][:r].copy(),
            accuracy=self.log["acc"][:r].copy(),
            grad_q=self.log["gq"][:r].copy(),
            grad_k=self.log["gk"][:r].copy(),
            saturation=self.log["sat"][:r].copy(),
            stuck=self.log["stuck"][:r].astype(int),
            wrong_grad=self.log["wg"][:r].copy(),
            checkpoints=self.kept[: len(self.Qs)].copy(),
            Q=np.array(self.Qs),
            K=np.array(self.Ks),
            weights=np.array(self.Ws),
            V=data.V[0],
            target=data.target[0],
            mask=data.mask,
            query_tokens=data.query_tokens[0],
            key_tokens=data.key_tokens[0],
            rows=B * n,
        )


def train(settings: TrainSettings, scaled: bool, data: TaskData | None = None) -> History:
    """Gradient descent on W_Q, W_K for ``settings.steps`` steps; the history of the run."""
    run = Run(settings, scaled, data)
    run.advance(settings.steps + 1)
    return run.history()


class Training:
    """Both runs of one setting (the same data and starting weights, without and with the
    scaling), trained side by side in pieces: ``advance(k)`` moves each k steps on."""

    def __init__(self, settings: TrainSettings):
        s = self.settings = settings.check()
        data = make_task(s.task, s.batch, s.n, s.d_model, s.d_v, s.seed)
        self.runs = (Run(s, scaled=False, data=data), Run(s, scaled=True, data=data))

    @property
    def done(self) -> int:
        """The steps both runs have done (-1 before the first)."""
        return min(r.done for r in self.runs)

    @property
    def finished(self) -> bool:
        return self.done == self.settings.steps

    def next_checkpoint(self) -> int:
        """The next step whose example is kept (0 before the first): where a piece of
        training ends, so a run stopped between pieces ends on a kept step."""
        kept = self.runs[0].kept
        after = int(np.searchsorted(kept, self.done, side="right"))
        return int(kept[min(after, len(kept) - 1)])

    def advance(self, k: int) -> int:
        with one_blas_thread():  # small products: a second BLAS thread only waits for a core
            for run in self.runs:
                run.advance(k)
        return self.done

    def histories(self) -> tuple[History, History]:
        unscaled, scaled = (r.history() for r in self.runs)
        return unscaled, scaled


def train_both(settings: TrainSettings) -> tuple[History, History]:
    """The same data and starting weights trained without and with the scaling."""
    both = Training(settings)
    both.advance(settings.steps + 1)
    return both.histories()


def with_changes(settings: TrainSettings, **changes: Any) -> TrainSettings:
    return replace(settings, **changes)
