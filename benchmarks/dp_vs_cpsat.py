"""Per component: the frontier DP against CP-SAT enumeration, to choose where the DP hands over.

    python benchmarks/dp_vs_cpsat.py [--seed S]

Random clue puzzles (square boards, 20% mines, each safe cell shown with probability 0.5, no
total); for the largest component of each, the DP's widest step (states), its time, the number
of solutions and CP-SAT's enumeration time (capped). The DP costs per state, the enumeration per
solution; the hand-over (``cpsolve.deduce.count.MAX_STATES``) sits where the DP's layers get so
wide that enumeration of the (far fewer) solutions wins or the DP's memory becomes the problem.
"""

from __future__ import annotations

import argparse
import random
import time

from cpsolve.deduce import count as count_module
from cpsolve.deduce import frontier as frontier_module
from cpsolve.deduce.count import count_component
from cpsolve.deduce.position import Position, reduce_position
from cpsolve.deduce.search import enumerate_component
from cpsolve.errors import TimeLimitError


def random_position(size: int, rng: random.Random) -> Position:
    cells = [(r, c) for r in range(size) for c in range(size)]
    mines = {cell for cell in cells if rng.random() < 0.2}
    clues, unknown = {}, set()
    for r, c in cells:
        if (r, c) not in mines and rng.random() < 0.5:
            clues[(r, c)] = sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        else:
            unknown.add((r, c))
    return Position(size, size, clues, frozenset(), frozenset(unknown))


def widest(component) -> int:
    """The most states any DP step holds (by counting with the limit lifted)."""
    order = frontier_module.frontier_order(component)
    steps = frontier_module.steps_along(component, order)
    layer = {(): 0}
    most = 1
    for step in steps:
        following = {}
        for state in layer:
            for successor in step.advance(state):
                if successor is not None:
                    following[successor] = 0
        layer = following
        most = max(most, len(layer))
    return most


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--cap", type=float, default=10.0, help="seconds allowed to each enumeration")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    count_module.MAX_STATES = 10**9  # only the memory cap (MAX_STORED_STATES) stays
    # warm-up: the first CP-SAT solve pays for loading the library
    warm_up = reduce_position(random_position(6, rng)).components
    if warm_up:
        enumerate_component(warm_up[0], by_mines=False)
    print(f"{'size':>4} {'cells':>5} {'states':>8} {'solutions':>12} {'DP s':>8} {'CP-SAT s':>9}")
    for size in (8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 40, 50, 60):
        for _ in range(2):
            reduction = reduce_position(random_position(size, rng))
            if not reduction.components:
                continue
            component = max(reduction.components, key=lambda c: len(c.cells))
            started = time.perf_counter()
            try:
                counted = count_component(component, by_mines=False)
                dp_seconds = f"{time.perf_counter() - started:8.3f}"
                states, solutions = f"{widest(component):8d}", f"{counted.ways[0]:12d}"
            except count_module.FrontierTooWide:
                # past MAX_STORED_STATES: memory, not time, stops the DP
                states, solutions, dp_seconds = f"{'> limit':>8}", f"{'?':>12}", f"{'-':>8}"
            started = time.perf_counter()
            try:
                enumerate_component(component, by_mines=False, deadline=started + options.cap)
                cp_seconds = f"{time.perf_counter() - started:9.3f}"
            except TimeLimitError:
                cp_seconds = f">{options.cap:8.0f}"
            print(f"{size:4d} {len(component.cells):5d} {states} {solutions} {dp_seconds} {cp_seconds}")


if __name__ == "__main__":
    main()
