"""The best player's win rates on the published table's rows, beside the strongest solvers' figures.

Rules: *classic* (the first click is safe, the other mines uniform; first click in the top-left
corner, 1,1) and *modern* (no mine in the first click's 3x3; first click at 4,4 on expert and
3,3 on 16x16 and 9x9). Each row is one ``cpsolve stats --random R C M --player best`` run on the
sweep machinery: a local Dask cluster (``--jobs``), every finished game kept in a SQLite store
(``--store``) and taken from it again (``--resume``), so a stopped run goes on where it stopped
when started again with the same store. Game k of a row is drawn by ``numpy.random.default_rng([seed,
k])``, the player's ties by ``default_rng([seed, k, 1])``.

The store knows the settings, not the player's code: give each version of the player its own
store (the default path names the commit), never resume a store the player changed under.

The anchors are the published figures (each with its game count): DavidNHill's Java solver
(JSMinesweeper issue 38 and README), totte174/minesolve, MineSweeperProb (Tu et al. 2017,
PSEQ-D256). A row "clears" an anchor when its 95% interval's lower end is above it.

Usage:
    nice -n 19 python benchmarks/best_player.py [--expert-games N] [--games N] [--jobs J]
        [--store PATH] [--seed S] [--only NAME-RULE ...]

ms/game is each game's own time (its worker's clock): the machine's cost per game whatever the
number of jobs. On a shared machine it is noise: report the load with it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

#: (name, rows, cols, mines, rule, 1-based first click, the anchor to clear, the anchors in words)
ROWS = (
    (
        "expert",
        16,
        30,
        99,
        "classic",
        (1, 1),
        0.41132,
        "41.132% Java (10^7); 40.80% minesolve d4 (10^6); 40.05% MSP (10^8)",
    ),
    ("expert", 16, 30, 99, "modern", (4, 4), 0.543, "54.3% Java; 53.45% MSP (10^8)"),
    ("16x16", 16, 16, 40, "classic", (1, 1), 0.7823, "78.23% MSP (10^8)"),
    ("16x16", 16, 16, 40, "modern", (3, 3), 0.8908, "89.08% MSP (10^8)"),
    ("9x9", 9, 9, 10, "classic", (1, 1), 0.9169, "91.69% MSP (10^8)"),
    ("9x9", 9, 9, 10, "modern", (3, 3), 0.9717, "97.17% MSP (10^8)"),
)
#: cpsolve's start conditions for the two rules.
START = {"classic": "safe", "modern": "opening"}
ROOT = Path(__file__).resolve().parent.parent


def default_store() -> str:
    """benchmarks/out/best_player-<commit>.db: one store per version of the player."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return str(ROOT / "benchmarks" / "out" / f"best_player-{commit}.db")


def run_row(
    rows: int, cols: int, mines: int, rule: str, first: tuple[int, int], games: int, jobs: int, store: str, seed: int
) -> tuple[dict, float]:
    """One row by ``cpsolve stats`` (resuming from the store): its JSON answer and wall seconds."""
    command = [
        sys.executable,
        "-m",
        "cpsolve",
        "stats",
        "--random",
        str(rows),
        str(cols),
        str(mines),
        "--games",
        str(games),
        "--player",
        "best",
        "--first",
        f"{first[0]},{first[1]}",
        "--start",
        START[rule],
        "--seed",
        str(seed),
        "--jobs",
        str(jobs),
        "--store",
        store,
        "--resume",
        "--format",
        "json",
        "--quiet",
    ]
    began = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"cpsolve stats failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout), time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expert-games", type=int, default=1_000_000, help="games for the expert rows")
    parser.add_argument("--games", type=int, default=100_000, help="games for the 16x16 and 9x9 rows")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of the local Dask cluster")
    parser.add_argument(
        "--store", default=None, help="the SQLite store (default benchmarks/out/best_player-<commit>.db)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", help="rows to run, as NAME-RULE (expert-classic, 9x9-modern, ...)")
    args = parser.parse_args()
    from cpsolve.deduce import engine

    if not engine.compiled():  # the Python engine would take hours a row
        raise SystemExit("the compiled engine (cpsolve.deduce._engine) is not built: pip install -e .")
    known = {f"{name}-{rule}" for name, _, _, _, rule, _, _, _ in ROWS}
    unknown = sorted(set(args.only or ()) - known)
    if unknown:
        parser.error(f"no row named {', '.join(unknown)}; the rows: {', '.join(sorted(known))}")
    # stats runs from the repository's root: a relative path is taken from where this script was run
    store = str(Path(args.store).resolve()) if args.store else default_store()
    Path(store).parent.mkdir(parents=True, exist_ok=True)
    print(f"store {store}; load {os.getloadavg()[0]:.1f}", flush=True)
    print(
        "| size | rule | first click | games | won | rate | 95% interval | anchor | clears it | guesses/game "
        "| ms/game | wall s | published |"
    )
    print("|---|---|---|---:|---:|---:|---|---:|---|---:|---:|---:|---|")
    for name, rows, cols, mines, rule, first, anchor, anchors in ROWS:
        if args.only and f"{name}-{rule}" not in args.only:
            continue
        games = args.expert_games if name == "expert" else args.games
        s, wall = run_row(rows, cols, mines, rule, first, games, args.jobs, store, args.seed)
        low, high = s["interval"]
        label = f"expert {rows}x{cols}/{mines}" if name == "expert" else f"{rows}x{cols}/{mines}"
        print(
            f"| {label} | {rule} | {first[0]},{first[1]} | {s['games']:,} | {s['won']:,} "
            f"| {100 * s['rate']:.2f}% | {100 * low:.2f}-{100 * high:.2f}% | {100 * anchor:.2f}% "
            f"| {'yes' if low > anchor else 'no'} | {s['guesses_mean']:.2f} | {1000 * s['seconds_per_game']:.1f} "
            f"| {wall:.0f} | {anchors} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
