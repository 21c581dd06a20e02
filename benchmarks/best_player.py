"""The best player's win rates on the published table's rows, beside the strongest solvers' figures.

Rules: *classic* (the first click is safe, the other mines uniform; first click in the top-left
corner, 1,1) and *modern* (no mine in the first click's 3x3; first click at 4,4 on expert and
3,3 on 16x16 and 9x9). Game k of a row is drawn by ``numpy.random.default_rng([seed, k])``, the
player's ties by ``default_rng([seed, k, 1])``, exactly as ``cpsolve stats --random R C M
--player best`` plays it, on the same sweep machinery (a forked pool with --jobs).

The anchors are the published figures the issue lists (each with its game count): DavidNHill's
Java solver (JSMinesweeper issue 38 and README), totte174/minesolve, MineSweeperProb (Tu et al.
2017, PSEQ-D256).

Usage:
    python benchmarks/best_player.py [--games N] [--expert-games N] [--jobs J] [--seed S] [--only NAME ...]

ms/game is each game's own time (its worker's clock), so it is the machine's cost per game
whatever the number of jobs; wall s is the row's elapsed time. On a shared machine both are
noise: compare rows of the same run, and take absolute timings on an idle machine.
"""

from __future__ import annotations

import argparse
import time

from cpsolve.generate import GameSettings
from cpsolve.sweep.executors import InProcessExecutor, PoolExecutor
from cpsolve.sweep.games import run_games

#: (name, rows, cols, mines, rule, 1-based first click, the anchors' figures)
ROWS = (
    ("expert", 16, 30, 99, "classic", (1, 1), "41.1% Java (10x10^6); 40.80% minesolve d4 (10^6); 40.05% MSP (10^8)"),
    ("expert", 16, 30, 99, "modern", (4, 4), "54.3% Java; 53.45% MSP (10^8)"),
    ("16x16", 16, 16, 40, "classic", (1, 1), "78.23% MSP (10^8)"),
    ("16x16", 16, 16, 40, "modern", (3, 3), "89.08% MSP (10^8)"),
    ("9x9", 9, 9, 10, "classic", (1, 1), "91.69% MSP (10^8)"),
    ("9x9", 9, 9, 10, "modern", (3, 3), "97.17% MSP (10^8)"),
)
#: cpsolve's start conditions for the two rules.
START = {"classic": "safe", "modern": "opening"}


def run_row(rows: int, cols: int, mines: int, rule: str, first: tuple[int, int], games: int, jobs: int,
            seed: int) -> tuple[dict, float]:
    """One row's summary (cpsolve.generate.summarise_records) and its wall-clock seconds."""
    settings = GameSettings(rows, cols, mines, "best", True, (first[0] - 1, first[1] - 1), START[rule], seed).check()
    began = time.perf_counter()
    executor = PoolExecutor(jobs) if jobs > 1 else InProcessExecutor()
    try:
        summary, _ = run_games(settings, games, executor)
    finally:
        executor.close()
    return summary, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per row")
    parser.add_argument("--expert-games", type=int, default=None, help="games for the expert rows (default --games)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", help="rows to run, as NAME-RULE (expert-classic, 9x9-modern, ...)")
    args = parser.parse_args()
    print("| size | rule | first click | games | won | rate | 95% interval | guesses/game | ms/game | wall s | anchors |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, rows, cols, mines, rule, first, anchors in ROWS:
        if args.only and f"{name}-{rule}" not in args.only:
            continue
        games = args.expert_games if name == "expert" and args.expert_games else args.games
        s, wall = run_row(rows, cols, mines, rule, first, games, args.jobs, args.seed)
        low, high = s["interval"]
        label = f"expert {rows}x{cols}/{mines}" if name == "expert" else f"{rows}x{cols}/{mines}"
        print(f"| {label} | {rule} | {first[0]},{first[1]} | {s['games']} | {s['won']} "
              f"| {100 * s['rate']:.2f}% | {100 * low:.2f}-{100 * high:.2f}% | {s['guesses_mean']:.2f} "
              f"| {1000 * s['seconds_per_game']:.1f} | {wall:.0f} | {anchors} |", flush=True)


if __name__ == "__main__":
    main()
