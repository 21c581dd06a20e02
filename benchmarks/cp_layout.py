"""Time the CP-SAT layout backend on the fixed 134-case set (or a few named cases).

Every board goes through the judge (cpsolve.layout.solve does that), and every verdict is
compared with the feasibility rule. Usage:

    python benchmarks/cp_layout.py --dominance staircase
    python benchmarks/cp_layout.py --dominance none --encoding cuts --time-limit 10
    python benchmarks/cp_layout.py --dominance none --time-limit 4 --extra   # plus 50x50, M = 0..5, N = 1..12
    python benchmarks/cp_layout.py --click-centre   # pinned click at the centre of 50x50
    python benchmarks/cp_layout.py --dominance none --phases relaxation   # the relaxation, then the model
    python benchmarks/cp_layout.py --dominance none --phases none --encoding flow   # the model alone
    python benchmarks/cp_layout.py --compare-search   # the deterministic search against CP-SAT's own portfolio

Prints one line per case, then a summary (total, median, worst, undecided, disagreements). With
``--compare-search`` every case is solved three more times, the order turning from case to case:
with the model phase's deterministic search (``SolveOptions.deterministic``, the
default), with CP-SAT's own portfolio on the same workers (as before it), and with CP-SAT on one
thread (which repeats too, but would make ``--workers`` pointless); the summary gives each one's
total and undecided cases, the ratios to the portfolio, and how many boards differ from its.
"""

from __future__ import annotations

import argparse
import collections
import json
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from cases import large_set  # noqa: E402

from cpsolve.layout import LayoutProblem, SolveOptions, Status, parse_phases, solve  # noqa: E402
from cpsolve.layout.greedy import is_possible  # noqa: E402


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dominance", default=None)
    parser.add_argument("--encoding", default=None)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--limit", type=int, default=None, help="only the first N cases")
    parser.add_argument("--click-centre", action="store_true", help="50x50 with the click pinned at the centre")
    parser.add_argument("--extra", action="store_true", help="add 50x50 with M = 0..5 and with N = 1..12")
    parser.add_argument("--json", type=Path, default=None, help="write per-case results here")
    parser.add_argument("--phases", default="all", help="all, none, or a list such as bounds,relaxation,model")
    parser.add_argument("--model", default="strong", choices=("strong", "textbook"))
    parser.add_argument("--compare-search", action="store_true", help="each case with both searches, in turn")
    args = parser.parse_args()
    from cpsolve.layout import cpsat  # noqa: F401  (imported before timing: OR-Tools takes a second)

    if args.click_centre:
        problems = [LayoutProblem(50, 50, m, click=(24, 24)) for m in (1, 10, 100, 1000, 2000, 2480)]
    else:
        problems = [LayoutProblem(r, c, m) for r, c, m in large_set()[: args.limit]]
        if args.extra:
            problems += [LayoutProblem(50, 50, m) for m in range(6)]
            problems += [LayoutProblem(50, 50, 2500 - n) for n in range(1, 13)]
    options = SolveOptions(
        time_limit=args.time_limit,
        workers=args.workers,
        encoding=args.encoding,
        dominance=args.dominance,
        phases=parse_phases(args.phases),
        model=args.model,
    )
    rows = []
    used: dict[str, set] = {"encoding": set(), "dominance": set(), "workers": set()}  # where a case reached CP-SAT
    searches = {  # name: (the deterministic search, workers)
        "deterministic": (True, args.workers),
        "portfolio": (False, args.workers),
        "one thread": (False, 1),
    }
    compared = {name: {"seconds": 0.0, "undecided": 0, "boards differ": 0} for name in searches}
    started = time.perf_counter()
    for index, problem in enumerate(problems):
        if args.compare_search:
            boards = {}
            names = list(searches)
            for name in names[index % 3 :] + names[: index % 3]:
                deterministic, workers = searches[name]
                case_start = time.perf_counter()
                result = solve(problem, "cp", replace(options, workers=workers, deterministic=deterministic))
                compared[name]["seconds"] += time.perf_counter() - case_start
                compared[name]["undecided"] += result.status is Status.UNKNOWN
                boards[name] = None if result.board is None else result.board.to_rows()
            for name in searches:
                compared[name]["boards differ"] += boards[name] != boards["portfolio"]
        case_start = time.perf_counter()
        result = solve(problem, "cp", options)
        seconds = time.perf_counter() - case_start
        for key, seen in used.items():
            if result.stats.get(key) is not None:
                seen.add(result.stats[key])
        expected = None if problem.click else is_possible(problem.rows, problem.cols, problem.mines)
        agrees = result.status is Status.UNKNOWN or expected is None or (result.status is Status.POSSIBLE) == expected
        rows.append(
            {
                "rows": problem.rows,
                "cols": problem.cols,
                "mines": problem.mines,
                "status": result.status.value,
                "seconds": round(seconds, 4),
                "agrees": agrees,
                "phase": result.stats.get("phase"),
                "conflicts": result.stats.get("conflicts"),
            }
        )
        print(
            f"{problem.rows:3d} {problem.cols:3d} {problem.mines:5d}  {result.status.value:10s} {seconds:7.3f}s"
            f"  {result.stats.get('phase')}" + ("" if agrees else "  DISAGREES"),
            flush=True,
        )
    total = time.perf_counter() - started
    times = [row["seconds"] for row in rows]
    summary = {
        "machine": f"{platform.machine()} {platform.processor() or ''} {__import__('os').cpu_count()} cores".strip(),
        # what CP-SAT ran with over every case, not the last case's (one decided before the model has none)
        **{key: sorted(map(str, seen)) for key, seen in used.items()},
        "cases": len(rows),
        "total": round(total, 2),
        "median": round(statistics.median(times), 3),
        "worst": round(max(times), 3),
        "over_1s": sum(t > 1 for t in times),
        "undecided": sum(row["status"] == "unknown" for row in rows),
        "disagreements": sum(not row["agrees"] for row in rows),
        "phases": dict(collections.Counter(str(row["phase"]) for row in rows)),
    }
    if args.compare_search:
        base = max(compared["portfolio"]["seconds"], 1e-9)
        summary["compare_search"] = {
            name: {
                "seconds": round(figures["seconds"], 2),
                "ratio to portfolio": round(figures["seconds"] / base, 3),
                "undecided": figures["undecided"],
                "boards differ from portfolio's": figures["boards differ"],
            }
            for name, figures in compared.items()
        }
    print(json.dumps(summary))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "cases": rows}, indent=1))


if __name__ == "__main__":
    main()
