"""Cases per second of a sweep, by executor and worker count, on the pure CP model and on greedy.

Runs the same fixed ranges through :func:`cpsolve.sweep.compare.run_comparison` in this process,
on a multiprocessing pool and on a local Dask cluster of 1 and 2 workers, and prints cases per
second (the cluster's start-up timed apart), each executor in turn for a few rounds, medians kept.

Usage: python benchmarks/sweep_scaling.py [--cp-rows 1-5] [--greedy-rows 1-6] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from cpsolve.layout import SolveOptions
from cpsolve.sweep.cases import count_cases, iter_cases, parse_range
from cpsolve.sweep.compare import run_comparison
from cpsolve.sweep.executors import DaskExecutor, InProcessExecutor, PoolExecutor


def measure(executor, rows, cols, backends, options) -> float:
    started = time.perf_counter()
    comparison = run_comparison(iter_cases(rows, cols, None), backends, options, executor)
    assert comparison.cases == count_cases(rows, cols, None) and not comparison.disagreements
    return comparison.cases / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cp-rows", default="1-5", help="rows and cols of the pure-model CP range")
    parser.add_argument("--greedy-rows", default="1-6", help="rows of the greedy range (cols 1-50)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; each runs every executor once, in turn")
    args = parser.parse_args()
    cp_range = parse_range(args.cp_rows, "rows")
    greedy_rows = parse_range(args.greedy_rows, "rows")
    # one CP-SAT thread per case: the workers are the parallelism
    pure = SolveOptions(time_limit=60, workers=1, dominance="none")
    setups = [
        ("pure CP model", cp_range, cp_range, ["cp"], pure),
        ("greedy", greedy_rows, (1, 50), ["greedy"], SolveOptions()),
    ]
    builders = [
        ("in-process", 1, InProcessExecutor),
        ("pool", 2, lambda: PoolExecutor(2)),
        ("dask", 1, lambda: DaskExecutor(workers=1)),
        ("dask", 2, lambda: DaskExecutor(workers=2)),
    ]
    executors, start_up = [], {}
    for name, workers, build in builders:
        started = time.perf_counter()
        executors.append((name, workers, build()))
        start_up[name, workers] = time.perf_counter() - started
    # the machine is shared: every executor runs once per round, in turn, and the median is kept
    rates: dict[tuple, list[float]] = {}
    try:
        for round_number in range(args.rounds):
            for label, r, c, backends, options in setups:
                for name, workers, executor in executors:
                    rate = measure(executor, r, c, backends, options)
                    rates.setdefault((label, name, workers, count_cases(r, c, None)), []).append(rate)
                    print(f"round {round_number + 1} {label:14} {name:10} {workers}: {rate:9.1f} cases/s", flush=True)
    finally:
        for _, _, executor in executors:
            executor.close()
    print("\n| sweep | executor | workers | cases | cases/s (median) | range | start-up |")
    print("|-------|----------|--------:|------:|-----------------:|------:|---------:|")
    for (label, name, workers, cases), values in rates.items():
        print(
            f"| {label} | {name} | {workers} | {cases:,} | {statistics.median(values):,.1f} | "
            f"{min(values):,.1f}-{max(values):,.1f} | {start_up[name, workers]:.1f} s |"
        )
    one = statistics.median(rates[("pure CP model", "in-process", 1, count_cases(cp_range, cp_range, None))])
    two = statistics.median(rates[("pure CP model", "dask", 2, count_cases(cp_range, cp_range, None))])
    print(f"\npure model: Dask on 2 workers runs {two / one:.2f} times the in-process rate (ideal 2).")


if __name__ == "__main__":
    main()
