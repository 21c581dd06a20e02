"""Seeded random templates that only a CP backend can answer, timed with `--dominance none`.

Each case: a rectangle of 20x20 to 60x60 with holes (2-6% of cells), scattered fixed mines
(0.5-3%), a few fixed safe cells and a pinned click ``c``; M between 10% and 70% of the free
cells, plus the fixed mines. Every board goes through the judge (cpsolve.layout.solve does that).
Usage:

    python benchmarks/cp_hard.py                      # 20 cases, seed 10, 10 s limit
    python benchmarks/cp_hard.py --cases 40 --seed 3 --time-limit 4
    python benchmarks/cp_hard.py --phases none        # the strong model alone
    python benchmarks/cp_hard.py --phases none --model textbook --encoding flow   # the statement alone

Prints one line per case, then a summary: decided, median, worst, and which phase decided.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import statistics
import time

from cpsolve.layout import LayoutProblem, SolveOptions, parse_phases, solve


def hard_template(rng: random.Random) -> LayoutProblem:
    """One random template problem (see the module docstring)."""
    rows, cols = rng.randint(20, 60), rng.randint(20, 60)
    grid = [["?"] * cols for _ in range(rows)]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)
    holes = int(len(cells) * rng.uniform(0.02, 0.06))
    mines = int(len(cells) * rng.uniform(0.005, 0.03))
    safe = rng.randint(1, 4)
    index = 0
    for mark, count in (("#", holes), ("*", mines), (".", safe), ("c", 1)):
        for r, c in cells[index : index + count]:
            grid[r][c] = mark
        index += count
    free = len(cells) - index
    total = mines + int(free * rng.uniform(0.1, 0.7))
    return LayoutProblem(rows, cols, total, template=tuple("".join(row) for row in grid))


def main() -> None:
    """Generate the cases, solve them and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--phases", default="all", help="all, none, or a list such as bounds,relaxation,model")
    parser.add_argument("--model", default="strong", choices=("strong", "textbook"))
    parser.add_argument("--encoding", default=None, help="levels, flow or cuts (default: levels)")
    parser.add_argument("--json", default=None, help="write every case's result to this file")
    args = parser.parse_args()
    if args.cases < 1:
        parser.error("--cases must be 1 or more")
    from cpsolve.layout import cpsat  # noqa: F401  (imported before timing: OR-Tools takes a second)

    rng = random.Random(args.seed)
    problems = [hard_template(rng) for _ in range(args.cases)]
    options = SolveOptions(
        time_limit=args.time_limit,
        workers=args.workers,
        dominance="none",
        phases=parse_phases(args.phases),
        model=args.model,
        encoding=args.encoding,
    )
    times, phases, verdicts, rows = [], collections.Counter(), collections.Counter(), []
    for number, problem in enumerate(problems, start=1):
        started = time.perf_counter()
        result = solve(problem, "cp", options)
        seconds = time.perf_counter() - started
        times.append(seconds)
        verdicts[result.status.value] += 1
        phases[result.stats.get("phase") or "undecided"] += 1
        rows.append(
            {
                "case": f"hard{number}",
                "status": result.status.value,
                "seconds": round(seconds, 3),
                "phase": result.stats.get("phase"),
                "reason": result.stats.get("reason"),
            }
        )
        print(
            f"{number:3d} {problem.rows:3d}x{problem.cols:<3d} M={problem.mines:5d} "
            f"{result.status.value:10s} {seconds:7.3f}s  {result.stats.get('phase')}"
            + (f"  ({result.stats['reason']})" if result.stats.get("reason") else ""),
            flush=True,
        )
    summary = {
        "cases": len(problems),
        "time_limit": args.time_limit,
        "decided": len(problems) - verdicts["unknown"],
        "verdicts": dict(verdicts),
        "median": round(statistics.median(times), 3),
        "worst": round(max(times), 3),
        "phases": dict(phases),
    }
    print(json.dumps(summary))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
