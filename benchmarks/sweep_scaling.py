"""Cases per second of a sweep, by executor and worker count, on the pure CP model and on greedy.

Runs the same fixed ranges through :func:`cpsolve.sweep.compare.run_comparison` in this process,
on a multiprocessing pool and on a local Dask cluster of 1 and 2 workers, and prints cases per
second (the cluster's start-up timed apart), and what the full R, C <= 50 pure-model sweep
(1,625,625 cases) would take on 100 and 1000 cores at the measured per-worker rate.

Usage: python benchmarks/sweep_scaling.py [--cp-rows 1-6] [--greedy-rows 1-20]
"""

from __future__ import annotations

import argparse
import time

from cpsolve.layout import SolveOptions
from cpsolve.sweep.cases import count_cases, iter_cases, parse_range
from cpsolve.sweep.compare import run_comparison
from cpsolve.sweep.executors import DaskExecutor, InProcessExecutor, PoolExecutor

FULL_SWEEP = 1_625_625


def measure(executor, rows, cols, backends, options) -> float:
    started = time.perf_counter()
    comparison = run_comparison(iter_cases(rows, cols, None), backends, options, executor)
    assert comparison.cases == count_cases(rows, cols, None) and not comparison.disagreements
    return comparison.cases / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cp-rows", default="1-6", help="rows and cols of the pure-model CP range")
    parser.add_argument("--greedy-rows", default="1-20", help="rows of the greedy range (cols 1-50)")
    args = parser.parse_args()
    cp_range = parse_range(args.cp_rows, "--rows")
    greedy_rows = parse_range(args.greedy_rows, "--rows")
    # one CP-SAT thread per case: the workers are the parallelism
    pure = SolveOptions(time_limit=60, workers=1, dominance="none")
    setups = [
        ("pure CP model", cp_range, cp_range, ["cp"], pure),
        ("greedy", greedy_rows, (1, 50), ["greedy"], SolveOptions()),
    ]
    rows = []
    executors = [("in-process", 1, InProcessExecutor), ("pool", 2, lambda: PoolExecutor(2)),
                 ("dask", 1, lambda: DaskExecutor(workers=1)), ("dask", 2, lambda: DaskExecutor(workers=2))]
    for name, workers, build in executors:
        started = time.perf_counter()
        with build() as executor:
            start_up = time.perf_counter() - started
            for label, r, c, backends, options in setups:
                rate = measure(executor, r, c, backends, options)
                rows.append((label, name, workers, count_cases(r, c, None), rate, start_up))
                print(f"{label:14} {name:10} {workers} worker(s): {rate:9.1f} cases/s (start-up {start_up:.1f} s)", flush=True)
    print("\n| sweep | executor | workers | cases | cases/s | start-up |")
    print("|-------|----------|--------:|------:|--------:|---------:|")
    for label, name, workers, cases, rate, start_up in rows:
        print(f"| {label} | {name} | {workers} | {cases:,} | {rate:,.1f} | {start_up:.1f} s |")
    best = max(rate / workers for label, _, workers, _, rate, _ in rows if label == "pure CP model")
    print(f"\npure model: {best:.2f} cases/s per worker at best; the R, C <= 50 sweep ({FULL_SWEEP:,} cases) is "
          f"{FULL_SWEEP / best / 3600:,.0f} core-hours at this range's mean case (larger boards cost more).")
    for cores in (100, 1000):
        print(f"  on {cores} cores: {FULL_SWEEP / best / cores / 3600:,.1f} h")


if __name__ == "__main__":
    main()
