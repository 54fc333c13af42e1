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
    """The gradient reaching the rows still wrong: the unscaled run's at step 0, at a tenth
    of the steps and at the last (where it still has a wrong row), against the scaled run's
    largest while it had any; and how many of the runs reach the floor of the chart."""
    rows = [
        "| task | d_k | unscaled: wrong rows at the end | its wrong-row gradient: step 0 "
        "| step N/10 | last step | scaled: largest wrong-row gradient | scaled/unscaled at "
        "N/10 (min) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for task in TASKS:
        for d_k in DKS[2:]:
            runs = [train_both(TrainSettings(task=task, d_k=d_k, steps=steps, seed=seed))
                    for seed in range(seeds)]  # fmt: skip
            u = [r[0] for r in runs]
            tenth = steps // 10
            u0 = [h.wrong_grad[0] for h in u]
            u10 = [h.wrong_grad[tenth] for h in u if not np.isnan(h.wrong_grad[tenth])]
            ulast = [h.wrong_grad[-1] for h in u if not np.isnan(h.wrong_grad[-1])]
            smax = [float(np.nanmax(r[1].wrong_grad)) for r in runs]
            ratio = [np.nanmax(r[1].wrong_grad) / max(r[0].wrong_grad[tenth], 1e-300)
                     for r in runs if not np.isnan(r[0].wrong_grad[tenth])]  # fmt: skip
            rows.append(
                f"| {task} | {d_k} | {span([float(h.accuracy[-1] < 1) for h in u], '.0f')} "
                f"({sum(h.accuracy[-1] < 1 for h in u)} of {seeds} runs) "
                f"| {span(u0, '.0e')} | {span(u10, '.0e') if u10 else 'none wrong'} "
                f"| {span(ulast, '.0e') if ulast else 'none wrong'} | {span(smax, '.0e')} "
                f"| {min(ratio):.0e} |"
                if ratio
                else "| - |"
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
