"""The counting DP's frontier orders: each greedy ranking alone against the choice among them.

    python benchmarks/frontier_orders.py [--seed S] [--cap SECONDS]

Positions: random clue puzzles (square boards, 20% mines, each safe cell shown with probability
0.5, no total), and bands with a clue at every other row and column (no game reveals them, a
puzzle can; their components run the band's length). For each, the exact count and backbone
(``analyse``) is timed with each ranking of ``cpsolve.deduce.frontier.RANKINGS`` alone (plain
"balance" is the order cpsolve used before the choice) and with ``frontier_order``'s choice; a
component whose DP outgrows ``MAX_STATES`` goes to CP-SAT enumeration as usual, and past --cap
seconds the run counts as unfinished. All finished runs must agree on the count.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from dp_vs_cpsat import random_position  # the same random puzzles (run from benchmarks/)

from cpsolve.deduce import Position, analyse
from cpsolve.deduce import frontier as frontier_module
from cpsolve.outcome import Status


def band_position(rows: int, cols: int, density: float, rng: random.Random) -> Position:
    clue_cells = {(r, c) for r in range(0, rows, 2) for c in range(0, cols, 2)}
    unknown = {(r, c) for r in range(rows) for c in range(cols)} - clue_cells
    mines = {cell for cell in sorted(unknown) if rng.random() < density}
    clues = {(r, c): sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1)) for r, c in clue_cells}
    return Position(rows, cols, clues, frozenset(), frozenset(unknown))


def timed(position: Position, cap: float) -> tuple[str, int | None]:
    began = time.perf_counter()
    answer = analyse(position, count=True, backbone=True, deadline=began + cap)
    if answer.status is Status.UNKNOWN:
        return f">{cap:.0f}", None
    return f"{time.perf_counter() - began:.3f}", answer.count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds allowed to each count")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    cases = [(f"random {size}x{size}", random_position(size, rng)) for size in (20, 30, 40, 40, 60, 60, 60)]
    cases += [
        (f"band {rows}x{cols}", band_position(rows, cols, density, rng))
        for rows, cols, density in ((3, 301, 0.3), (3, 1001, 0.3), (5, 201, 0.3), (7, 101, 0.2))
    ]
    rankings = list(frontier_module.RANKINGS)
    all_rankings = dict(frontier_module.RANKINGS)
    print(
        f"python {platform.python_version()}, {platform.machine()}; "
        f"seconds per count + backbone, cap {options.cap:.0f} s"
    )
    print(f"{'position':16}" + "".join(f" {name:>17}" for name in rankings) + f" {'chosen':>9}")
    timed(random_position(8, rng), options.cap)  # warm-up: imports and CP-SAT's first load
    for label, position in cases:
        row, counts = [], set()
        for name in rankings:
            frontier_module.RANKINGS = {name: all_rankings[name]}
            seconds, count = timed(position, options.cap)
            row.append(f"{seconds:>17}")
            counts.add(count)
        frontier_module.RANKINGS = all_rankings
        seconds, count = timed(position, options.cap)
        counts.add(count)
        if len(counts - {None}) > 1:
            raise SystemExit(f"{label}: the orders disagree on the count")
        print(f"{label:16}" + " ".join([""] + row) + f" {seconds:>9}")


if __name__ == "__main__":
    main()
