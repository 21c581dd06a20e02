"""MiniZinc/Gecode against CP-SAT (--dominance none) on the same cases, as a ratio per case.

    python benchmarks/minizinc_vs_cp.py

Cases: every shape R <= C <= 8 with four mine counts each (0, a quarter, a half and R*C - 4 of
the cells, clipped), and six 20x20 boards. Both backends run in this process, one after the
other, each board through the judge; the ratio is MiniZinc's seconds over CP-SAT's.
"""

from __future__ import annotations

import os
import platform
import statistics
import time

from cpsolve.layout import LayoutProblem, SolveOptions, solve


def cases() -> list[tuple[int, int, int]]:
    """The fixed case list."""
    chosen = []
    for rows in range(1, 9):
        for cols in range(rows, 9):
            cells = rows * cols
            for mines in sorted({0, cells // 4, cells // 2, max(0, cells - 4)}):
                if mines < cells:
                    chosen.append((rows, cols, mines))
    return chosen + [(20, 20, m) for m in (0, 50, 150, 300, 380, 395)]


def main() -> None:
    """Run both backends on every case and print the ratios."""
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores")
    options = SolveOptions(dominance="none", time_limit=60)
    ratios_small, ratios_large = [], []
    for rows, cols, mines in cases():
        problem = LayoutProblem(rows, cols, mines)
        started = time.perf_counter()
        cp = solve(problem, "cp", options)
        cp_seconds = time.perf_counter() - started
        started = time.perf_counter()
        mzn = solve(problem, "minizinc", options)
        mzn_seconds = time.perf_counter() - started
        assert cp.status == mzn.status or "unknown" in (cp.status.value, mzn.status.value), (rows, cols, mines)
        ratio = mzn_seconds / cp_seconds
        (ratios_large if rows == 20 else ratios_small).append(ratio)
        if rows == 20:
            print(
                f"20x20 M={mines:3d}: cp {cp.status.value:10s} {cp_seconds:6.2f}s  "
                f"minizinc {mzn.status.value:10s} {mzn_seconds:6.2f}s  ratio {ratio:5.1f}"
            )
    for label, ratios in (("R, C <= 8", ratios_small), ("20x20", ratios_large)):
        print(
            f"{label}: {len(ratios)} cases, minizinc/cp time ratio median {statistics.median(ratios):.1f}, "
            f"min {min(ratios):.1f}, max {max(ratios):.1f}"
        )


if __name__ == "__main__":
    import argparse

    # no options: --help says what a run does instead of starting one
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
