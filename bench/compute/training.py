"""The Training lab's claim, measured: ``python -m bench.compute.training [--steps N] [--seeds S]``.

For each task, d_k = 4, 16, 64, 256, 512 and 5 seeds, the same data and starting weights
trained with and without 1/sqrt(d_k) at the lab's other defaults (``TrainSettings``):
loss, accuracy and stuck rows after N steps (min-max over the seeds), and the gradient
norm reaching W_Q and W_K at the end. Then what reaches the rows still on a wrong key
(``History.wrong_grad``: the median over those rows of |dL/dscores|, the lab's gradient
chart) at d_k = 64 to 512, and the CPU time of the default training (both runs), the
lab's budget being 1 s. Prints markdown for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from attention_core.training import TASKS, TrainSettings, train_both

DKS = (4, 16, 64, 256, 512)


def span(values: list[float], fmt: str) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:{fmt}}" if f"{lo:{fmt}}" == f"{hi:{fmt}}" else f"{lo:{fmt}}-{hi:{fmt}}"


def table(steps: int, seeds: int) -> list[str]:
    rows = [
        "| task | d_k | unscaled loss | unscaled acc | stuck rows | grad W_Q+W_K | "
        "scaled loss | scaled acc | scaled grad |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for task in TASKS:
        for d_k in DKS:
            runs = [train_both(TrainSettings(task=task, d_k=d_k, steps=steps, seed=seed))
                    for seed in range(seeds)]  # fmt: skip
            u = [r[0] for r in runs]
            s = [r[1] for r in runs]
            rows.append(
                f"| {task} | {d_k} | {span([h.loss[-1] for h in u], '.3f')} "
                f"| {span([h.accuracy[-1] for h in u], '.2f')} "
                f"| {span([float(h.stuck[-1]) for h in u], '.0f')} of {u[0].rows} "
                f"| {span([h.grad_q[-1] + h.grad_k[-1] for h in u], '.1e')} "
                f"| {span([h.loss[-1] for h in s], '.3f')} "
                f"| {span([h.accuracy[-1] for h in s], '.2f')} "
                f"| {span([h.grad_q[-1] + h.grad_k[-1] for h in s], '.1e')} |"
            )
            print(rows[-1], flush=True)
    return rows


def wrong_rows_table(steps: int, seeds: int) -> list[str]:
    """The gradient reaching the rows still wrong (``History.wrong_grad``): the unscaled
    run's at step 0, at a tenth of the steps and at the last (where it has a wrong row),
    against the scaled run's largest while it had any; that ratio's smallest over the seeds
    at a tenth of the steps and at the last."""
    rows = [
        "| task | d_k | unscaled runs with a wrong row left | their wrong rows' gradient: "
        "step 0 | step N/10 | last step | scaled: largest wrong-row gradient | scaled / "
        "unscaled, N/10 (smallest) | at the last step (smallest) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    print(rows[0], rows[1], sep="\n")
    for task in TASKS:
        for d_k in DKS[2:]:
            runs = [train_both(TrainSettings(task=task, d_k=d_k, steps=steps, seed=seed))
                    for seed in range(seeds)]  # fmt: skip
            u = [r[0] for r in runs]
            at = {"N/10": steps // 10, "last": steps}
            got = {name: [h.wrong_grad[i] for h in u if not np.isnan(h.wrong_grad[i])]
                   for name, i in at.items()}  # fmt: skip
            big = [float(np.nanmax(r[1].wrong_grad)) for r in runs]
            pairs = list(zip(big, u, strict=True))
            ratio = {n: [b / max(h.wrong_grad[i], 1e-300) for b, h in pairs
                         if not np.isnan(h.wrong_grad[i])] for n, i in at.items()}  # fmt: skip
            cells = [span(got[n], ".0e") if got[n] else "none wrong" for n in at]
            least = [f"{min(ratio[n]):.2g}" if ratio[n] else "-" for n in at]
            rows.append(
                f"| {task} | {d_k} | {sum(h.accuracy[-1] < 1 for h in u)} of {seeds} "
                f"| {span([h.wrong_grad[0] for h in u], '.0e')} | {' | '.join(cells)} "
                f"| {span(big, '.0e')} | {' | '.join(least)} |"
            )
            print(rows[-1], flush=True)
    return rows


def cpu_of_default(repeats: int) -> list[float]:
    train_both(TrainSettings())  # warm-up: imports, first allocations
    out = []
    for _ in range(repeats):
        t0 = time.process_time()
        train_both(TrainSettings())
        out.append(time.process_time() - t0)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.compute.training", description=__doc__)
    parser.add_argument("--steps", type=int, default=TrainSettings().steps)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    d = TrainSettings()
    print(f"load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"{os.cpu_count()} cores, NumPy {np.__version__}")  # fmt: skip
    print(f"settings: lr {d.lr}, spread {d.spread}, {args.steps} steps, batch {d.batch}, "
          f"n {d.n}, d_model {d.d_model}, d_v {d.d_v}, seeds 0-{args.seeds - 1}\n")  # fmt: skip
    table(args.steps, args.seeds)
    print()
    wrong_rows_table(args.steps, args.seeds)
    cpu = cpu_of_default(10)
    print(f"\nDefault training (task {d.task}, d_k {d.d_k}, {d.steps} steps, both runs): "
          f"CPU median {statistics.median(cpu) * 1000:.0f} ms, "
          f"min {min(cpu) * 1000:.0f}, max {max(cpu) * 1000:.0f} (10 runs)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
