"""Time the deduction engine on expert positions against ms-toollib's ``cal_probability_onboard``.

    python benchmarks/deduce_speed.py [--boards N] [--seed S]

Positions: expert boards (16x30, 99 mines, uniform outside the centre's 3x3 so the first
click opens; seeded, so runs are repeatable). Play: open the centre, then repeatedly clear the cells cpsolve's backbone
proves safe and
flag those it proves mined; where nothing follows, the position is recorded (a guess is needed),
one safe covered cell is opened (the benchmark peeks at the board) and play goes on, so one board
gives several stuck positions. Stress: a random half of each board's safe cells revealed, no
flags.

On each position, in one run: cpsolve's count + backbone + probabilities (``weigh``, then exact
Fractions), cpsolve's ``backbone`` alone, and ms-toollib's probabilities; the probabilities must
agree to 1e-9. Each is timed as the fastest of a few runs (the machine is shared). Prints median
and worst seconds and the per-position time ratios.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import platform
import random
import statistics
import sys
import time

import ms_toollib as ms

from cpsolve.deduce import Position, backbone, probabilities_of, weigh

ROWS, COLS, MINES = 16, 30, 99
COVERED, FLAG = 10, 11


def neighbours(cell):
    row, col = cell
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= row + dr < ROWS and 0 <= col + dc < COLS:
                yield row + dr, col + dc


def lay_mines(rng: random.Random):
    """A board as ms-toollib draws it: -1 mines, else the count; the centre and its neighbours safe."""
    centre = (ROWS // 2, COLS // 2)
    keep_clear = {centre, *neighbours(centre)}
    cells = [(r, c) for r in range(ROWS) for c in range(COLS) if (r, c) not in keep_clear]
    mines = set(rng.sample(cells, MINES))
    return [
        [-1 if (r, c) in mines else sum(n in mines for n in neighbours((r, c))) for c in range(COLS)]
        for r in range(ROWS)
    ]


def open_cell(board, view, cell):
    """Flood-open from a safe cell, as a game does."""
    stack = [cell]
    while stack:
        row, col = stack.pop()
        if view[row][col] != COVERED:
            continue
        view[row][col] = board[row][col]
        if board[row][col] == 0:
            stack.extend(n for n in neighbours((row, col)) if view[n[0]][n[1]] == COVERED)


def position_of(view) -> Position:
    clues, flags, unknown = {}, set(), set()
    for row in range(ROWS):
        for col in range(COLS):
            value = view[row][col]
            if value == COVERED:
                unknown.add((row, col))
            elif value == FLAG:
                flags.add((row, col))
            else:
                clues[(row, col)] = value
    return Position(ROWS, COLS, clues, frozenset(flags), frozenset(unknown), MINES)


def play_positions(board, rng: random.Random, limit: int):
    """Stuck positions (as ms-toollib views) met while playing one board with the backbone."""
    view = [[COVERED] * COLS for _ in range(ROWS)]
    open_cell(board, view, (ROWS // 2, COLS // 2))
    found = []
    while len(found) < limit:
        position = position_of(view)
        if not any(board[r][c] != -1 for r, c in position.unknown):
            break  # won
        safe, mine = backbone(position)
        for row, col in mine:
            view[row][col] = FLAG
        for cell in safe:
            open_cell(board, view, cell)
        if safe or mine:
            continue
        found.append([line[:] for line in view])
        guess = rng.choice(sorted((r, c) for r, c in position.unknown if board[r][c] != -1))
        open_cell(board, view, guess)
    return found


def stress_position(board, rng: random.Random):
    view = [[COVERED] * COLS for _ in range(ROWS)]
    safe = [(r, c) for r in range(ROWS) for c in range(COLS) if board[r][c] != -1]
    for row, col in rng.sample(safe, len(safe) // 2):
        view[row][col] = board[row][col]
    return view


def best_of(repeats: int, work):
    """The fastest of `repeats` runs (the least disturbed by other work on a shared machine) and its result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - started)
    return best, result


def full_analysis(position):
    """What ``puzzle --count --deduce --probabilities`` computes, the solution drawn by CP-SAT aside."""
    weights = weigh(position)
    return probabilities_of(weights)


def ours(view, repeats: int):
    position = position_of(view)
    full, probabilities = best_of(repeats, lambda: full_analysis(position))
    step, _ = best_of(repeats, lambda: backbone(position))
    return full, step, probabilities, len(position.unknown)


def theirs(view, repeats: int):
    seconds, (result, _) = best_of(repeats, lambda: ms.cal_probability_onboard([line[:] for line in view], MINES))
    return seconds, result


def measure(name: str, views, repeats: int) -> None:
    full_times, step_times, their_times, ratios = [], [], [], []
    worst_difference = 0.0
    for view in views:
        full, step, probabilities, _ = ours(view, repeats)
        seconds, result = theirs(view, repeats)
        for (row, col), p in probabilities.items():
            worst_difference = max(worst_difference, abs(float(p) - result[row][col]))
        full_times.append(full)
        step_times.append(step)
        their_times.append(seconds)
        ratios.append(full / seconds)
    print(f"{name}: {len(views)} positions")
    for label, times in (
        ("cpsolve count+backbone+probabilities", full_times),
        ("cpsolve backbone alone", step_times),
        ("ms-toollib cal_probability_onboard", their_times),
    ):
        print(f"  {label:40s} median {statistics.median(times) * 1000:8.2f} ms   worst {max(times) * 1000:8.2f} ms")
    over = sum(1 for ratio in ratios if ratio > 3)
    print(
        f"  time ratio cpsolve/ms-toollib per position: median {statistics.median(ratios):.2f}, "
        f"worst {max(ratios):.2f}, over 3x on {over} of {len(ratios)}; "
        f"ratio of medians {statistics.median(full_times) / statistics.median(their_times):.2f}"
    )
    slow = sum(1 for seconds in full_times if seconds > 0.2)
    print(f"  cpsolve over 0.2 s on {slow} of {len(full_times)} positions")
    print(
        f"  largest probability difference: {worst_difference:.1e} "
        f"({'agree' if worst_difference <= 1e-9 else 'DISAGREE'} to 1e-9)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-board", type=int, default=5, help="stuck positions kept per board")
    parser.add_argument("--repeats", type=int, default=3, help="runs per position and solver; the fastest counts")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    played, stressed = [], []
    for _ in range(options.boards):
        board = lay_mines(rng)
        played.extend(play_positions(board, rng, options.per_board))
        stressed.append(stress_position(board, rng))
    print(
        f"python {platform.python_version()}, ms-toollib {importlib.metadata.version('ms-toollib')}, "
        f"{platform.machine()}, "
        f"{options.boards} expert boards (16x30, 99 mines), seed {options.seed}, best of {options.repeats} runs; "
        "shared machine, timings noisy"
    )
    measure("played, stuck where a guess is needed", played, options.repeats)
    measure("stress, a random half of the safe cells revealed", stressed, options.repeats)


if __name__ == "__main__":
    sys.exit(main())
